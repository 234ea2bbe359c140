#include "harness/runner/timed_set.h"

#include "harness/core/error.h"
#include "harness/protocol/timing.h"
#include "harness/runner/case_runner.h"

#include <string>

namespace cugrade::runner {

namespace {

constexpr std::size_t word_bytes = sizeof(std::uint32_t);

protocol::sample_check check_of(int set, const backends::output_fingerprint& f) {
  return {set,
          f.digest.sum,
          f.digest.abs_sum,
          f.digest.poison_words,
          f.digest.non_finite,
          !f.canaries_intact};
}

} // namespace

timed_set::timed_set(backends::backend& b, const std::vector<std::size_t>& input_bytes,
                     const problems::buffer_spec& output_spec,
                     std::shared_ptr<device_buffer> output)
    : m_backend(&b), m_output(std::move(output)),
      m_first(std::make_unique<device_buffer>(b, m_output->payload_bytes())),
      m_output_spec(output_spec) {
  for (const auto bytes : input_bytes) {
    m_inputs.push_back(std::make_unique<device_buffer>(b, bytes));
    m_pristine.push_back(std::make_unique<device_buffer>(b, bytes));
    m_input_ptrs.push_back(m_inputs.back()->get());
  }
}

// Input `i`'s buffer, for contents of `bytes`: they must fill it, no more and no less.
std::byte* timed_set::input_for(std::size_t i, std::size_t bytes) const {
  if (bytes != m_inputs[i]->payload_bytes()) {
    CUGRADE_THROW("benchmark input " + std::to_string(i) + " has " + std::to_string(bytes) +
                  " bytes for a buffer of " + std::to_string(m_inputs[i]->payload_bytes()));
  }
  return static_cast<std::byte*>(m_inputs[i]->get());
}

bool timed_set::keep_pristine(std::size_t i) {
  return m_backend->copy_on_device(m_pristine[i]->get(), m_inputs[i]->get(),
                                   m_inputs[i]->payload_bytes());
}

// The input goes up as it is (no padded host copy of a 1 GiB input), then its padding, then a
// device copy to compare with after the calls.
bool timed_set::upload(std::vector<problems::buffer> inputs) {
  for (std::size_t i = 0; i < m_inputs.size(); ++i) {
    const auto& bytes = inputs[i].bytes;
    auto* in = input_for(i, bytes.size());
    const auto padding = input_padding(inputs[i], m_inputs[i]->guard_bytes());
    if (!m_backend->upload(in, bytes.data(), bytes.size()) ||
        !m_backend->upload(in + bytes.size(), padding.data(), padding.size()) ||
        !keep_pristine(i)) {
      return false;
    }
  }
  return true;
}

// Made on the device, padded there with the float padding word (every backend's guard region is
// whole words), then kept as the pristine copy.
bool timed_set::generate(const std::vector<problems::float_recipe>& recipes) {
  for (std::size_t i = 0; i < m_inputs.size(); ++i) {
    const std::size_t bytes = recipes[i].count * sizeof(float);
    auto* in = input_for(i, bytes);
    if (!m_backend->generate(recipes[i], in) ||
        !m_backend->fill_words(in + bytes, problems::input_padding_word,
                               m_inputs[i]->guard_bytes() / sizeof(std::uint32_t)) ||
        !keep_pristine(i)) {
      return false;
    }
  }
  return true;
}

bool timed_set::poison() {
  auto* out = static_cast<std::byte*>(m_output->get());
  return m_backend->fill_words(out, problems::output_poison_word,
                               m_output->payload_bytes() / word_bytes) &&
         m_backend->fill_words(out + m_output->payload_bytes(), problems::output_canary_word,
                               m_output->guard_bytes() / word_bytes);
}

bool timed_set::fingerprint(int set, protocol::sample_check& check) {
  backends::output_fingerprint f;
  if (!m_backend->fingerprint(m_output_spec.type, m_output->get(), m_output_spec.count,
                              m_output->payload_bytes(), m_output->guard_bytes(), f)) {
    return false;
  }
  check = check_of(set, f);
  return true;
}

bool timed_set::record_call(int set, protocol::sample_check& check) {
  if (!fingerprint(set, check)) {
    return false;
  }
  return m_calls++ > 0 ||
         m_backend->copy_on_device(m_first->get(), m_output->get(), m_output->payload_bytes());
}

bool timed_set::read_first(std::vector<std::byte>& payload) {
  payload.resize(m_first->payload_bytes());
  return m_backend->download(payload.data(), m_first->get(), payload.size());
}

bool timed_set::output_equals_first(bool& equal) {
  return m_backend->equal_on_device(m_output->get(), m_first->get(), m_output->payload_bytes(),
                                    equal);
}

bool timed_set::read_output(std::vector<std::byte>& payload) {
  payload.resize(m_output->payload_bytes());
  return m_backend->download(payload.data(), m_output->get(), payload.size());
}

bool timed_set::inputs_unchanged() {
  for (std::size_t i = 0; i < m_inputs.size(); ++i) {
    bool equal = false;
    if (!m_backend->equal_on_device(m_inputs[i]->get(), m_pristine[i]->get(),
                                    m_inputs[i]->payload_bytes(), equal) ||
        !equal) {
      return false;
    }
  }
  return true;
}

} // namespace cugrade::runner
