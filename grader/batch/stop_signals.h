#pragma once
/// \file
/// Ctrl-C and SIGTERM for a batch: blocked in every thread, so only the waiting loop sees them
/// (sigtimedwait) and stops the batch at a consistent point.

namespace cugrade::batch {

/// Blocks SIGINT and SIGTERM in this thread and the threads it starts later.
void block_stop_signals();

/// Waits up to `seconds`; true when SIGINT or SIGTERM arrived meanwhile.
[[nodiscard]] bool stop_requested_within(double seconds);

} // namespace cugrade::batch
