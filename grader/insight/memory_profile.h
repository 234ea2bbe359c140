#pragma once
/// \file
/// A kernel's memory behaviour on one profiled shape, summed over the launches its launcher made
/// (the emulator's warp profiler, harness/protocol/profile.h), in the lectures' terms: sectors per
/// global request, wavefronts per shared request, bytes against the problem's minimum, atomics
/// per input element, lanes per request and the occupancy the launch allows (docs/insight.md).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/problems/problem.h"
#include "harness/protocol/profile.h"

namespace cugrade::insight {

/// The unit global memory moves in, between the SMs and the L2 cache.
inline constexpr double sector_bytes = 32;

/// Requests of one kind, summed (over lines, or at one line).
struct request_sum {
  std::uint64_t requests = 0;
  std::uint64_t units = 0; ///< sectors or wavefronts
  std::uint64_t ideal_units = 0;
  std::uint64_t lanes = 0;
  std::uint64_t packed_requests = 0;
  void add(const protocol::access_record& a);
  [[nodiscard]] double per_request() const;
  [[nodiscard]] double ideal_per_request() const;
  [[nodiscard]] double lanes_per_request() const;
  /// Loads and stores together, say.
  friend request_sum operator+(request_sum a, const request_sum& b) {
    a.requests += b.requests;
    a.units += b.units;
    a.ideal_units += b.ideal_units;
    a.lanes += b.lanes;
    a.packed_requests += b.packed_requests;
    return a;
  }
};

/// One source line's requests of one kind.
struct line_requests {
  int line = 0;
  std::string space;
  std::string op;
  request_sum sum;
};

/// What stops more blocks from running on an SM at once.
enum class occupancy_limit { none, warps, shared_memory, blocks, registers };

struct occupancy {
  double fraction = 1; ///< resident warps against the SM's 64
  int blocks_per_sm = 0;
  occupancy_limit limit = occupancy_limit::none;
  std::uint64_t threads_per_block = 0;
  std::uint64_t shared_per_block = 0;
  std::uint64_t registers_per_thread = 0; ///< 0: not known (the emulator cannot know it)
};

struct memory_profile {
  std::string kernel; ///< the launcher's name, as the report names the kernel
  request_sum global_load, global_store, global_atomic;
  request_sum shared_load, shared_store, shared_atomic;
  std::vector<line_requests> lines;
  double minimum_bytes = 0;  ///< what the problem must move at least (problem::work)
  double input_elements = 0; ///< elements of the first input
  /// What the lecture's technique for this kernel moves on the profiled shape
  /// (problem::expected_traffic); none where the problem cannot say.
  std::optional<problems::technique_traffic> expected;
  occupancy launch; ///< of the launch with the most threads
  std::uint64_t left_out = 0;
  std::size_t launches = 0;
  /// Whether `lanes` of each request are counted (the emulator's profile) or not (the GPU's
  /// counters count warp instructions).
  bool lanes_known = true;
  /// Bytes moved between the SMs and memory: every global sector, 32 bytes.
  [[nodiscard]] double global_bytes() const;
};

/// Sums the profiled launches of one case of `problem` at shape `s`, made by the launcher
/// `kernel`.
[[nodiscard]] memory_profile summarise(const problems::problem& problem, const problems::shape& s,
                                       std::string_view kernel,
                                       const std::vector<protocol::launch_record>& launches);

/// What every profile of `kernel` at `s` starts from, whichever backend measured it: the
/// kernel's name, the problem's minimum traffic, its input elements and the technique's traffic.
[[nodiscard]] memory_profile profile_basis(const problems::problem& problem,
                                           const problems::shape& s, std::string_view kernel);

/// The occupancy an H100 allows a block of `threads` threads using `shared_bytes` of shared
/// memory, registers aside (the emulator cannot know them): 64 warps, 32 blocks and 228 KiB of
/// shared memory per SM, 1 KiB of it reserved per block.
[[nodiscard]] occupancy occupancy_of(std::uint64_t threads, std::uint64_t shared_bytes);

[[nodiscard]] const char* limit_name(occupancy_limit l);

} // namespace cugrade::insight
