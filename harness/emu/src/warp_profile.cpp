// Warp requests from the lanes' recorded accesses (warp_profile.h).
#include "harness/emu/src/warp_profile.h"

#include <algorithm>
#include <utility>

namespace cugrade::emu::detail {
namespace {

constexpr std::uintptr_t sector_bytes = 32;
constexpr std::uintptr_t word_bytes = 4;
constexpr std::uintptr_t banks = 32;

// Every `unit`-byte aligned piece of memory the lanes touch (words, sectors), sorted, without
// repeats.
std::vector<std::uintptr_t> pieces_of(const std::vector<const lane_access*>& lanes,
                                      std::uintptr_t unit) {
  std::vector<std::uintptr_t> pieces;
  for (const lane_access* a : lanes) {
    const std::uintptr_t last = (a->address + (a->bytes == 0 ? 1 : a->bytes) - 1) / unit;
    for (std::uintptr_t p = a->address / unit; p <= last; ++p) {
      pieces.push_back(p);
    }
  }
  std::sort(pieces.begin(), pieces.end());
  pieces.erase(std::unique(pieces.begin(), pieces.end()), pieces.end());
  return pieces;
}

const char* space_name(profile_space s) {
  return s == profile_space::global ? "global" : "shared";
}

const char* op_name(profile_op o) {
  switch (o) {
  case profile_op::load:
    return "load";
  case profile_op::store:
    return "store";
  case profile_op::atomic:
    break;
  }
  return "atomic";
}

void add_counts(request_counts& into, const request_counts& from) {
  into.requests += from.requests;
  into.units += from.units;
  into.ideal_units += from.ideal_units;
  into.lanes += from.lanes;
  into.bytes += from.bytes;
  into.packed_requests += from.packed_requests;
}

} // namespace

std::uint64_t sectors_of(const std::vector<const lane_access*>& lanes) {
  return pieces_of(lanes, sector_bytes).size();
}

namespace {

// The most distinct words any one bank serves to these lanes: one word read by many lanes is a
// broadcast.
std::uint64_t bank_passes(const std::vector<const lane_access*>& lanes) {
  unsigned per_bank[banks] = {};
  unsigned most = 0;
  for (const std::uintptr_t w : pieces_of(lanes, word_bytes)) {
    most = std::max(most, ++per_bank[w % banks]);
  }
  return most == 0 ? 1 : most;
}

} // namespace

std::uint64_t wavefronts_of(const std::vector<const lane_access*>& lanes) {
  const bool wide =
      std::any_of(lanes.begin(), lanes.end(), [](const lane_access* a) { return a->bytes > 8; });
  if (!wide) {
    return bank_passes(lanes);
  }
  // 16-byte accesses are served a half-warp at a time (an H200's LDS.128: two half-warps that
  // read one 16-byte piece each take 2 wavefronts, not 1; docs/insight.md).
  std::vector<const lane_access*> halves[2];
  for (const lane_access* a : lanes) {
    halves[a->lane < 16 ? 0 : 1].push_back(a);
  }
  std::uint64_t wavefronts = 0;
  for (const auto& half : halves) {
    if (!half.empty()) {
      wavefronts += bank_passes(half);
    }
  }
  return wavefronts;
}

std::uint64_t ideal_units_of(const std::vector<const lane_access*>& lanes, profile_space space) {
  const std::uint64_t bytes = pieces_of(lanes, word_bytes).size() * word_bytes;
  const std::uint64_t unit = space == profile_space::global ? sector_bytes : banks * word_bytes;
  return std::max<std::uint64_t>(1, (bytes + unit - 1) / unit);
}

void warp_profiler::begin_block(unsigned threads) {
  if (m_lanes.size() < threads) {
    m_lanes.resize(threads);
  }
  m_threads = threads;
  for (unsigned t = 0; t < threads; ++t) {
    m_lanes[t].clear();
  }
}

void warp_profiler::flush() {
  for (unsigned first = 0; first < m_threads; first += 32) {
    flush_warp(first, std::min(32u, m_threads - first));
  }
  for (const auto& [key, lanes] : m_interval_lanes) {
    m_counts[key].packed_requests += (lanes + 31) / 32;
  }
  m_interval_lanes.clear();
}

void warp_profiler::flush_warp(unsigned first, unsigned count) {
  // The k-th access each lane makes at one line (in one space, by one operation) joins the other
  // lanes' k-th accesses there as one request: lanes that skipped a guarded load in a loop still
  // meet at the store after it, as one warp instruction's lanes do. (Pairing the k-th access of
  // each lane over all lines split that store into several requests of fewer sectors.)
  fuse_vector_loads(std::span(m_lanes).subspan(first, count));
  std::map<std::pair<request_key, std::size_t>, std::vector<const lane_access*>> requests;
  std::map<request_key, std::size_t> made;
  for (unsigned l = 0; l < count; ++l) {
    made.clear();
    for (const lane_access& a : m_lanes[first + l]) {
      if (a.merged) {
        continue;
      }
      const request_key key{a.line, a.space, a.op};
      requests[{key, made[key]++}].push_back(&a);
    }
  }
  for (const auto& [request, lanes] : requests) {
    count_request(request.first, lanes);
  }
  for (unsigned l = 0; l < count; ++l) {
    m_lanes[first + l].clear();
  }
}

void warp_profiler::count_request(const request_key& key,
                                  const std::vector<const lane_access*>& lanes) {
  const profile_space space = std::get<1>(key);
  request_counts& c = m_counts[key];
  ++c.requests;
  c.units += space == profile_space::global ? sectors_of(lanes) : wavefronts_of(lanes);
  c.ideal_units += ideal_units_of(lanes, space);
  c.lanes += lanes.size();
  m_interval_lanes[key] += lanes.size();
  for (const lane_access* a : lanes) {
    c.bytes += a->bytes;
  }
}

void warp_profiler::clear() {
  m_counts.clear();
  m_left_out = 0;
}

void launch_counts::add(const warp_profiler& worker) {
  const std::lock_guard lock(mutex);
  for (const auto& [key, c] : worker.counts()) {
    add_counts(counts[key], c);
  }
  left_out += worker.left_out();
}

profile_store& profile_store::instance() {
  static profile_store store;
  return store;
}

void profile_store::set_enabled(bool on) {
  const std::lock_guard lock(m_mutex);
  m_enabled = on;
}

bool profile_store::enabled() const {
  const std::lock_guard lock(m_mutex);
  return m_enabled;
}

void profile_store::finish(launch_profile launch) {
  const std::lock_guard lock(m_mutex);
  m_done.push_back(std::move(launch));
}

std::vector<launch_profile> profile_store::take() {
  const std::lock_guard lock(m_mutex);
  return std::exchange(m_done, {});
}

std::vector<access_counts> access_list(const launch_counts& launch) {
  std::vector<access_counts> list;
  for (const auto& [key, c] : launch.counts) {
    const auto& [line, space, op] = key;
    list.push_back({line, space_name(space), op_name(op), c.requests, c.units, c.ideal_units,
                    c.lanes, c.bytes, c.packed_requests});
  }
  return list;
}

} // namespace cugrade::emu::detail
