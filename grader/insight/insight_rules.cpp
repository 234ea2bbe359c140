#include "grader/insight/insight_rules.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "harness/core/untrusted_text.h"

namespace cugrade::insight {
namespace {

double units(std::uint64_t n) {
  return static_cast<double>(n);
}

std::string location(const source_context& s, int line) {
  return line > 0 && !s.file.empty() ? fmt::format("{}:{}", s.file, line) : std::string();
}

// " (`Nds[tx][k]`)": the line as the student wrote it, trimmed and shortened.
std::string quoted(const source_context& s, int line) {
  if (line <= 0 || static_cast<std::size_t>(line) > s.lines.size()) {
    return "";
  }
  std::string text = s.lines[static_cast<std::size_t>(line) - 1];
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) {
    return "";
  }
  text = text.substr(first);
  if (const auto comment = text.find("//"); comment != std::string::npos) {
    text.resize(comment);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.pop_back();
  }
  if (text.size() > 80) {
    text = text.substr(0, 77) + "...";
  }
  return " (`" + escape_untrusted_text(text) + "`)";
}

std::string at(const source_context& s, int line) {
  const std::string where = location(s, line);
  return where.empty() ? std::string() : " at " + where + quoted(s, line);
}

const char* verb(const std::string& op) {
  return op == "load" ? "loads" : op == "store" ? "stores" : "updates";
}

// "the access at matmul.cu:41 (`...`)", or, from the GPU's counters (line 0), "the kernel's
// global loads".
std::string subject(const source_context& s, const line_requests& l) {
  if (l.line > 0) {
    return (l.space == "shared" ? "the shared-memory access" : "the access") + at(s, l.line);
  }
  return fmt::format("the kernel's {} {}s", l.space, l.op);
}

void uncoalesced(const memory_profile& m, const source_context& s, double total,
                 std::vector<reports::insight>& out) {
  for (const line_requests& l : m.lines) {
    if (l.space != "global" || l.op == "atomic") {
      continue;
    }
    const double waste = units(l.sum.units) - units(l.sum.ideal_units);
    if (l.sum.per_request() < 2 * l.sum.ideal_per_request() || waste <= 0) {
      continue;
    }
    out.push_back(
        {"uncoalesced_access",
         fmt::format("{} {} sectors of 32 bytes per warp request where {:.1f} would do: "
                     "consecutive threads touch addresses far apart; let consecutive threads "
                     "(threadIdx.x) access consecutive elements",
                     subject(s, l),
                     l.line > 0 ? fmt::format("{} {:.1f}", verb(l.op), l.sum.per_request())
                                : fmt::format("take {:.1f}", l.sum.per_request()),
                     l.sum.ideal_per_request()),
         location(s, l.line), waste / total});
  }
}

void bank_conflicts(const memory_profile& m, const source_context& s, double total,
                    std::vector<reports::insight>& out) {
  for (const line_requests& l : m.lines) {
    if (l.space != "shared") {
      continue;
    }
    const double extra = units(l.sum.units) - units(l.sum.ideal_units);
    if (l.sum.per_request() < 1.5 * l.sum.ideal_per_request() || extra <= 0) {
      continue;
    }
    const double ways = l.sum.per_request() / std::max(1.0, l.sum.ideal_per_request());
    out.push_back(
        {"bank_conflicts",
         fmt::format("{} {} {:.1f}-way bank conflicts ({:.0f} extra wavefronts): the threads of "
                     "a warp reach words in the same bank; index the array so consecutive threads "
                     "use consecutive words (a tile as [ty][tx], or rows padded by one element)",
                     subject(s, l), l.line > 0 ? "has" : "have", ways, extra),
         location(s, l.line), extra * shared_wavefront_cost / total});
  }
}

void global_atomics(const memory_profile& m, double total, std::vector<reports::insight>& out) {
  if (m.input_elements <= 0 || m.global_atomic.lanes == 0) {
    return;
  }
  const double per_element = units(m.global_atomic.lanes) / m.input_elements;
  const double shared_per_element = units(m.shared_atomic.lanes) / m.input_elements;
  if (per_element < 0.5 || shared_per_element >= 0.5) {
    return;
  }
  const double waste = units(m.global_atomic.lanes) * (global_atomic_cost - shared_atomic_cost);
  out.push_back(
      {"global_atomics",
       fmt::format("{:.2f} atomic operations on global memory per input element, and none in "
                   "shared memory: every update contends for the same few global bins; "
                   "privatise them (count into a __shared__ copy per block, then add each bin "
                   "to global memory once)",
                   per_element),
       "", std::min(1.0, waste / total)});
}

// The global line whose lanes asked for the most bytes: where most of the traffic is.
const line_requests* busiest_global_line(const memory_profile& m) {
  const line_requests* busiest = nullptr;
  for (const line_requests& l : m.lines) {
    if (l.space == "global" && l.op != "atomic" && l.line > 0 &&
        (busiest == nullptr || l.sum.ideal_units > busiest->sum.ideal_units)) {
      busiest = &l;
    }
  }
  return busiest;
}

// Global traffic at least twice what the lecture's technique moves, counting as waste only the
// bytes the threads asked for beyond the technique's: sectors lost to scattered addresses are
// uncoalesced_access's, not blamed twice.
void excess_traffic(const memory_profile& m, const source_context& s, double total,
                    std::vector<reports::insight>& out) {
  if (!m.expected || m.minimum_bytes <= 0 || m.expected->bytes_per_minimum <= 0) {
    return;
  }
  const double moved = m.global_bytes() / m.minimum_bytes;
  const double technique = m.expected->bytes_per_minimum;
  const double asked = units(m.global_load.ideal_units + m.global_store.ideal_units) * sector_bytes;
  const double excess = (asked - technique * m.minimum_bytes) / sector_bytes;
  if (moved < 2 * technique || excess <= 0) {
    return;
  }
  const line_requests* busiest = busiest_global_line(m);
  const int line = busiest != nullptr ? busiest->line : 0;
  const std::string where = line > 0 ? ", the most by the access" + at(s, line) : std::string();
  out.push_back(
      {"excess_traffic",
       fmt::format("{} moves {:.1f}x the minimum global bytes where {} move {:.1f}x{}: "
                   "{}",
                   m.kernel, moved, m.expected->technique, technique, where, m.expected->advice),
       location(s, line), std::min(1.0, excess / total)});
}

// Shared requests well above what the same lanes packed into warps would need: the working
// threads are spread over every warp (`t % stride == 0`) instead of packed (`t < stride`).
void idle_lanes(const memory_profile& m, const source_context& s, double total,
                std::vector<reports::insight>& out) {
  const request_sum shared = m.shared_load + m.shared_store;
  // The GPU's counters count instructions, not the lanes in them: no claim without lanes.
  if (!m.lanes_known || shared.requests == 0 ||
      units(shared.requests) < 1.5 * units(shared.packed_requests)) {
    return;
  }
  const double waste = units(shared.requests - shared.packed_requests) * shared_wavefront_cost;
  // The line whose requests exceed their packed count the most.
  const line_requests* worst = nullptr;
  for (const line_requests& l : m.lines) {
    if (l.space == "shared" &&
        (worst == nullptr || l.sum.requests - l.sum.packed_requests >
                                 worst->sum.requests - worst->sum.packed_requests)) {
      worst = &l;
    }
  }
  const int line = worst != nullptr ? worst->line : 0;
  const std::string lanes =
      m.lanes_known ? fmt::format("on average {:.1f} of a warp's 32 lanes take part in each "
                                  "shared-memory access, and ",
                                  shared.lanes_per_request())
                    : std::string();
  out.push_back(
      {"idle_lanes",
       fmt::format("the working threads are spread over every warp{}: {}{:.1f} times the warps "
                   "needed issue the shared-memory accesses; keep the working threads packed in "
                   "the first threads (`t < stride`, not `t % stride == 0`) so whole warps go "
                   "idle together",
                   at(s, line), lanes,
                   units(shared.requests) /
                       units(std::max<std::uint64_t>(1, shared.packed_requests))),
       location(s, line), std::min(1.0, waste / total)});
}

void low_occupancy(const memory_profile& m, std::vector<reports::insight>& out) {
  const occupancy& o = m.launch;
  if (o.fraction > 0.25 || o.limit == occupancy_limit::none || o.limit == occupancy_limit::blocks) {
    return;
  }
  std::string why = fmt::format("blocks of {} threads", o.threads_per_block);
  if (o.limit == occupancy_limit::shared_memory) {
    why = fmt::format("{} bytes of shared memory per block", o.shared_per_block);
  } else if (o.limit == occupancy_limit::registers) {
    why = fmt::format("{} registers per thread", o.registers_per_thread);
  }
  out.push_back({"low_occupancy",
                 fmt::format("only {} block(s) fit on an SM at once ({:.0f}% of its warps), "
                             "limited by {}: too few warps to hide memory latency; use less "
                             "shared memory (or fewer registers) per block, or smaller blocks",
                             o.blocks_per_sm, o.fraction * 100, why),
                 "", std::clamp(1 - o.fraction / 0.5, 0.0, 1.0)});
}

} // namespace

double modelled_cost(const memory_profile& m) {
  return units(m.global_load.units + m.global_store.units) +
         units(m.shared_load.units + m.shared_store.units + m.shared_atomic.units) *
             shared_wavefront_cost +
         units(m.global_atomic.lanes) * global_atomic_cost +
         units(m.shared_atomic.lanes) * shared_atomic_cost;
}

std::vector<reports::insight_metric> metrics_of(const memory_profile& m) {
  std::vector<reports::insight_metric> out;
  const auto per_request = [&](const char* name, const request_sum& r) {
    if (r.requests > 0) {
      out.push_back({name, r.per_request(), r.ideal_per_request()});
    }
  };
  per_request("global_load_sectors_per_request", m.global_load);
  per_request("global_store_sectors_per_request", m.global_store);
  per_request("shared_load_wavefronts_per_request", m.shared_load);
  per_request("shared_store_wavefronts_per_request", m.shared_store);
  if (m.minimum_bytes > 0) {
    out.push_back({"global_bytes_per_minimum", m.global_bytes() / m.minimum_bytes, 1.0});
  }
  if (m.input_elements > 0) {
    out.push_back({"global_atomics_per_element", units(m.global_atomic.lanes) / m.input_elements,
                   std::nullopt});
    out.push_back({"shared_atomics_per_element", units(m.shared_atomic.lanes) / m.input_elements,
                   std::nullopt});
  }
  const request_sum shared = m.shared_load + m.shared_store;
  if (shared.requests > 0 && m.lanes_known) {
    out.push_back({"lanes_per_shared_request", shared.lanes_per_request(), 32.0});
  }
  if (shared.requests > 0 && m.lanes_known) {
    out.push_back(
        {"shared_requests_per_packed",
         units(shared.requests) / units(std::max<std::uint64_t>(1, shared.packed_requests)), 1.0});
  }
  const request_sum global = m.global_load + m.global_store;
  if (global.requests > 0 && m.lanes_known) {
    out.push_back({"lanes_per_global_request", global.lanes_per_request(), 32.0});
  }
  out.push_back({"theoretical_occupancy", m.launch.fraction, 1.0});
  return out;
}

std::vector<reports::insight> insights_of(const memory_profile& m, const source_context& source) {
  std::vector<reports::insight> out;
  const double total = modelled_cost(m);
  if (total > 0) {
    uncoalesced(m, source, total, out);
    excess_traffic(m, source, total, out);
    bank_conflicts(m, source, total, out);
    global_atomics(m, total, out);
    idle_lanes(m, source, total, out);
  }
  low_occupancy(m, out);
  std::erase_if(out, [](const reports::insight& i) { return i.cost_share < least_reported_share; });
  std::stable_sort(out.begin(), out.end(),
                   [](const reports::insight& a, const reports::insight& b) {
                     return a.cost_share > b.cost_share;
                   });
  return out;
}

} // namespace cugrade::insight
