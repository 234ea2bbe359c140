// Warp rendezvous: a lane records its operation and value, waits until every live lane named in
// its mask has arrived, and the last arrival computes every lane's result at once. Results are
// written into each lane's own slot before anyone moves on, so a lane that runs ahead to its next
// shuffle can never overwrite a value another lane has yet to read.
#include "harness/emu/src/block_runner.h"

namespace cugrade::emu::detail {
namespace {

unsigned source_lane(const warp_request& r, unsigned lane) {
  const unsigned width = r.width >= 1 && r.width <= 32 ? static_cast<unsigned>(r.width) : 32u;
  const unsigned start = lane & ~(width - 1);
  const auto arg = static_cast<unsigned>(r.arg);
  switch (r.op) {
  case warp_op::shfl_idx:
    return start + (arg & (width - 1));
  case warp_op::shfl_up:
    return (lane - start) < arg ? lane : lane - arg;
  case warp_op::shfl_down:
    return (lane - start) + arg >= width ? lane : lane + arg;
  case warp_op::shfl_xor: {
    const unsigned src = lane ^ arg;
    // Lanes may read from earlier groups of `width`, never from later ones (CUDA's rule).
    return src >= start + width || src >= 32 ? lane : src;
  }
  default:
    return lane;
  }
}

} // namespace

std::uint64_t block_runner::lane_result(fiber_id f, unsigned group, unsigned base) const {
  const warp_request& r = m_extra[f].request;
  const unsigned lane = f - base;
  unsigned votes = 0;
  std::uint32_t acc = 0;
  bool first = true;
  for (unsigned l = 0; l < 32; ++l) {
    if ((group >> l & 1u) == 0) {
      continue;
    }
    const auto v = static_cast<std::uint32_t>(m_extra[base + l].request.value);
    votes |= (v != 0 ? 1u : 0u) << l;
    if (first) {
      acc = v;
      first = false;
      continue;
    }
    switch (r.op) {
    case warp_op::reduce_add:
      acc += v;
      break;
    case warp_op::reduce_min_u:
      acc = v < acc ? v : acc;
      break;
    case warp_op::reduce_max_u:
      acc = v > acc ? v : acc;
      break;
    case warp_op::reduce_min_s:
      acc = static_cast<std::int32_t>(v) < static_cast<std::int32_t>(acc) ? v : acc;
      break;
    case warp_op::reduce_max_s:
      acc = static_cast<std::int32_t>(v) > static_cast<std::int32_t>(acc) ? v : acc;
      break;
    case warp_op::reduce_and:
      acc &= v;
      break;
    case warp_op::reduce_or:
      acc |= v;
      break;
    case warp_op::reduce_xor:
      acc ^= v;
      break;
    default:
      break;
    }
  }
  switch (r.op) {
  case warp_op::shfl_idx:
  case warp_op::shfl_up:
  case warp_op::shfl_down:
  case warp_op::shfl_xor: {
    // A source lane that exited or is not in the group reads as 0 (what an H200 returned for
    // exited lanes; CUDA leaves it undefined).
    const unsigned src = source_lane(r, lane);
    return (group >> src & 1u) != 0 ? m_extra[base + src].request.value : 0;
  }
  case warp_op::ballot:
    return votes;
  case warp_op::any:
    return votes != 0 ? 1 : 0;
  case warp_op::all:
    return votes == group ? 1 : 0;
  case warp_op::sync:
    return 0;
  default:
    return acc;
  }
}

void block_runner::try_complete(unsigned warp, unsigned mask) {
  warp_lanes& w = m_warps[warp];
  const unsigned group = mask & w.existing & ~w.exited;
  if (group == 0 || (w.waiting & group) != group) {
    return;
  }
  const unsigned base = warp * 32;
  for (unsigned l = 0; l < 32; ++l) {
    if ((group >> l & 1u) != 0) {
      m_extra[base + l].result = lane_result(base + l, group, base);
    }
  }
  for (unsigned l = 0; l < 32; ++l) {
    if ((group >> l & 1u) != 0) {
      m_state[base + l] = fiber_state::ready;
      ++m_ready;
    }
  }
  w.waiting &= ~group;
  w.exited_at_sync = w.exited;
}

std::uint64_t block_runner::warp_exchange(warp_op op, const warp_request& request, wait_site site) {
  if (m_in_regions) [[unlikely]] {
    fail_in_region("a warp primitive");
  }
  const fiber_id self = m_current;
  settle_shared();
  const unsigned warp = self / 32;
  const unsigned lane_bit = 1u << (self % 32);
  fiber_extra& extra = m_extra[self];
  extra.request = request;
  extra.request.op = op;
  extra.request.mask |= lane_bit; // the caller is always part of its own rendezvous
  extra.warp_site = site;
  m_state[self] = fiber_state::warp;
  --m_ready;
  m_warps[warp].waiting |= lane_bit;
  try_complete(warp, extra.request.mask);
  if (m_warps[warp].stepping != 0) [[unlikely]] {
    try_step(warp);
  }
  switch_away(self);
  return m_extra[self].result;
}

void block_runner::complete_after_exit(unsigned warp) {
  warp_lanes& w = m_warps[warp];
  for (unsigned l = 0; l < 32 && w.waiting != 0; ++l) {
    if ((w.waiting >> l & 1u) != 0) {
      try_complete(warp, m_extra[warp * 32 + l].request.mask);
    }
  }
  if (w.stepping != 0) {
    try_step(warp);
  }
}

unsigned block_runner::active_mask() const {
  const warp_lanes& w = m_warps[m_current / 32];
  return w.existing & ~w.exited_at_sync;
}

} // namespace cugrade::emu::detail
