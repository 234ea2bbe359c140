#pragma once
/// \file
/// One input set of a benchmark case on the device: its inputs (with padding), the case's output
/// with guard words (one buffer shared by every set, see time_case), and what the timing protocol
/// does with them between calls: poison the output, capture and fingerprint it, check that the
/// inputs are still what was uploaded.

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/device_buffer.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace cugrade::runner {

/// A timed call's output as read back: the payload followed by the guard region.
struct captured_output {
  std::vector<std::byte> bytes;
  protocol::sample_check check;
};

class timed_set {
public:
  /// Allocates device buffers for `inputs` and uploads them; calls write to `output`, a buffer
  /// for `output_spec`.
  timed_set(backends::backend& b, std::vector<problems::buffer> inputs,
            const problems::buffer_spec& output_spec, std::shared_ptr<device_buffer> output);

  /// Replaces the inputs' contents (same sizes, same addresses); false if the device refused.
  [[nodiscard]] bool upload(std::vector<problems::buffer> inputs);
  /// Writes poison over the output and canaries after it; false if the device refused.
  [[nodiscard]] bool poison();
  /// Reads the output back and fingerprints it as a call on input set `set`.
  [[nodiscard]] bool capture(int set, captured_output& out);
  /// True when every input still holds what was uploaded (padding excluded).
  [[nodiscard]] bool inputs_unchanged();

  [[nodiscard]] const std::vector<void*>& input_pointers() const { return m_input_ptrs; }
  [[nodiscard]] void* output_pointer() const { return m_output->get(); }
  [[nodiscard]] std::size_t payload_bytes() const { return m_output->payload_bytes(); }

private:
  backends::backend* m_backend;
  std::vector<problems::buffer> m_host_inputs;
  std::vector<std::unique_ptr<device_buffer>> m_inputs;
  std::shared_ptr<device_buffer> m_output;
  std::vector<void*> m_input_ptrs;
  problems::buffer_spec m_output_spec;
};


} // namespace cugrade::runner
