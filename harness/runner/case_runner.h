#pragma once
/// \file
/// One correctness case, run `plan.runs` times (the emulator changes thread order per run).

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/output_capture.h"

#include <cstddef>
#include <filesystem>
#include <vector>

namespace cugrade::runner {

/// Runs case `index`; returns false when the device is unusable afterwards. The first run's
/// debug output goes into its record (within `output`'s share); later runs' is dropped.
bool run_case(const problems::problem& problem, const protocol::plan& plan, std::size_t index,
              void* launcher, backends::backend& b, protocol::event_writer& events,
              kernel_output& output);

/// The padding that follows an input on the device (reads as garbage: NaN words, odd bytes).
[[nodiscard]] std::vector<std::byte> input_padding(const problems::buffer& input,
                                                   std::size_t guard_bytes);
/// Host bytes for an input's device buffer: the input, then padding that reads as garbage.
[[nodiscard]] std::vector<std::byte> padded_input(const problems::buffer& input,
                                                  std::size_t guard_bytes);
/// Host bytes for an output's device buffer: poison over the payload, canaries after it.
[[nodiscard]] std::vector<std::byte> poisoned_output(std::size_t payload_bytes,
                                                     std::size_t guard_bytes);
/// True when every guard word after the payload still holds the canary.
[[nodiscard]] bool canaries_intact(const std::vector<std::byte>& device_copy,
                                   std::size_t payload_bytes);
/// Writes the first `payload` bytes of a device copy to `path` (the guard region stays out);
/// throws when the file cannot be written.
void write_payload(const std::filesystem::path& path, const std::vector<std::byte>& bytes,
                   std::size_t payload);

} // namespace cugrade::runner
