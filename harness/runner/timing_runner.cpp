#include "harness/runner/timing_runner.h"

#include "harness/runner/case_runner.h"
#include "harness/runner/device_buffer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <numeric>

namespace cugrade::runner {

namespace {

struct input_set {
  std::vector<problems::buffer> host_inputs;
  std::vector<std::unique_ptr<device_buffer>> inputs;
  std::unique_ptr<device_buffer> output;
  std::vector<void*> input_ptrs;
};

input_set make_set(const problems::problem& problem, const problems::test_case& tc,
                   backends::backend& b) {
  input_set s;
  s.host_inputs = problem.generate(tc);
  for (const auto& in : s.host_inputs) {
    s.inputs.push_back(std::make_unique<device_buffer>(b, in.bytes.size()));
    const auto padded = padded_input(in, s.inputs.back()->guard_bytes());
    (void)b.upload(s.inputs.back()->get(), padded.data(), padded.size());
    s.input_ptrs.push_back(s.inputs.back()->get());
  }
  const auto out = problem.output(tc.dims);
  s.output = std::make_unique<device_buffer>(b, out.count * problems::element_size(out.type));
  return s;
}

bool poison(backends::backend& b, const input_set& s) {
  const auto bytes = poisoned_output(s.output->payload_bytes(), s.output->guard_bytes());
  return b.upload(s.output->get(), bytes.data(), bytes.size());
}

// Keeps the output of a timed call so the grader can check it against the reference: a
// launcher that caches results or skips work fails instead of winning.
void save_output(backends::backend& b, const input_set& s, const std::filesystem::path& path) {
  std::vector<std::byte> out(s.output->payload_bytes());
  if (b.download(out.data(), s.output->get(), out.size())) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
  }
}

bool keep_sampling(const protocol::timing_request& t, const std::vector<double>& ms,
                   double total_ms, double wall_s) {
  const auto n = static_cast<int>(ms.size());
  if (n >= t.max_samples || wall_s >= t.max_seconds) {
    return false;
  }
  if (n < t.min_samples || total_ms < 1000.0 * t.min_seconds) {
    return true;
  }
  const double rsd = relative_stddev(ms);
  const double rse = rsd / std::sqrt(static_cast<double>(n));
  return rsd > t.target_rsd && rse > 0.001;
}

void warm_up(const problems::problem& problem, const problems::test_case& tc, void* launcher,
             backends::backend& b, const input_set& s, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  for (int calls = 0;; ++calls) {
    const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
    if (calls >= 3 && elapsed.count() >= seconds) {
      return;
    }
    const auto t = b.timed_call([&] {
      problem.invoke(launcher, s.input_ptrs, s.output->get(), tc.dims);
    });
    if (!t.outcome.ok()) {
      return;
    }
  }
}

} // namespace

std::uint64_t input_set_seed(std::uint64_t case_seed, int set) {
  return case_seed + 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(set);
}

double relative_stddev(std::span<const double> samples) {
  if (samples.size() < 2) {
    return 0;
  }
  const double mean = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
  double sq = 0;
  for (double x : samples) {
    sq += (x - mean) * (x - mean);
  }
  return mean > 0 ? std::sqrt(sq / (samples.size() - 1)) / mean : 0;
}

std::string timed_output_file_name(std::size_t index, int set) {
  return "timed-" + std::to_string(index) + "-set-" + std::to_string(set) + ".bin";
}

bool time_case(const problems::problem& problem, const protocol::plan& plan, std::size_t index,
               void* launcher, backends::backend& b, protocol::event_writer& events) {
  const auto& t = plan.timing;
  const auto& planned = plan.cases[index];
  std::vector<input_set> sets;
  for (int set = 0; set < std::max(1, t.input_sets); ++set) {
    const problems::test_case tc{planned.name, plan.problem, planned.dims, planned.distribution,
                                 input_set_seed(planned.seed, set)};
    sets.push_back(make_set(problem, tc, b));
  }
  const problems::test_case tc{planned.name, plan.problem, planned.dims, planned.distribution,
                               planned.seed};
  warm_up(problem, tc, launcher, b, sets[0], t.warmup_seconds);

  protocol::timing_record rec{index};
  std::vector<double> clocks;
  double total_ms = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int sample = 0;; ++sample) {
    const auto wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
    if (!keep_sampling(t, rec.event_ms, total_ms, wall.count())) {
      break;
    }
    const auto& s = sets[static_cast<std::size_t>(sample) % sets.size()];
    if (!poison(b, s)) {
      rec.note = "the device refused an upload";
      events.timing(rec);
      return false;
    }
    b.flush_cache();
    const double clock = b.sm_clock_mhz();
    const auto timing = b.timed_call([&] {
      problem.invoke(launcher, s.input_ptrs, s.output->get(), tc.dims);
    });
    if (!timing.outcome.ok()) {
      rec.note = timing.outcome.error_kind + ": " + timing.outcome.message;
      events.timing(rec);
      return !timing.outcome.fatal;
    }
    rec.event_ms.push_back(timing.event_ms);
    rec.host_ms.push_back(timing.host_ms);
    rec.sm_clock_mhz.push_back(clock);
    total_ms += timing.event_ms;
    if (sample < static_cast<int>(sets.size())) {
      save_output(b, s, plan.output_dir / timed_output_file_name(index, sample));
      ++rec.verified_calls;
    }
  }
  // A last call on fresh contents at the same addresses: a launcher that caches results by input
  // pointer returns stale answers here, and the grader's check of this output fails it.
  const problems::test_case fresh{planned.name, plan.problem, planned.dims, planned.distribution,
                                  input_set_seed(planned.seed, static_cast<int>(sets.size()))};
  const auto fresh_inputs = problem.generate(fresh);
  for (std::size_t i = 0; i < fresh_inputs.size(); ++i) {
    (void)b.upload(sets[0].inputs[i]->get(), fresh_inputs[i].bytes.data(),
                   fresh_inputs[i].bytes.size());
  }
  if (poison(b, sets[0])) {
    b.before_call(0);
    problem.invoke(launcher, sets[0].input_ptrs, sets[0].output->get(), tc.dims);
    if (b.after_call().ok()) {
      save_output(b, sets[0],
                  plan.output_dir / timed_output_file_name(index, static_cast<int>(sets.size())));
      ++rec.verified_calls;
    }
  }
  events.timing(rec);
  return true;
}

} // namespace cugrade::runner
