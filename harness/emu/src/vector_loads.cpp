// The wider shared-memory loads nvcc makes of a thread's loads of consecutive elements
// (warp_profile.h, fuse_vector_loads).
//
// With the tile's shape known at compile time, nvcc unrolls `for (k...) sum += Mds[ty][k] *
// Nds[k][tx]` and loads Mds[ty][k..k+3] with one LDS.128, which an H200 serves a half-warp at a
// time; Nds[k][tx] stays four LDS.32. Nsight Compute counts 1.2 wavefronts per shared load
// request for the reference tiled matmul, the 4-byte loads alone would give 1.0
// (docs/evidence/insight-parity.md). The emulator sees addresses, not instructions, so it takes
// the compiler's decision from what nvcc needs to make it: loads at one line (one expression,
// unrolled) of one static array (whose alignment nvcc knows), of consecutive elements starting at
// a multiple of the wider load's size in every lane of the warp (a kernel whose lanes start at
// `tx + j` gives nvcc no alignment to prove). The launch's dynamic shared memory is left as it is:
// its layout is the program's arithmetic at run time.
#include "harness/emu/src/warp_profile.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>

namespace cugrade::emu::detail {
namespace {

/// Per lane, the positions in its recorded accesses of its loads of one array at one line.
using stream = std::vector<std::vector<std::size_t>>;

std::map<std::pair<int, std::uintptr_t>, stream>
streams_of(std::span<std::vector<lane_access>> warp) {
  std::map<std::pair<int, std::uintptr_t>, stream> streams;
  for (std::size_t l = 0; l < warp.size(); ++l) {
    for (std::size_t i = 0; i < warp[l].size(); ++i) {
      const lane_access& a = warp[l][i];
      if (a.space == profile_space::shared && a.op == profile_op::load && a.array != 0 &&
          (a.bytes == 4 || a.bytes == 8)) {
        stream& s = streams[{a.line, a.array}];
        s.resize(warp.size());
        s[l].push_back(i);
      }
    }
  }
  return streams;
}

// Whether every lane that makes the k-th load of the stream makes loads k to k + n - 1 of n
// consecutive elements of `bytes` each, the first at a multiple of n * bytes (and some lane does).
bool runs_at(std::span<std::vector<lane_access>> warp, const stream& s, std::size_t k,
             std::size_t n, unsigned bytes) {
  bool any = false;
  for (std::size_t l = 0; l < s.size(); ++l) {
    const std::vector<std::size_t>& loads = s[l];
    if (loads.size() <= k) {
      continue;
    }
    if (loads.size() < k + n) {
      return false;
    }
    const lane_access& first = warp[l][loads[k]];
    if (first.bytes != bytes || first.address % (n * bytes) != 0) {
      return false;
    }
    for (std::size_t j = 1; j < n; ++j) {
      const lane_access& next = warp[l][loads[k + j]];
      if (next.bytes != bytes || next.address != first.address + j * bytes) {
        return false;
      }
    }
    any = true;
  }
  return any;
}

// The bytes of the stream's k-th load in the first lane that makes it.
unsigned bytes_at(std::span<std::vector<lane_access>> warp, const stream& s, std::size_t k) {
  for (std::size_t l = 0; l < s.size(); ++l) {
    if (s[l].size() > k) {
      return warp[l][s[l][k]].bytes;
    }
  }
  return 0;
}

void fold(std::span<std::vector<lane_access>> warp, const stream& s, std::size_t k, std::size_t n) {
  for (std::size_t l = 0; l < s.size(); ++l) {
    if (s[l].size() <= k) {
      continue;
    }
    warp[l][s[l][k]].bytes = static_cast<std::uint8_t>(warp[l][s[l][k]].bytes * n);
    for (std::size_t j = 1; j < n; ++j) {
      warp[l][s[l][k + j]].merged = true;
    }
  }
}

void fuse_stream(std::span<std::vector<lane_access>> warp, const stream& s) {
  std::size_t longest = 0;
  for (const auto& loads : s) {
    longest = std::max(longest, loads.size());
  }
  for (std::size_t k = 0; k < longest;) {
    const unsigned bytes = bytes_at(warp, s, k);
    std::size_t taken = 1;
    for (const unsigned wide : {16u, 8u}) {
      const std::size_t n = wide / bytes;
      if (n >= 2 && runs_at(warp, s, k, n, bytes)) {
        fold(warp, s, k, n);
        taken = n;
        break;
      }
    }
    k += taken;
  }
}

} // namespace

void fuse_vector_loads(std::span<std::vector<lane_access>> warp) {
  for (const auto& [where, s] : streams_of(warp)) {
    fuse_stream(warp, s);
  }
}

} // namespace cugrade::emu::detail
