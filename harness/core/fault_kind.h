#pragma once
/// \file
/// What went wrong at run time, as one enum shared by the runner protocol, the grader and the
/// reports. It lives below the runner (harness/core), so the runner needs nothing of reports/.
/// It travels by name (`error_kind` in events.jsonl and in reports), so rewording a message can
/// never change a verdict or a hint.

#include "harness/core/enum_names.h"

#include <array>
#include <string_view>

namespace cugrade {

/// A student's fault during a run (the contract's `error_kind`).
enum class fault_kind {
  out_of_bounds,         ///< an access outside a device buffer (guard page, canary, memcheck)
  illegal_address,       ///< an access to no buffer at all (freed, stray pointer)
  misaligned_address,    ///< a vector access at an address not aligned to its size
  barrier_divergence,    ///< a __syncthreads() reached by only some threads of a block
  deadlock,              ///< threads wait forever (a barrier or spin nobody releases)
  race,                  ///< compute-sanitizer's racecheck found a shared-memory hazard
  synchronization_error, ///< another synccheck finding
  launch_failure,        ///< the launch itself was refused (block size, shared memory, ...)
  device_assert,         ///< assert() failed in device code
  illegal_instruction,   ///< the device met an instruction it cannot run
  stack_overflow,        ///< a thread overflowed its stack
  cuda_error,            ///< any other CUDA error
  crash,                 ///< the runner died (a host-side fault in the launcher)
  timeout,               ///< a run exceeded the time limit
  input_mutation,        ///< the launcher changed an input buffer
  tampering,             ///< the runner's protocol files were written by the submission's code
  out_of_memory          ///< the runner reached its memory ceiling (the sandbox's cgroup)
};

template <> struct enum_traits<fault_kind> {
  static constexpr std::array<std::string_view, 17> names{"out_of_bounds",
                                                          "illegal_address",
                                                          "misaligned_address",
                                                          "barrier_divergence",
                                                          "deadlock",
                                                          "race",
                                                          "synchronization_error",
                                                          "launch_failure",
                                                          "device_assert",
                                                          "illegal_instruction",
                                                          "stack_overflow",
                                                          "cuda_error",
                                                          "crash",
                                                          "timeout",
                                                          "input_mutation",
                                                          "tampering",
                                                          "out_of_memory"};
};

/// The kind written as `name`; a name no version of cugrade writes reads as cuda_error, so a
/// runner from another version (or a damaged log) still yields an `error`, never a pass.
[[nodiscard]] constexpr fault_kind fault_kind_named(std::string_view name) {
  const auto k = from_string<fault_kind>(name);
  return k ? *k : fault_kind::cuda_error;
}

/// Faults that are memory accesses outside what the kernel owns.
[[nodiscard]] constexpr bool is_memory_fault(fault_kind k) {
  return k == fault_kind::out_of_bounds || k == fault_kind::illegal_address ||
         k == fault_kind::misaligned_address;
}

} // namespace cugrade
