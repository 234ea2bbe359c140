#include "grader/perf/fault_address.h"

#include "harness/problems/buffer_words.h"

namespace cugrade::perf {

namespace {

constexpr std::uint64_t nearby = 1u << 20; // an access further away names no buffer

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
  if (below != nullptr && address - below->address < below->bytes + nearby) {
    return below;
  }
  if (below == nullptr && above != nullptr && above->address - address <= nearby) {
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
  return problems::outside_words(
      *b, static_cast<long long>(address) - static_cast<long long>(place->address));
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
