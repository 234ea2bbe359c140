#pragma once
/// \file
/// The timing protocol for one benchmark case (docs/timing.md): warm-up, cold samples (L2
/// flushed, rotated input sets, poisoned outputs), CUDA events cross-checked by a synchronised
/// host clock, adaptive stopping, throttled samples dropped, every output fingerprinted, the
/// first and last output of each input set kept for verification, inputs checked afterwards, and
/// a last call on fresh contents at the same addresses.

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <cstddef>

namespace cugrade::runner {

/// Times case `index` of a timing plan; returns false when the device is unusable afterwards.
bool time_case(const problems::problem& problem, const protocol::plan& plan, std::size_t index,
               void* launcher, backends::backend& b, protocol::event_writer& events);

} // namespace cugrade::runner
