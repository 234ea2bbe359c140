#pragma once
/// \file
/// The memory behaviour of a launch as a GPU's load/store unit would see it, counted while
/// profiling (cugrade::emu::set_profiling): every block's threads are grouped into warps (32
/// consecutive linear thread ids) and the k-th access each lane makes at one line (in one space,
/// by one operation) between two barriers forms, with the other lanes' k-th accesses there, one
/// warp request. A global request
/// costs the distinct 32-byte sectors its lanes touch; a shared request the wavefronts the 32
/// banks of 4 bytes need (the most distinct words any one bank serves; one word read by many
/// lanes is a broadcast; a request of 16-byte accesses is served a half-warp at a time, as an
/// H200's LDS.128 is). A thread's loads of consecutive elements of one static `__shared__` array
/// at one line, aligned in every lane, count as the one wider load nvcc makes of them
/// (vector_loads.cpp). docs/insight.md compares these counts with Nsight Compute's.

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "cugrade_emu_control.h"

namespace cugrade::emu::detail {

enum class profile_space : std::uint8_t { global, shared };
enum class profile_op : std::uint8_t { load, store, atomic };

/// One lane's access, as recorded between two barriers.
struct lane_access {
  std::uintptr_t address = 0;
  /// The first byte of the static `__shared__` array it is in; 0 elsewhere (global memory, the
  /// launch's dynamic shared memory), where nvcc cannot prove the alignment a wider load needs.
  std::uintptr_t array = 0;
  int line = 0;
  std::uint8_t bytes = 0;
  std::uint8_t lane = 0; ///< its lane in the warp (thread % 32)
  profile_space space = profile_space::global;
  profile_op op = profile_op::load;
  bool merged = false; ///< a load folded into a wider one before it (fuse_vector_loads)
};

/// Warp requests of one kind at one line.
struct request_counts {
  std::uint64_t requests = 0;
  std::uint64_t units = 0; ///< sectors (global) or wavefronts (shared)
  std::uint64_t ideal_units = 0;
  std::uint64_t lanes = 0;
  std::uint64_t bytes = 0;
  /// The requests the same lanes would make packed into the fewest warps: per line and barrier
  /// interval, the lanes that took part over 32, rounded up.
  std::uint64_t packed_requests = 0;
};

/// The key of request_counts: line, space, operation.
using request_key = std::tuple<int, profile_space, profile_op>;

/// Counts one block runner's warps; merged into the launch's profile when its blocks are done.
class warp_profiler {
public:
  /// At most this many accesses are recorded per thread between two barriers; later ones are
  /// left out (and counted as such), so a long loop without barriers costs bounded memory.
  static constexpr std::size_t max_per_lane = 8192;

  void begin_block(unsigned threads);
  void record(unsigned thread, std::uintptr_t address, unsigned bytes, profile_space space,
              profile_op op, int line, std::uintptr_t array = 0) {
    std::vector<lane_access>& lane = m_lanes[thread];
    if (lane.size() < max_per_lane) [[likely]] {
      lane.push_back({address, array, line, static_cast<std::uint8_t>(bytes),
                      static_cast<std::uint8_t>(thread % 32), space, op});
    } else {
      ++m_left_out;
    }
  }
  /// Turns the accesses recorded since the last barrier into warp requests.
  void flush();
  [[nodiscard]] const std::map<request_key, request_counts>& counts() const { return m_counts; }
  [[nodiscard]] std::uint64_t left_out() const { return m_left_out; }
  void clear();

private:
  void flush_warp(unsigned first, unsigned count);
  void count_request(const request_key& key, const std::vector<const lane_access*>& lanes);

  std::vector<std::vector<lane_access>> m_lanes;
  std::map<request_key, std::uint64_t> m_interval_lanes; ///< lanes per key since the last flush
  unsigned m_threads = 0;
  std::map<request_key, request_counts> m_counts;
  std::uint64_t m_left_out = 0;
};

/// Folds each lane's loads of consecutive elements of one static `__shared__` array at one line
/// into the 16- or 8-byte load nvcc makes of them (an unrolled `Mds[ty][k]`, k = 0..3, is one
/// LDS.128), where every lane of the warp that makes the first of them makes all of them, at an
/// address aligned to the wider load: the folded loads are marked `merged`, the first one widened.
void fuse_vector_loads(std::span<std::vector<lane_access>> warp);

/// Costs of one warp request (exposed for tests).
[[nodiscard]] std::uint64_t sectors_of(const std::vector<const lane_access*>& lanes);
[[nodiscard]] std::uint64_t wavefronts_of(const std::vector<const lane_access*>& lanes);
/// What the same lanes would cost at best: the bytes they move in full sectors or wavefronts.
[[nodiscard]] std::uint64_t ideal_units_of(const std::vector<const lane_access*>& lanes,
                                           profile_space space);

/// A launch's counts, from all of its workers (launch_job::profile).
struct launch_counts {
  std::mutex mutex;
  std::map<request_key, request_counts> counts;
  std::uint64_t left_out = 0;
  /// Adds one worker's counts (at the end of its share of the launch).
  void add(const warp_profiler& worker);
};

/// Whether launches are profiled, and the profiles of the launches since take_profiles().
class profile_store {
public:
  static profile_store& instance();
  void set_enabled(bool on);
  [[nodiscard]] bool enabled() const;
  void finish(launch_profile launch);
  std::vector<launch_profile> take();

private:
  mutable std::mutex m_mutex;
  bool m_enabled = false;
  std::vector<launch_profile> m_done;
};

/// The control API's form of a launch's counts.
[[nodiscard]] std::vector<access_counts> access_list(const launch_counts& launch);

} // namespace cugrade::emu::detail
