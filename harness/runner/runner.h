#pragma once
/// \file
/// The runner's case loop: generate inputs from the seed, poison outputs and place guards,
/// call the launcher, read everything back, and record what happened, one event per step.

#include "harness/backends/backend.h"
#include "harness/protocol/protocol.h"

namespace cugrade::runner {

/// Runs every case of `p` against the launcher in `p.library`; faults are recorded as events,
/// not thrown. Returns false when the runner could not do its job (infrastructure).
bool run_plan(const protocol::plan& p, backends::backend& b, protocol::event_writer& events);

} // namespace cugrade::runner
