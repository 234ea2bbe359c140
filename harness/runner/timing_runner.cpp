#include "harness/runner/timing_runner.h"

#include "harness/core/elapsed.h"
#include "harness/core/error.h"
#include "harness/protocol/timing.h"
#include "harness/runner/case_runner.h"
#include "harness/runner/timed_set.h"
#include "harness/runner/timing_rules.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

namespace cugrade::runner {

namespace {

using steady = std::chrono::steady_clock;

// Everything one case's timing accumulates; samples in the order they were taken.
struct case_timing {
  case_timing(const problems::problem& p, const protocol::plan& pl, std::size_t i, void* l,
              backends::backend& be, read_back_buffer& rb)
      : problem(p), plan(pl), index(i), launcher(l),
        b(be), tc{pl.cases[i].name, pl.problem, pl.cases[i].dims, pl.cases[i].distribution,
                  pl.cases[i].seed},
        read_back(rb) {}

  const problems::problem& problem;
  const protocol::plan& plan;
  std::size_t index;
  void* launcher;
  backends::backend& b;
  problems::test_case tc;
  read_back_buffer& read_back;
  std::vector<std::unique_ptr<timed_set>> sets;
  std::vector<double> event_ms, host_ms, clock_mhz;
  std::vector<int> sample_set;
  bool gated = false; ///< calls are gated (cleared for good when a gate expires)
  protocol::timing_record rec;
};

int set_count(const protocol::timing_request& t) {
  return std::max(1, t.input_sets);
}

void invoke(case_timing& c, const timed_set& s) {
  c.problem.invoke(c.launcher, s.input_pointers(), s.output_pointer(), c.tc.dims);
}

// One timed call, gated while the launcher lets it be. A launcher that waits on the device
// inside the call makes the gate expire: from then on the case is timed ungated, so all its kept
// samples are measured the same way, and this call's times are not kept (false).
bool timed_call(case_timing& c, const timed_set& s, backends::call_timing& out) {
  out = c.b.timed_call([&] { invoke(c, s); }, c.gated);
  if (!out.gate_expired) {
    return true;
  }
  c.gated = false;
  c.rec.note = "the launcher waits on the device inside the call (a synchronisation, a copy to "
               "the host or a cudaFree), so its launches could not be gated: its samples include "
               "the host's launch gaps";
  return false;
}

void save(case_timing& c, int set, protocol::output_role role, const std::vector<std::byte>& bytes,
          std::size_t payload) {
  const auto name = protocol::timed_output_file_name(c.index, set, role);
  write_payload(c.plan.output_dir / name, bytes, payload);
  c.rec.saved.push_back({set, std::string(protocol::to_string(role)), name});
}

// Input set `set` (of `sets`) in `s`: made on the device when the problem's inputs are recipes a
// device can run (problems::float_recipe), else generated on the host and uploaded.
bool load_inputs(const case_timing& c, timed_set& s, int set, int sets) {
  if (const auto recipes = protocol::input_set_recipes(c.problem, c.tc, set, sets)) {
    return s.generate(*recipes);
  }
  return s.upload(protocol::input_set_inputs(c.problem, c.tc, set, sets));
}

// The bytes of each of the case's inputs.
std::vector<std::size_t> input_bytes(const case_timing& c) {
  std::vector<std::size_t> bytes;
  for (const auto& spec : c.problem.inputs(c.tc.dims)) {
    bytes.push_back(problems::byte_size(spec));
  }
  return bytes;
}

// At least `warmup_calls` calls and `warmup_seconds`, over every input set in turn, so module
// loading, first-touch allocation and clock ramp-up stay out of the samples.
void warm_up(case_timing& c) {
  const auto& t = c.plan.timing;
  const auto start = steady::now();
  int calls = 0;
  while (calls < t.warmup_calls || seconds_since(start) < t.warmup_seconds) {
    const auto& s = *c.sets[static_cast<std::size_t>(calls) % c.sets.size()];
    backends::call_timing timing;
    if (calls == 0) {
      // The first call runs ungated: it loads the launcher's kernels, and lazy module loading
      // waits on the device, which would make a gate expire.
      timing = c.b.timed_call([&] { invoke(c, s); }, false);
    } else {
      timed_call(c, s, timing);
    }
    ++calls;
    if (!timing.outcome.ok()) {
      break; // the first sample meets the same fault and reports it
    }
  }
  c.rec.warmup_calls = calls;
}

backends::call_outcome device_refused(const std::string& what) {
  return {"cuda_error", "the device refused " + what, true};
}

// A clock of 0 is unknown; the lower of two known clocks says whether the sample was throttled.
double lower_known_clock(double a, double b) {
  if (a <= 0 || b <= 0) {
    return std::max(a, b);
  }
  return std::min(a, b);
}

// One cold sample on input set sample % sets; a fault comes back as its outcome. Between calls
// everything stays on the device (poison, flush, fingerprint, the kept copies of the output):
// the host waits only for the clock probes and the call itself.
std::optional<backends::call_outcome> take_sample(case_timing& c, int sample) {
  const int set = sample % static_cast<int>(c.sets.size());
  auto& s = *c.sets[static_cast<std::size_t>(set)];
  if (!s.poison()) {
    return device_refused("to poison the output");
  }
  c.b.flush_cache();
  const double clock_before = c.b.sm_clock_mhz();
  backends::call_timing timing;
  const bool keep = timed_call(c, s, timing);
  if (!timing.outcome.ok()) {
    return timing.outcome;
  }
  const double clock_after = c.b.sm_clock_mhz();
  protocol::sample_check check;
  if (!s.record_call(set, check)) {
    return device_refused("to fingerprint the output");
  }
  if (keep) {
    c.event_ms.push_back(timing.event_ms);
    c.host_ms.push_back(timing.host_ms);
    c.clock_mhz.push_back(lower_known_clock(clock_before, clock_after));
    c.sample_set.push_back(set);
  }
  c.rec.checks.push_back(check);
  return std::nullopt;
}

std::vector<double> kept_event_ms(const case_timing& c) {
  std::vector<double> kept;
  for (const auto i : unthrottled(c.clock_mhz, c.plan.timing.throttle_fraction)) {
    kept.push_back(c.event_ms[i]);
  }
  return kept;
}

// Samples until the stopping rule says enough; false when a call faulted.
std::optional<backends::call_outcome> sample(case_timing& c) {
  const auto start = steady::now();
  for (int taken = 0;; ++taken) {
    c.rec.sampling_seconds = seconds_since(start);
    c.rec.stop_reason = stop_reason(c.plan.timing, kept_event_ms(c), taken, c.rec.sampling_seconds);
    if (!c.rec.stop_reason.empty()) {
      return std::nullopt;
    }
    if (auto fault = take_sample(c, taken)) {
      c.rec.sampling_seconds = seconds_since(start);
      c.rec.stop_reason = "fault";
      return fault;
    }
  }
}

// An untimed call on `s` after sampling, as input set `set`: poisoned, on a cold cache, and
// fingerprinted on the device like every call. Its output is saved for the grader's check as
// `role`, except a set's last output that equals the set's first byte for byte (compared on the
// device): that one names the first's file, already saved, and costs no read-back, no host
// digest and no write inside the exclusive hold (docs/timing.md, "saved outputs").
std::optional<backends::call_outcome> checked_call(case_timing& c, timed_set& s, int set,
                                                   protocol::output_role role) {
  if (!s.poison()) {
    return device_refused("to poison the output");
  }
  c.b.flush_cache();
  c.b.before_call(0);
  invoke(c, s);
  const auto outcome = c.b.after_call();
  if (!outcome.ok()) {
    return outcome;
  }
  protocol::sample_check check;
  if (!s.fingerprint(set, check)) {
    return device_refused("to fingerprint the output");
  }
  c.rec.checks.push_back(check);
  bool same_as_first = false;
  if (role == protocol::output_role::last && !s.output_equals_first(same_as_first)) {
    return device_refused("to compare the output with the first");
  }
  if (same_as_first) {
    c.rec.saved.push_back(
        {set, std::string(protocol::to_string(role)),
         protocol::timed_output_file_name(c.index, set, protocol::output_role::first)});
    return std::nullopt;
  }
  if (!s.read_output(c.read_back)) {
    return device_refused("to read the output back");
  }
  save(c, set, role, c.read_back, c.read_back.size());
  return std::nullopt;
}

// Whether any input changed under the calls, compared on the device with what was uploaded.
void record_input_changes(case_timing& c) {
  for (const auto& s : c.sets) {
    if (!s->inputs_unchanged()) {
      c.rec.input_modified = true;
    }
  }
}

// Each sampled set's first output, read back from the device copy the first sample kept, then
// one more call on the set, after every sample: its output is the set's last (a launcher that
// goes wrong after some calls shows it there, and its fingerprints show it on every call). Copying
// each sample's output on the device instead cost a read and a write of the whole output per
// sample, a third of a 2^26-element scan's sample. Then whether any input changed under the calls.
std::optional<backends::call_outcome> check_after_sampling(case_timing& c) {
  for (std::size_t set = 0; set < c.sets.size(); ++set) {
    auto& s = *c.sets[set];
    if (s.calls() == 0) {
      continue;
    }
    if (!s.read_first(c.read_back)) {
      return device_refused("to read a kept output back");
    }
    save(c, static_cast<int>(set), protocol::output_role::first, c.read_back, c.read_back.size());
    if (auto fault = checked_call(c, s, static_cast<int>(set), protocol::output_role::last)) {
      return fault;
    }
  }
  record_input_changes(c);
  return std::nullopt;
}

// A last call on fresh contents at the addresses of set 0: a launcher that caches results by
// pointer returns a stale answer here, and the grader's check of this output fails it.
std::optional<backends::call_outcome> fresh_call(case_timing& c) {
  const int fresh = static_cast<int>(c.sets.size());
  auto& s = *c.sets[0];
  if (!load_inputs(c, s, fresh, fresh)) {
    return device_refused("to make the fresh inputs");
  }
  if (auto fault = checked_call(c, s, fresh, protocol::output_role::fresh)) {
    return fault;
  }
  c.rec.input_modified = c.rec.input_modified || !s.inputs_unchanged();
  return std::nullopt;
}

void fill_samples(case_timing& c) {
  const auto kept = unthrottled(c.clock_mhz, c.plan.timing.throttle_fraction);
  for (const auto i : kept) {
    c.rec.event_ms.push_back(c.event_ms[i]);
    c.rec.host_ms.push_back(c.host_ms[i]);
    c.rec.sm_clock_mhz.push_back(c.clock_mhz[i]);
    c.rec.sample_sets.push_back(c.sample_set[i]);
  }
  c.rec.gated = c.gated;
  c.rec.dropped_throttled = static_cast<int>(c.event_ms.size() - kept.size());
  c.rec.max_sm_clock_mhz =
      c.clock_mhz.empty() ? 0.0 : *std::max_element(c.clock_mhz.begin(), c.clock_mhz.end());
  c.rec.verified_calls = static_cast<int>(c.rec.saved.size());
}

// Records the fault and says whether the device is still usable.
bool report_fault(case_timing& c, const backends::call_outcome& fault, const char* when,
                  protocol::event_writer& events) {
  c.rec.note = fault.error_kind + " " + when + ": " + fault.message;
  fill_samples(c);
  events.timing(c.rec);
  return !fault.fatal;
}

} // namespace

bool time_case(const problems::problem& problem, const protocol::plan& plan, std::size_t index,
               void* launcher, backends::backend& b, protocol::event_writer& events,
               read_back_buffer& read_back) {
  const auto started = steady::now();
  const auto& planned = plan.cases[index];
  case_timing c(problem, plan, index, launcher, b, read_back);
  c.rec.case_index = index;
  const int sets = set_count(plan.timing);
  // One output buffer for every set: where the output lies decides which L2 slices serve a
  // kernel's atomics, and on an H100 one placement of a histogram's 1 KiB of bins made the
  // global-atomic kernels 17% slower than the others. Rotating inputs, not output addresses, keeps
  // that placement out of the spread.
  const auto output_spec = problem.output(planned.dims);
  const auto output = std::make_shared<device_buffer>(b, problems::byte_size(output_spec));
  const auto bytes = input_bytes(c);
  for (int set = 0; set < sets; ++set) {
    c.sets.push_back(std::make_unique<timed_set>(b, bytes, output_spec, output));
    if (!load_inputs(c, *c.sets.back(), set, sets)) {
      CUGRADE_THROW("the device refused to make or upload a benchmark input");
    }
  }
  c.gated = plan.timing.gate_launches;
  warm_up(c);
  if (const auto fault = sample(c)) {
    return report_fault(c, *fault, "during a timed call", events);
  }
  if (plan.timing.save_outputs) {
    if (const auto fault = check_after_sampling(c)) {
      return report_fault(c, *fault, "during a checked call after sampling", events);
    }
    if (const auto fault = fresh_call(c)) {
      return report_fault(c, *fault, "during the fresh-contents call", events);
    }
  } else {
    record_input_changes(c);
  }
  fill_samples(c);
  c.rec.case_seconds = seconds_since(started);
  events.timing(c.rec);
  return true;
}

} // namespace cugrade::runner
