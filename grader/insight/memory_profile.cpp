#include "grader/insight/memory_profile.h"

#include <algorithm>

namespace cugrade::insight {
namespace {

constexpr std::uint64_t warps_per_sm = 64;
constexpr std::uint64_t blocks_per_sm = 32;
constexpr std::uint64_t shared_per_sm = 228 * 1024;
constexpr std::uint64_t shared_reserved_per_block = 1024;

request_sum* sum_for(memory_profile& m, const protocol::access_record& a) {
  const bool global = a.space == "global";
  if (a.op == "load") {
    return global ? &m.global_load : &m.shared_load;
  }
  if (a.op == "store") {
    return global ? &m.global_store : &m.shared_store;
  }
  return global ? &m.global_atomic : &m.shared_atomic;
}

void add_line(memory_profile& m, const protocol::access_record& a) {
  auto it = std::find_if(m.lines.begin(), m.lines.end(), [&](const line_requests& l) {
    return l.line == a.line && l.space == a.space && l.op == a.op;
  });
  if (it == m.lines.end()) {
    m.lines.push_back({a.line, a.space, a.op, {}});
    it = m.lines.end() - 1;
  }
  it->sum.add(a);
}

double ratio(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0 : static_cast<double>(a) / static_cast<double>(b);
}

} // namespace

void request_sum::add(const protocol::access_record& a) {
  requests += a.requests;
  units += a.units;
  ideal_units += a.ideal_units;
  lanes += a.lanes;
  packed_requests += a.packed_requests;
}

double request_sum::per_request() const {
  return ratio(units, requests);
}

double request_sum::ideal_per_request() const {
  return ratio(ideal_units, requests);
}

double request_sum::lanes_per_request() const {
  return ratio(lanes, requests);
}

double memory_profile::global_bytes() const {
  return static_cast<double>(global_load.units + global_store.units) * sector_bytes;
}

occupancy occupancy_of(std::uint64_t threads, std::uint64_t shared_bytes) {
  occupancy o;
  o.threads_per_block = threads;
  o.shared_per_block = shared_bytes;
  const std::uint64_t warps = std::max<std::uint64_t>(1, (threads + 31) / 32);
  const std::uint64_t by_warps = warps_per_sm / warps;
  const std::uint64_t by_shared = shared_bytes == 0
                                      ? blocks_per_sm
                                      : shared_per_sm / (shared_bytes + shared_reserved_per_block);
  std::uint64_t blocks = blocks_per_sm;
  o.limit = occupancy_limit::blocks;
  if (by_warps < blocks) {
    blocks = by_warps;
    o.limit = occupancy_limit::warps;
  }
  if (by_shared < blocks) {
    blocks = by_shared;
    o.limit = occupancy_limit::shared_memory;
  }
  o.blocks_per_sm = static_cast<int>(blocks);
  o.fraction = static_cast<double>(blocks * warps) / static_cast<double>(warps_per_sm);
  if (o.fraction >= 1) {
    o.limit = occupancy_limit::none;
  }
  return o;
}

const char* limit_name(occupancy_limit l) {
  switch (l) {
  case occupancy_limit::none:
    return "nothing";
  case occupancy_limit::warps:
    return "the block size";
  case occupancy_limit::shared_memory:
    return "shared memory";
  case occupancy_limit::registers:
    return "registers per thread";
  case occupancy_limit::blocks:
    break;
  }
  return "the limit of 32 blocks per SM";
}

memory_profile profile_basis(const problems::problem& problem, const problems::shape& s,
                             std::string_view kernel) {
  memory_profile m;
  m.kernel = std::string(kernel);
  m.minimum_bytes = problem.work(s).bytes;
  const auto inputs = problem.inputs(s);
  m.input_elements = inputs.empty() ? 0 : static_cast<double>(inputs.front().count);
  m.expected = problem.expected_traffic(kernel, s);
  return m;
}

memory_profile summarise(const problems::problem& problem, const problems::shape& s,
                         std::string_view kernel,
                         const std::vector<protocol::launch_record>& launches) {
  memory_profile m = profile_basis(problem, s, kernel);
  m.launches = launches.size();
  std::uint64_t most_threads = 0;
  for (const protocol::launch_record& l : launches) {
    for (const protocol::access_record& a : l.accesses) {
      sum_for(m, a)->add(a);
      add_line(m, a);
    }
    m.left_out += l.left_out;
    const std::uint64_t threads = std::uint64_t{l.block[0]} * l.block[1] * l.block[2];
    const std::uint64_t launched = threads * l.grid[0] * l.grid[1] * l.grid[2];
    if (launched > most_threads) {
      most_threads = launched;
      m.launch = occupancy_of(threads, l.static_shared + l.dynamic_shared);
    }
  }
  return m;
}

} // namespace cugrade::insight
