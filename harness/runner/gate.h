#pragma once
/// \file
/// The gate of a runner started ahead of its turn (`--gate-fd N`). A timing runner is started
/// while the GPU is shared, makes its CUDA context (the slow part of starting: a few tenths of a
/// second, which the driver serialises across the machine's GPUs), then says so and waits; the
/// grader lets it go once it holds the GPU alone. Nothing of the submission is loaded before.
///
/// On the descriptor (a Unix socket the grader keeps the other end of) the runner sends one byte,
/// `protocol::gate_ready`, then reads one: `protocol::gate_go` lets it run its plan; anything
/// else, or the grader closing its end, means the run is cancelled.

namespace cugrade::runner {

/// Says ready on `fd`, waits for the grader's answer and closes `fd` (the submission's code, loaded
/// later, gets no way to talk to the grader). True when the runner is to go on.
[[nodiscard]] bool wait_at_gate(int fd);

} // namespace cugrade::runner
