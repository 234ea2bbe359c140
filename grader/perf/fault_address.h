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
#include <vector>

namespace cugrade::perf {

/// The words for an access at `address` just outside one of `places` (the nearest buffer it
/// follows, or the one it precedes when it lies before them all, within 1 MiB), with the
/// element reached; "" when it lies inside a buffer, far from all, or among none of them.
[[nodiscard]] std::string outside_buffer_words(const problems::problem& problem,
                                               const problems::shape& dims,
                                               const std::vector<protocol::buffer_place>& places,
                                               std::uint64_t address);

/// The case a runner was in when a fault stopped it: the case still open, else the last run
/// with a fault, else the last case begun; nullopt when none began.
[[nodiscard]] std::optional<std::size_t> faulting_case(const protocol::runner_log& log);

} // namespace cugrade::perf
