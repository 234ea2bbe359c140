#include "harness/runner/case_runner.h"

#include "harness/core/elapsed.h"
#include "harness/core/error.h"
#include "harness/runner/device_buffer.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>

namespace cugrade::runner {

namespace {

void fill_words(std::vector<std::byte>& bytes, std::size_t from, std::uint32_t word) {
  for (std::size_t at = from; at + 4 <= bytes.size(); at += 4) {
    std::memcpy(bytes.data() + at, &word, 4);
  }
}

struct device_case {
  std::vector<std::unique_ptr<device_buffer>> inputs;
  std::unique_ptr<device_buffer> output;
};

device_case allocate(backends::backend& b, const std::vector<problems::buffer>& inputs,
                     std::size_t output_bytes) {
  device_case d;
  for (const auto& in : inputs) {
    d.inputs.push_back(std::make_unique<device_buffer>(b, in.bytes.size()));
  }
  d.output = std::make_unique<device_buffer>(b, output_bytes);
  return d;
}

// Uploads inputs (with padding) and a freshly poisoned output; false if the device refused.
bool stage(backends::backend& b, const device_case& d,
           const std::vector<problems::buffer>& inputs) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto padded = padded_input(inputs[i], d.inputs[i]->guard_bytes());
    if (!b.upload(d.inputs[i]->get(), padded.data(), padded.size())) {
      return false;
    }
  }
  const auto poisoned = poisoned_output(d.output->payload_bytes(), d.output->guard_bytes());
  return b.upload(d.output->get(), poisoned.data(), poisoned.size());
}

bool inputs_unchanged(backends::backend& b, const device_case& d,
                      const std::vector<problems::buffer>& inputs) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    std::vector<std::byte> now(inputs[i].bytes.size());
    if (!b.download(now.data(), d.inputs[i]->get(), now.size()) || now != inputs[i].bytes) {
      return false;
    }
  }
  return true;
}

// Where the case's buffers lie, by the contract's names, for the grader to name a fault's
// address.
std::vector<protocol::buffer_place> places_of(const device_case& d,
                                              const std::vector<problems::buffer_spec>& inputs,
                                              const problems::buffer_spec& output) {
  std::vector<protocol::buffer_place> places;
  const auto place = [&](const std::string& name, const device_buffer& b) {
    places.push_back({name, reinterpret_cast<std::uintptr_t>(b.get()), b.payload_bytes()});
  };
  for (std::size_t i = 0; i < inputs.size() && i < d.inputs.size(); ++i) {
    place(inputs[i].name, *d.inputs[i]);
  }
  place(output.name, *d.output);
  return places;
}

std::vector<void*> input_pointers(const device_case& d) {
  std::vector<void*> ptrs;
  for (const auto& in : d.inputs) {
    ptrs.push_back(in->get());
  }
  return ptrs;
}

// The backend's host memory after a faulting call, less any range holding one of the case's
// device buffers: whatever a listing calls readable, memory the kernel was given is not host
// memory it cannot reach.
std::vector<protocol::address_range>
host_memory_after_fault(const backends::backend& b,
                        const std::vector<protocol::buffer_place>& places) {
  auto ranges = b.host_memory();
  std::erase_if(ranges, [&](const protocol::address_range& r) {
    return std::any_of(places.begin(), places.end(),
                       [&](const protocol::buffer_place& p) { return r.contains(p.address); });
  });
  return ranges;
}

// The first run's output goes into its record; the kernel's share shrinks by what was kept.
void keep_output(kernel_output& output, int run, protocol::run_record& rec) {
  captured_output caught = output.capture.end();
  if (run != 0) {
    return;
  }
  output.left -= std::min(output.left, caught.text.size());
  rec.output_bytes = caught.bytes;
  rec.output = std::move(caught.text);
}

} // namespace

std::vector<std::byte> input_padding(const problems::buffer& input, std::size_t guard_bytes) {
  std::vector<std::byte> bytes(guard_bytes);
  if (input.type == problems::element_type::u8) {
    std::memset(bytes.data(), problems::input_padding_byte, guard_bytes);
  } else {
    fill_words(bytes, 0, problems::input_padding_word);
  }
  return bytes;
}

std::vector<std::byte> padded_input(const problems::buffer& input, std::size_t guard_bytes) {
  std::vector<std::byte> bytes(input.bytes.size());
  std::memcpy(bytes.data(), input.bytes.data(), input.bytes.size());
  const auto padding = input_padding(input, guard_bytes);
  bytes.insert(bytes.end(), padding.begin(), padding.end());
  return bytes;
}

std::vector<std::byte> poisoned_output(std::size_t payload_bytes, std::size_t guard_bytes) {
  std::vector<std::byte> bytes(payload_bytes + guard_bytes);
  fill_words(bytes, 0, problems::output_poison_word);
  fill_words(bytes, payload_bytes, problems::output_canary_word);
  return bytes;
}

bool canaries_intact(const std::vector<std::byte>& device_copy, std::size_t payload_bytes) {
  for (std::size_t at = payload_bytes; at + 4 <= device_copy.size(); at += 4) {
    std::uint32_t word = 0;
    std::memcpy(&word, device_copy.data() + at, 4);
    if (word != problems::output_canary_word) {
      return false;
    }
  }
  return true;
}

bool run_case(const problems::problem& problem, const protocol::plan& plan, std::size_t index,
              void* launcher, backends::backend& b, protocol::event_writer& events,
              kernel_output& output) {
  const auto& planned = plan.cases[index];
  const problems::test_case tc{planned.name, plan.problem, planned.dims, planned.distribution,
                               planned.seed};
  const auto inputs = problem.generate(tc);
  const auto out_spec = problem.output(tc.dims);
  const std::size_t out_bytes = problems::byte_size(out_spec);
  const device_case d = allocate(b, inputs, out_bytes);
  const auto places = places_of(d, problem.inputs(tc.dims), out_spec);

  for (int run = 0; run < plan.runs; ++run) {
    protocol::run_record rec;
    rec.case_index = index;
    rec.run = run;
    events.case_begin(index, run, run == 0 ? places : std::vector<protocol::buffer_place>{});
    const auto t0 = std::chrono::steady_clock::now();
    if (!stage(b, d, inputs)) {
      rec.error_kind = cugrade::fault_kind::cuda_error;
      rec.message = "the device refused the inputs (an earlier fault left it unusable)";
      events.case_end(rec);
      return false;
    }
    b.before_call(run);
    const bool profiling = plan.profile && run == 0;
    if (profiling) {
      b.set_profiling(true);
    }
    const bool capturing = output.capture.begin(run == 0 ? output.next_share() : 0);
    problem.invoke(launcher, input_pointers(d), d.output->get(), tc.dims);
    const backends::call_outcome outcome = b.after_call();
    protocol::profile_record profile{index, {}};
    if (profiling) {
      b.set_profiling(false);
      profile.launches = b.take_profile();
    }
    if (capturing) {
      keep_output(output, run, rec);
    }
    rec.seconds = seconds_since(t0);
    // Backends name faults as the emulator and CUDA do; the protocol carries the enum.
    if (!outcome.ok()) {
      rec.error_kind = cugrade::fault_kind_named(outcome.error_kind);
      rec.host_memory = host_memory_after_fault(b, places);
    }
    rec.message = outcome.message;
    if (outcome.fatal) {
      events.case_end(rec);
      return false;
    }
    std::vector<std::byte> out(d.output->total_bytes());
    rec.completed = b.download(out.data(), d.output->get(), out.size());
    rec.canary_overwritten = rec.completed && !canaries_intact(out, out_bytes);
    rec.input_modified = !inputs_unchanged(b, d, inputs);
    rec.output_file = protocol::output_file_name(index, run);
    write_payload(plan.output_dir / rec.output_file, out, out_bytes);
    events.case_end(rec);
    if (profiling) {
      events.profile(profile);
    }
  }
  return true;
}

void write_payload(const std::filesystem::path& path, const std::vector<std::byte>& bytes,
                   std::size_t payload) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(payload));
  if (!out) {
    CUGRADE_THROW("cannot write " + path.string());
  }
}

} // namespace cugrade::runner
