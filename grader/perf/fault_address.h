#pragma once
/// \file
/// The buffer a compute-sanitizer memory finding's address lies outside of, in the contract's
/// words. memcheck reports the address of a bad access (its XML's `what/address`), not which
/// buffer it missed; the runner says where it put each of the case's buffers
/// (protocol::buffer_place), so the grader can say "just past the end of P (a 1156-byte device
/// buffer: 17 x 17 floats), at P[17][0]" on the GPU as the emulator's faults do.

#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::perf {

/// The words for an access at `address` just outside one of `places` (the nearest buffer it
/// follows, or the one it precedes when it lies before them all, within 1 MiB), with the
/// element reached; "" when it lies inside a buffer, far from all, or among none of them.
[[nodiscard]] std::string outside_buffer_words(const problems::problem& problem,
                                               const problems::shape& dims,
                                               const std::vector<protocol::buffer_place>& places,
                                               std::uint64_t address);

/// The words by which a fault's message says the kernel reached host memory: the emulator's
/// (harness/emu/src/memory_reach.cpp) and host_memory_words' below.
inline constexpr std::string_view reaches_host_memory = "reaches host memory";

/// The cause and its fix, for a fault whose message says it reached host memory.
inline constexpr std::string_view host_memory_advice =
    "the kernel was handed host memory (a pointer from malloc or new, or a host variable's "
    "address), which a GPU's kernel cannot reach: cudaMalloc a device buffer, pass that to the "
    "kernel and cudaMemcpy between the two";

/// The words for an access at `address` that lies in the host memory the runner reported with a
/// faulting run of case `case_index` (protocol::run_record::host_memory): a kernel handed a host
/// pointer. They say "reaches host memory", as the emulator's words for the same fault do, so
/// the diagnosis names that cause on both backends. "" when the address lies in none.
[[nodiscard]] std::string host_memory_words(const protocol::runner_log& log, std::size_t case_index,
                                            std::uint64_t address);

/// The case a runner was in when a fault stopped it: the case still open, else the last run
/// with a fault, else the last case begun; nullopt when none began.
[[nodiscard]] std::optional<std::size_t> faulting_case(const protocol::runner_log& log);

} // namespace cugrade::perf
