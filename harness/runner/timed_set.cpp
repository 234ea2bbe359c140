#include "harness/runner/timed_set.h"

#include "harness/core/error.h"
#include "harness/protocol/timing.h"
#include "harness/runner/case_runner.h"


namespace cugrade::runner {

timed_set::timed_set(backends::backend& b, std::vector<problems::buffer> inputs,
                     const problems::buffer_spec& output_spec,
                     std::shared_ptr<device_buffer> output)
    : m_backend(&b), m_output(std::move(output)), m_output_spec(output_spec) {
  for (const auto& in : inputs) {
    m_inputs.push_back(std::make_unique<device_buffer>(b, in.bytes.size()));
    m_input_ptrs.push_back(m_inputs.back()->get());
  }
  if (!upload(std::move(inputs))) {
    CUGRADE_THROW("the device refused the upload of a benchmark input");
  }
}

bool timed_set::upload(std::vector<problems::buffer> inputs) {
  m_host_inputs = std::move(inputs);
  for (std::size_t i = 0; i < m_inputs.size(); ++i) {
    const auto padded = padded_input(m_host_inputs[i], m_inputs[i]->guard_bytes());
    if (!m_backend->upload(m_inputs[i]->get(), padded.data(), padded.size())) {
      return false;
    }
  }
  return true;
}

bool timed_set::poison() {
  const auto bytes = poisoned_output(m_output->payload_bytes(), m_output->guard_bytes());
  return m_backend->upload(m_output->get(), bytes.data(), bytes.size());
}

bool timed_set::capture(int set, captured_output& out) {
  out.bytes.resize(m_output->total_bytes());
  if (!m_backend->download(out.bytes.data(), m_output->get(), out.bytes.size())) {
    return false;
  }
  const auto d = protocol::digest_of(m_output_spec.type, out.bytes.data(), m_output_spec.count);
  out.check = {set,          d.sum,
               d.abs_sum,    d.poison_words,
               d.non_finite, !canaries_intact(out.bytes, m_output->payload_bytes())};
  return true;
}

bool timed_set::inputs_unchanged() {
  for (std::size_t i = 0; i < m_inputs.size(); ++i) {
    std::vector<std::byte> now(m_host_inputs[i].bytes.size());
    if (!m_backend->download(now.data(), m_inputs[i]->get(), now.size()) ||
        now != m_host_inputs[i].bytes) {
      return false;
    }
  }
  return true;
}

} // namespace cugrade::runner
