#include "grader/perf/fault_address.h"

#include "harness/problems/buffer_words.h"

#include <cstdint>
#include <fmt/format.h>

namespace cugrade::perf {

namespace {

constexpr std::uint64_t nearby = 1u << 20; // an access further away names no buffer

// How far past the end of `p` an address at or above its start lies (0 inside it).
std::uint64_t bytes_past_end(const protocol::buffer_place& p, std::uint64_t address) {
  const std::uint64_t offset = address - p.address;
  return offset < p.bytes ? 0 : offset - p.bytes;
}

const protocol::buffer_place* nearest(const std::vector<protocol::buffer_place>& places,
                                      std::uint64_t address) {
  const protocol::buffer_place* below = nullptr; // the highest start at or below the address
  const protocol::buffer_place* above = nullptr; // the lowest start above it
  for (const auto& p : places) {
    if (p.address <= address && (below == nullptr || p.address > below->address)) {
      below = &p;
    } else if (p.address > address && (above == nullptr || p.address < above->address)) {
      above = &p;
    }
  }
  // Between two buffers, the nearer edge names it: an underflow of a later buffer (`out[i - 1]`
  // at i = 0) lies closer to that buffer's start than to the end of the one before it.
  const std::uint64_t past_below = below == nullptr ? UINT64_MAX : bytes_past_end(*below, address);
  const std::uint64_t before_above = above == nullptr ? UINT64_MAX : above->address - address;
  if (below != nullptr && past_below <= before_above && past_below < nearby) {
    return below;
  }
  if (above != nullptr && before_above <= nearby) {
    return above;
  }
  return nullptr;
}

} // namespace

std::string outside_buffer_words(const problems::problem& problem, const problems::shape& dims,
                                 const std::vector<protocol::buffer_place>& places,
                                 std::uint64_t address) {
  const auto* place = nearest(places, address);
  if (place == nullptr) {
    return "";
  }
  const auto buffers = problems::case_buffers(problem, dims);
  const auto* b = problems::buffer_named(buffers, place->name, place->bytes);
  if (b == nullptr) {
    return "";
  }
  return problems::outside_words(*b, static_cast<long long>(address) -
                                         static_cast<long long>(place->address));
}

std::string host_memory_words(const protocol::runner_log& log, std::size_t case_index,
                              std::uint64_t address) {
  for (const auto& run : log.runs) {
    if (run.case_index != case_index) {
      continue;
    }
    for (const auto& range : run.host_memory) {
      if (range.contains(address)) {
        return fmt::format("which {} at {:#x} (memory of the host process: a "
                           "stack, the heap or a static variable), not device memory",
                           reaches_host_memory, address);
      }
    }
  }
  return "";
}

std::optional<std::size_t> faulting_case(const protocol::runner_log& log) {
  if (log.open_case) {
    return log.open_case;
  }
  for (auto r = log.runs.rbegin(); r != log.runs.rend(); ++r) {
    if (r->error_kind) {
      return r->case_index;
    }
  }
  if (!log.began_seconds.empty()) {
    return log.began_seconds.rbegin()->first;
  }
  return std::nullopt;
}

} // namespace cugrade::perf
