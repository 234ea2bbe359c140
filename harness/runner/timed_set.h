#pragma once
/// \file
/// One input set of a benchmark case on the device: its inputs (with padding), the case's output
/// with guard words (one buffer shared by every set, see time_case), and what the timing protocol
/// does with them between calls: poison the output, fingerprint it, keep the set's first output
/// on the device for the grader's check, and compare the inputs with what was uploaded. Everything
/// done per call stays on the device (fills, a digest kernel, device-to-device copies): a sample
/// costs no transfer of the output (docs/timing.md, "cost").

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/device_buffer.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace cugrade::runner {

class timed_set {
public:
  /// Allocates device buffers for inputs of `input_bytes` each (with padding, and their
  /// pristine copies); calls write to `output`, a buffer for `output_spec`. upload or generate
  /// gives the inputs their contents.
  timed_set(backends::backend& b, const std::vector<std::size_t>& input_bytes,
            const problems::buffer_spec& output_spec, std::shared_ptr<device_buffer> output);

  /// Gives the inputs these contents (same sizes, same addresses); false if the device refused.
  [[nodiscard]] bool upload(std::vector<problems::buffer> inputs);
  /// Gives the inputs `recipes`' contents (same sizes, same addresses), made on the device:
  /// nothing generated on the host, nothing uploaded; false if the device refused.
  [[nodiscard]] bool generate(const std::vector<problems::float_recipe>& recipes);
  /// Writes poison over the output and canaries after it; false if the device refused.
  [[nodiscard]] bool poison();
  /// Fingerprints, on the device, the output of the call just made on this set (as input set
  /// `set`): the digest of its payload and whether its guard words still hold the canary.
  [[nodiscard]] bool fingerprint(int set, protocol::sample_check& check);
  /// Fingerprints the output of the call just made on this set (as input set `set`); the set's
  /// first call's output is also copied on the device.
  [[nodiscard]] bool record_call(int set, protocol::sample_check& check);
  /// Reads back the kept output of this set's first call (payload only) into `payload`, resized
  /// to it (its capacity is kept: see read_back_buffer).
  [[nodiscard]] bool read_first(std::vector<std::byte>& payload);
  /// Whether the output now equals, byte for byte, the kept output of this set's first call
  /// (compared on the device); false when the device refused.
  [[nodiscard]] bool output_equals_first(bool& equal);
  /// Reads the output's payload back into `payload`, resized to it.
  [[nodiscard]] bool read_output(std::vector<std::byte>& payload);
  /// True when every input still holds what was uploaded (padding excluded), compared on the
  /// device with a pristine copy taken at the upload.
  [[nodiscard]] bool inputs_unchanged();

  [[nodiscard]] const std::vector<void*>& input_pointers() const { return m_input_ptrs; }
  [[nodiscard]] void* output_pointer() const { return m_output->get(); }
  [[nodiscard]] std::size_t payload_bytes() const { return m_output->payload_bytes(); }
  /// Calls recorded on this set so far.
  [[nodiscard]] int calls() const { return m_calls; }

private:
  /// Input `i`'s device buffer, checked to hold exactly `bytes` of contents.
  [[nodiscard]] std::byte* input_for(std::size_t i, std::size_t bytes) const;
  /// Copies input `i` (its contents, not its padding) on the device, to compare with after the
  /// calls.
  [[nodiscard]] bool keep_pristine(std::size_t i);

  backends::backend* m_backend;
  std::vector<std::unique_ptr<device_buffer>> m_inputs;
  std::vector<std::unique_ptr<device_buffer>> m_pristine; ///< each input as uploaded
  std::shared_ptr<device_buffer> m_output;
  std::unique_ptr<device_buffer> m_first; ///< the first call's output, kept on the device
  std::vector<void*> m_input_ptrs;
  problems::buffer_spec m_output_spec;
  int m_calls = 0;
};

} // namespace cugrade::runner
