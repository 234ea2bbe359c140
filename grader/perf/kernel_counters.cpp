#include "grader/perf/kernel_counters.h"

#include "grader/csv/csv_reader.h"
#include "grader/process/process.h"
#include "grader/runners/runner_call.h"
#include "harness/core/file_io.h"
#include "harness/protocol/protocol.h"

#include <algorithm>
#include <charconv>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

/// At most this many launches of one call are measured (a multi-pass reduction or scan makes a
/// few; a launcher looping over thousands of launches is cut here, and the note says so).
constexpr int most_launches = 16;
constexpr const char* log_name = "ncu.csv";

// "1,234.5" (ncu groups thousands) as a number; nothing for "n/a" and other words.
std::optional<double> number_in(std::string text) {
  std::erase(text, ',');
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::size_t> column(const std::vector<std::string>& header, const char* name) {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end()
             ? std::nullopt
             : std::optional<std::size_t>(static_cast<std::size_t>(it - header.begin()));
}

std::string joined_metrics() {
  std::string out;
  for (const auto& m : counter_metric_names()) {
    out += (out.empty() ? "" : ",") + m;
  }
  return out;
}

} // namespace

const std::vector<std::string>& counter_metric_names() {
  static const std::vector<std::string> names{
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "sm__sass_data_bytes_mem_global_op_ld.sum",
      "sm__sass_data_bytes_mem_global_op_st.sum",
      "sm__sass_data_bytes_mem_global_op_atom.sum",
      "sm__sass_data_bytes_mem_global_op_red.sum",
      "smsp__sass_inst_executed_op_shared_ld.sum",
      "smsp__sass_inst_executed_op_shared_st.sum",
      "smsp__sass_inst_executed_op_shared_atom.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "sm__sass_data_bytes_mem_shared_op_ld.sum",
      "sm__sass_data_bytes_mem_shared_op_st.sum",
      "sm__sass_data_bytes_mem_shared_op_atom.sum",
      "smsp__inst_executed.sum",
      "smsp__thread_inst_executed.sum",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "gpu__time_duration.sum",
      "launch__block_size",
      "launch__grid_size",
      "launch__registers_per_thread",
      "launch__shared_mem_per_block_static",
      "launch__shared_mem_per_block_dynamic",
      "launch__occupancy_limit_registers",
      "launch__occupancy_limit_shared_mem",
      "launch__occupancy_limit_warps",
      "launch__occupancy_limit_blocks",
      "sm__maximum_warps_per_active_cycle_pct",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
  };
  return names;
}

std::map<std::string, double> kernel_counters::sums() const {
  std::map<std::string, double> total;
  for (const auto& l : launches) {
    for (const auto& [metric, value] : l.values) {
      total[metric] += value;
    }
  }
  return total;
}

const launch_counters* kernel_counters::widest() const {
  const launch_counters* best = nullptr;
  double most = -1;
  for (const auto& l : launches) {
    const auto block = l.values.find("launch__block_size");
    const auto grid = l.values.find("launch__grid_size");
    const double threads =
        block != l.values.end() && grid != l.values.end() ? block->second * grid->second : 0;
    if (threads > most) {
      most = threads;
      best = &l;
    }
  }
  return best;
}

result<kernel_counters> read_counters_csv(const fs::path& file) {
  auto rows = csv::read_csv_file(file, "Nsight Compute's metrics");
  if (!rows) {
    return fail(rows.error());
  }
  // ncu's own lines ("==PROF== Connected to process ...") come before the table's header.
  const auto header = std::find_if(rows->begin(), rows->end(), [](const csv::csv_row& r) {
    return std::find(r.fields.begin(), r.fields.end(), "Metric Name") != r.fields.end();
  });
  if (header == rows->end()) {
    return fail(file.string() + ": Nsight Compute wrote no metric table (no \"Metric Name\" "
                                "column)");
  }
  const auto id = column(header->fields, "ID");
  const auto kernel = column(header->fields, "Kernel Name");
  const auto name = column(header->fields, "Metric Name");
  const auto value = column(header->fields, "Metric Value");
  if (!id || !kernel || !value) {
    return fail(file.string() + ":" + std::to_string(header->line) +
                ": the metric table lacks ncu's ID, Kernel Name or Metric Value column");
  }
  const std::size_t width = std::max({*id, *kernel, *name, *value}) + 1;
  kernel_counters out;
  std::string current_id;
  for (auto row = header + 1; row != rows->end(); ++row) {
    if (row->fields.size() < width) {
      continue; // a line of ncu's own after the table
    }
    if (out.launches.empty() || row->fields[*id] != current_id) {
      current_id = row->fields[*id];
      out.launches.push_back({row->fields[*kernel], {}});
    }
    if (const auto v = number_in(row->fields[*value])) {
      out.launches.back().values[row->fields[*name]] = *v;
    }
  }
  return out;
}

bool counters_restricted(const std::string& ncu_output) {
  return ncu_output.find("ERR_NVGPUCTRPERM") != std::string::npos;
}

std::string counters_permission_fix() {
  return "this machine lets only administrators read the GPU's performance counters "
         "(ERR_NVGPUCTRPERM); an administrator allows every user with "
         "`options nvidia NVreg_RestrictProfilingToAdminUsers=0` in a file under "
         "/etc/modprobe.d/ and a reboot (or reloading the nvidia module), see "
         "https://developer.nvidia.com/ERR_NVGPUCTRPERM";
}

result<counters_outcome> measure_counters(const protocol::plan& plan, const counters_setup& setup) {
  const std::string& launcher = plan.launcher;
  const fs::path log = plan.output_dir / log_name;
  const std::vector<std::string> wrapper{setup.ncu.string(),
                                         "--profile-from-start",
                                         "off",
                                         "--launch-count",
                                         std::to_string(most_launches),
                                         "--metrics",
                                         joined_metrics(),
                                         "--csv",
                                         "--log-file",
                                         log.string()};
  auto run =
      runners::run_runner(setup.context, setup.runner, plan, setup.time_limit_seconds, wrapper,
                          runners::runner_file_size_bytes, nsight_compute_dirs(setup.ncu));
  if (!run) {
    return fail(run.error());
  }
  counters_outcome out;
  out.wall_seconds = run->wall_seconds;
  const auto text = read_file(log);
  if (counters_restricted(text ? *text : std::string()) || counters_restricted(run->stderr_tail)) {
    out.restricted = true;
    out.problem = counters_permission_fix();
    return out;
  }
  if (!run->clean()) {
    out.tool_failed = !run->log.started && !run->timed_out;
    out.problem =
        "Nsight Compute's run of " + launcher + " did not finish cleanly (" + run->ending() + ")";
    return out;
  }
  auto counters = read_counters_csv(log);
  if (!counters) {
    out.problem = counters.error();
    return out;
  }
  if (counters->launches.empty()) {
    out.problem = "Nsight Compute measured no kernel launch in " + launcher + "'s call";
    return out;
  }
  out.counters = std::move(*counters);
  return out;
}

std::vector<fs::path> nsight_compute_dirs(const fs::path& ncu) {
  // The toolkit's `ncu` is a script that runs the Nsight Compute it finds beside the toolkit or
  // under /opt/nvidia (where NVIDIA's packages put it), so both must be readable in the sandbox.
  std::vector<fs::path> dirs;
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(ncu, ec);
  if (!ec && real.has_parent_path()) {
    dirs.push_back(real.parent_path().parent_path());
  }
  if (fs::is_directory("/opt/nvidia", ec)) {
    dirs.emplace_back("/opt/nvidia");
  }
  return dirs;
}

std::optional<fs::path> find_ncu(const fs::path& nvcc) {
  return runners::find_cuda_tool(nvcc, "ncu");
}

std::string ncu_version(const fs::path& ncu) {
  process::spawn_options opts;
  opts.argv = {ncu.string(), "--version"};
  opts.time_limit_seconds = 30;
  const auto ran = process::run_process(opts);
  if (!ran || !ran->succeeded()) {
    return "Nsight Compute";
  }
  // "... Version 2025.3.1.0 (build 36398880) (public-release)" on its last line.
  const std::string& out = ran->stdout_text;
  const auto at = out.rfind("Version ");
  if (at == std::string::npos) {
    return "Nsight Compute";
  }
  const auto start = at + 8;
  const auto end = out.find_first_of(" \n", start);
  return "Nsight Compute " + out.substr(start, end == std::string::npos ? end : end - start);
}

} // namespace cugrade::perf
