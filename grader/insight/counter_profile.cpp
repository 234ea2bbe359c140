#include "grader/insight/counter_profile.h"

#include <algorithm>
#include <cmath>

namespace cugrade::insight {
namespace {

constexpr double wavefront_bytes = 128;
constexpr double word_bytes = 4;
constexpr double lanes_per_warp = 32;

double value(const std::map<std::string, double>& m, const std::string& name) {
  const auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

std::uint64_t count(double v) {
  return v <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(v));
}

request_sum global_sum(const counter_readings& c, const std::string& op) {
  request_sum r;
  r.requests = count(value(c.sums, "l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum"));
  r.units = count(value(c.sums, "l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum"));
  const double asked = value(c.sums, "sm__sass_data_bytes_mem_global_op_" + op + ".sum");
  r.ideal_units = std::max(r.requests, count(std::ceil(asked / sector_bytes)));
  return r;
}

// Wavefronts as the instructions' addresses need them (counted at the SASS level), which is what
// the student's indexing decides. L1's own counter adds wavefronts for the shared-memory data
// path serving other warps' traffic at the same time (a conflict-free store measures 1.0 alone
// and up to 1.23 with four blocks per SM, docs/evidence/shared-store-wavefronts.md); it is the
// fallback for an Nsight Compute that gave no SASS-level count.
double shared_wavefronts(const counter_readings& c, const std::string& op) {
  const auto sass =
      c.sums.find("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum");
  return sass != c.sums.end()
             ? sass->second
             : value(c.sums, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum");
}

request_sum shared_sum(const counter_readings& c, const std::string& op) {
  request_sum r;
  r.requests = count(value(c.sums, "smsp__sass_inst_executed_op_shared_" + op + ".sum"));
  r.units = count(shared_wavefronts(c, op));
  const double asked = value(c.sums, "sm__sass_data_bytes_mem_shared_op_" + op + ".sum");
  r.ideal_units = std::max(r.requests, count(std::ceil(asked / wavefront_bytes)));
  return r;
}

occupancy launch_occupancy(const counter_readings& c) {
  const auto& w = c.widest_launch;
  occupancy o;
  o.threads_per_block = count(value(w, "launch__block_size"));
  o.shared_per_block = count(value(w, "launch__shared_mem_per_block_static") +
                             value(w, "launch__shared_mem_per_block_dynamic"));
  o.fraction = value(w, "sm__maximum_warps_per_active_cycle_pct") / 100;
  const std::pair<const char*, occupancy_limit> limits[] = {
      {"launch__occupancy_limit_blocks", occupancy_limit::blocks},
      {"launch__occupancy_limit_warps", occupancy_limit::warps},
      {"launch__occupancy_limit_shared_mem", occupancy_limit::shared_memory},
      {"launch__occupancy_limit_registers", occupancy_limit::registers}};
  double fewest = -1;
  for (const auto& [name, limit] : limits) {
    const auto it = w.find(name);
    if (it != w.end() && (fewest < 0 || it->second < fewest)) {
      fewest = it->second;
      o.limit = limit;
    }
  }
  o.blocks_per_sm = fewest < 0 ? 0 : static_cast<int>(fewest);
  o.registers_per_thread = count(value(w, "launch__registers_per_thread"));
  if (o.fraction >= 1 || fewest < 0) {
    o.limit = occupancy_limit::none;
  }
  return o;
}

} // namespace

memory_profile profile_from_counters(const problems::problem& problem, const problems::shape& s,
                                     std::string_view kernel, const counter_readings& c) {
  memory_profile m = profile_basis(problem, s, kernel);
  m.launches = c.launches;
  m.global_load = global_sum(c, "ld");
  m.global_store = global_sum(c, "st");
  m.shared_load = shared_sum(c, "ld");
  m.shared_store = shared_sum(c, "st");
  m.global_atomic.requests =
      count(value(c.sums, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") +
            value(c.sums, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"));
  m.global_atomic.lanes = count((value(c.sums, "sm__sass_data_bytes_mem_global_op_atom.sum") +
                                 value(c.sums, "sm__sass_data_bytes_mem_global_op_red.sum")) /
                                word_bytes);
  m.shared_atomic.requests = count(value(c.sums, "smsp__sass_inst_executed_op_shared_atom.sum"));
  m.shared_atomic.lanes =
      count(value(c.sums, "sm__sass_data_bytes_mem_shared_op_atom.sum") / word_bytes);
  m.lanes_known = false;
  const std::pair<request_sum*, std::pair<const char*, const char*>> kinds[] = {
      {&m.global_load, {"global", "load"}},
      {&m.global_store, {"global", "store"}},
      {&m.shared_load, {"shared", "load"}},
      {&m.shared_store, {"shared", "store"}}};
  for (const auto& [sum, where] : kinds) {
    if (sum->requests > 0) {
      m.lines.push_back({0, where.first, where.second, *sum});
    }
  }
  m.launch = launch_occupancy(c);
  return m;
}

std::vector<reports::insight_metric> measured_only_metrics(const problems::problem& problem,
                                                           const problems::shape& s,
                                                           const counter_readings& c) {
  std::vector<reports::insight_metric> out;
  const auto& w = c.widest_launch;
  if (w.contains("sm__warps_active.avg.pct_of_peak_sustained_active")) {
    out.push_back({"achieved_occupancy",
                   value(w, "sm__warps_active.avg.pct_of_peak_sustained_active") / 100, 1.0});
  }
  if (w.contains("launch__registers_per_thread")) {
    out.push_back({"registers_per_thread", value(w, "launch__registers_per_thread"), std::nullopt});
  }
  const double instructions = value(c.sums, "smsp__inst_executed.sum");
  if (instructions > 0) {
    out.push_back({"lanes_per_instruction",
                   value(c.sums, "smsp__thread_inst_executed.sum") / instructions, lanes_per_warp});
  }
  const double minimum = problem.work(s).bytes;
  if (minimum > 0 && c.sums.contains("dram__bytes_read.sum")) {
    out.push_back(
        {"dram_bytes_per_minimum",
         (value(c.sums, "dram__bytes_read.sum") + value(c.sums, "dram__bytes_write.sum")) / minimum,
         1.0});
  }
  if (c.sums.contains("gpu__time_duration.sum")) {
    out.push_back(
        {"kernel_microseconds", value(c.sums, "gpu__time_duration.sum") / 1000, std::nullopt});
  }
  return out;
}

} // namespace cugrade::insight
