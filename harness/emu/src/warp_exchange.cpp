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

bool is_shuffle(warp_op op) {
  return op == warp_op::shfl_idx || op == warp_op::shfl_up || op == warp_op::shfl_down ||
         op == warp_op::shfl_xor;
}

// Which of the group's lanes hold a nonzero value (a ballot's bits).
unsigned votes_of(const fiber_extra* lanes, unsigned group) {
  unsigned votes = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if ((group >> l & 1u) != 0 && static_cast<std::uint32_t>(lanes[l].request.value) != 0) {
      votes |= 1u << l;
    }
  }
  return votes;
}

std::uint32_t combine(warp_op op, std::uint32_t acc, std::uint32_t v) {
  switch (op) {
  case warp_op::reduce_add:
    return acc + v;
  case warp_op::reduce_min_u:
    return v < acc ? v : acc;
  case warp_op::reduce_max_u:
    return v > acc ? v : acc;
  case warp_op::reduce_min_s:
    return static_cast<std::int32_t>(v) < static_cast<std::int32_t>(acc) ? v : acc;
  case warp_op::reduce_max_s:
    return static_cast<std::int32_t>(v) > static_cast<std::int32_t>(acc) ? v : acc;
  case warp_op::reduce_and:
    return acc & v;
  case warp_op::reduce_or:
    return acc | v;
  case warp_op::reduce_xor:
    return acc ^ v;
  default:
    return acc;
  }
}

// The group's values combined by `op`, lowest lane first.
std::uint32_t reduction_of(const fiber_extra* lanes, unsigned group, warp_op op) {
  std::uint32_t acc = 0;
  bool first = true;
  for (unsigned l = 0; l < 32; ++l) {
    if ((group >> l & 1u) == 0) {
      continue;
    }
    const auto v = static_cast<std::uint32_t>(lanes[l].request.value);
    acc = first ? v : combine(op, acc, v);
    first = false;
  }
  return acc;
}

} // namespace

std::uint64_t block_runner::lane_result(fiber_id f, unsigned group, unsigned base,
                                        group_values& values) const {
  const warp_request& r = m_extra[f].request;
  const fiber_extra* lanes = &m_extra[base];
  if (is_shuffle(r.op)) {
    // A source lane that exited or is not in the group reads as 0 (what an H200 returned for
    // exited lanes; CUDA leaves it undefined).
    const unsigned src = source_lane(r, f - base);
    return (group >> src & 1u) != 0 ? lanes[src].request.value : 0;
  }
  switch (r.op) {
  case warp_op::ballot:
  case warp_op::any:
  case warp_op::all: {
    if (!values.have_votes) {
      values.votes = votes_of(lanes, group);
      values.have_votes = true;
    }
    if (r.op == warp_op::ballot) {
      return values.votes;
    }
    return r.op == warp_op::any ? values.votes != 0 : values.votes == group;
  }
  case warp_op::sync:
    return 0;
  default:
    // Lanes that diverged into different reductions under one mask each get their own.
    if (!values.have_reduction || values.reduction_op != r.op) {
      values.reduction = reduction_of(lanes, group, r.op);
      values.reduction_op = r.op;
      values.have_reduction = true;
    }
    return values.reduction;
  }
}

void block_runner::try_complete(unsigned warp, unsigned mask) {
  warp_lanes& w = m_warps[warp];
  const unsigned group = mask & w.existing & ~w.exited;
  if (group == 0 || (w.waiting & group) != group) {
    return;
  }
  const unsigned base = warp * 32;
  group_values values;
  for (unsigned l = 0; l < 32; ++l) {
    if ((group >> l & 1u) != 0) {
      m_extra[base + l].result = lane_result(base + l, group, base, values);
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
