#pragma once
/// \file
/// The check made at every synchronisation point: the canaries in front of device buffers.

namespace cugrade::emu::detail {

/// Checks every buffer's canary; each damaged one becomes an "out_of_bounds" diagnostic naming
/// `kernel` (the last kernel launched, or null when unknown) and the sticky error
/// cudaErrorIllegalAddress. Returns whether damage was found.
bool check_canaries(const char* kernel);

} // namespace cugrade::emu::detail
