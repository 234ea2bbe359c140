// Diagnostics of a block that cannot go on: barrier divergence, rendezvous that never complete,
// limits exceeded. Each names the kernel, the block, the thread and the student's line.
#include <cstdio>
#include <string>

#include "harness/emu/src/block_runner.h"

namespace cugrade::emu::detail {
namespace {

std::string triple(const ::uint3& v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

std::string at(const wait_site& s) {
  if (s.file == nullptr) {
    return "";
  }
  return " (" + std::string(s.file) + ":" + std::to_string(s.line) + ")";
}

const char* op_name(warp_op op) {
  switch (op) {
  case warp_op::shfl_idx:
    return "__shfl_sync";
  case warp_op::shfl_up:
    return "__shfl_up_sync";
  case warp_op::shfl_down:
    return "__shfl_down_sync";
  case warp_op::shfl_xor:
    return "__shfl_xor_sync";
  case warp_op::ballot:
    return "__ballot_sync";
  case warp_op::any:
    return "__any_sync";
  case warp_op::all:
    return "__all_sync";
  case warp_op::sync:
    return "__syncwarp";
  default:
    return "__reduce_*_sync";
  }
}

constexpr const char* k_barrier_rule =
    "; every thread of a block must reach every __syncthreads() the same number of times (a "
    "barrier inside a branch or loop that not all threads take is undefined behaviour: a GPU may "
    "hang or compute garbage)";

} // namespace

std::string block_runner::prefix(fiber_id f) const {
  return "kernel " + std::string(m_job->site.kernel_name) + ", block " + triple(m_block_idx) +
         ", thread " + triple(m_tid[f]);
}

std::string block_runner::where_waits(fiber_id f) const {
  switch (m_state[f]) {
  case fiber_state::barrier:
    return "waits at __syncthreads()" + at(m_barrier_site);
  case fiber_state::warp:
    return "waits in " + std::string(op_name(m_extra[f].request.op)) + at(m_extra[f].warp_site);
  case fiber_state::step:
    return "waits for its warp at a volatile access to shared memory";
  case fiber_state::done:
    return "has exited";
  default:
    return "has not arrived";
  }
}

void block_runner::fail(const char* kind, const std::string& message, fiber_id who, wait_site where,
                        cudaError_t error, bool sticky) {
  fail_as(diagnostic_of(kind, prefix(who) + ": " + message, who, where), error, sticky);
}

diagnostic block_runner::diagnostic_of(const char* kind, std::string message, fiber_id who,
                                       wait_site where) const {
  diagnostic d;
  d.error_kind = kind;
  d.message = std::move(message);
  d.kernel = m_job->site.kernel_name;
  d.block = {m_block_idx.x, m_block_idx.y, m_block_idx.z};
  d.thread = {m_tid[who].x, m_tid[who].y, m_tid[who].z};
  d.file = where.file != nullptr ? where.file : "";
  d.line = where.line;
  return d;
}

void block_runner::fail_as(diagnostic d, cudaError_t error, bool sticky) {
  if (m_job->claim_failure(error, sticky)) {
    emulator_state::instance().add_diagnostic(std::move(d));
  }
  m_aborted = true;
  m_in_regions = false; // the owner's fiber is m_current: it is abandoned with its block
  resume(m_current != k_none ? m_current : k_dead, k_scheduler);
  __builtin_unreachable();
}

void block_runner::fail_assert(const char* assertion, const char* file, int line) {
  fail("device_assert", "assertion `" + std::string(assertion) + "` failed", current(),
       wait_site{file, line}, cudaErrorAssert, true);
}

void block_runner::fail_other_barrier(fiber_id arriver, wait_site site) {
  fail("barrier_divergence",
       "waits at __syncthreads()" + at(site) + " while thread " + triple(m_tid[m_first_waiter]) +
           " waits at a different __syncthreads()" + at(m_barrier_site) + k_barrier_rule,
       arriver, site, cudaErrorLaunchFailure, true);
}

void block_runner::report_stuck() {
  m_aborted = true;
  fiber_id waiter = k_none;
  for (fiber_id i = 0; i < m_count && waiter == k_none; ++i) {
    if (m_state[i] == fiber_state::warp) {
      waiter = i;
    }
  }
  const unsigned block3[3] = {m_block_idx.x, m_block_idx.y, m_block_idx.z};
  if (waiter == k_none) {
    if (m_job->claim_failure(cudaErrorLaunchFailure, true)) {
      emulator_state::instance().add_diagnostic({"deadlock",
                                                 "kernel " + std::string(m_job->site.kernel_name) +
                                                     ", block " + triple(m_block_idx) +
                                                     ": no thread of the block can make progress",
                                                 m_job->site.kernel_name,
                                                 {block3[0], block3[1], block3[2]},
                                                 {},
                                                 "",
                                                 0});
    }
    return;
  }
  const fiber_extra& w_extra = m_extra[waiter];
  const unsigned base = waiter / 32 * 32;
  const warp_lanes& w = m_warps[waiter / 32];
  const unsigned group = w_extra.request.mask & w.existing & ~w.exited;
  fiber_id missing = waiter;
  for (unsigned l = 0; l < 32; ++l) {
    const fiber_id f = base + l;
    if ((group >> l & 1u) != 0 &&
        (m_state[f] != fiber_state::warp || m_extra[f].request.mask != w_extra.request.mask)) {
      missing = f;
      break;
    }
  }
  char mask[16];
  std::snprintf(mask, sizeof mask, "0x%08x", w_extra.request.mask);
  std::string message = prefix(waiter) + ": a warp rendezvous never completes: it waits in " +
                        op_name(w_extra.request.op) + at(w_extra.warp_site) + " with mask " + mask +
                        ", but thread " + triple(m_tid[missing]) + " (lane " +
                        std::to_string(missing % 32) + ") " + where_waits(missing) +
                        "; every lane named in the mask must reach the same warp operation";
  if (m_job->claim_failure(cudaErrorLaunchFailure, true)) {
    emulator_state::instance().add_diagnostic(
        {"deadlock",
         std::move(message),
         m_job->site.kernel_name,
         {block3[0], block3[1], block3[2]},
         {m_tid[waiter].x, m_tid[waiter].y, m_tid[waiter].z},
         w_extra.warp_site.file != nullptr ? w_extra.warp_site.file : "",
         w_extra.warp_site.line});
  }
}

} // namespace cugrade::emu::detail
