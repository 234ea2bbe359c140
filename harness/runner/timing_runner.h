#pragma once
/// \file
/// The timing protocol for one benchmark case (docs/timing.md): warm-up, cold samples (L2
/// flushed, rotated input sets, poisoned outputs), CUDA events cross-checked by a synchronised
/// host clock, adaptive stopping, throttled samples dropped, timed outputs kept for verification.

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <cstddef>
#include <span>

namespace cugrade::runner {

/// Times case `index`; returns false when the device is unusable afterwards.
bool time_case(const problems::problem& problem, const protocol::plan& plan, std::size_t index,
               void* launcher, backends::backend& b, protocol::event_writer& events);

/// Seed of input set `set` of a benchmark case (set 0 is the case's own seed).
[[nodiscard]] std::uint64_t input_set_seed(std::uint64_t case_seed, int set);

/// Relative standard deviation (stddev / mean) of `samples`; 0 for fewer than two.
[[nodiscard]] double relative_stddev(std::span<const double> samples);

/// Output file for the verified output of input set `set` of case `index`.
[[nodiscard]] std::string timed_output_file_name(std::size_t index, int set);

} // namespace cugrade::runner
