#include "grader/perf/timed_verification.h"

#include "harness/problems/tolerance.h"
#include "harness/protocol/timing.h"

#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <string>

namespace cugrade::perf {

namespace {

using problems::format_number;

timed_check failed(timed_verdict v, std::string message) {
  return {v, std::move(message), 0};
}

// Faults, unwritten elements, stores past the end and NaNs of any call, kept or dropped.
std::optional<timed_check> check_calls(const protocol::timing_record& r, std::size_t elements,
                                       int input_sets) {
  if (r.stop_reason == "fault") {
    return failed(timed_verdict::fault, "a timed call failed: " + r.note);
  }
  // First: a launcher that works in place also leaves wrong (even infinite) outputs behind, and
  // the changed input is the cause to name.
  if (r.input_modified) {
    return failed(timed_verdict::input_modified,
                  "an input buffer changed during the timed calls; inputs are read-only, and a "
                  "launcher that works in place gets wrong answers on its next call");
  }
  for (std::size_t i = 0; i < r.checks.size(); ++i) {
    const auto& c = r.checks[i];
    const std::string call = c.set == input_sets
                                 ? std::string("the fresh-contents call")
                                 : fmt::format("timed call {} (input set {})", i + 1, c.set);
    if (c.canary_overwritten) {
      return failed(timed_verdict::out_of_bounds,
                    call + " stored past the end of the output (the guard words after it "
                           "changed); guard every store with the output's bounds");
    }
    if (c.poison_words > 0) {
      return failed(timed_verdict::stale,
                    fmt::format("{} returned with {} of {} output elements never written (they "
                                "still hold the poison word); every call must compute the whole "
                                "result",
                                call, c.poison_words, elements));
    }
    if (c.non_finite > 0) {
      return failed(timed_verdict::wrong,
                    fmt::format("{} wrote {} NaN or infinite elements", call, c.non_finite));
    }
  }
  return std::nullopt;
}

bool close(double a, double b, double scale, double tolerance, bool exact) {
  return exact ? a == b : std::fabs(a - b) <= tolerance * scale + 1e-30;
}

// Every call on `set` must give (nearly) the output that was verified for it.
std::optional<timed_check> check_digests(const protocol::timing_record& r, int set,
                                         const protocol::output_digest& verified,
                                         problems::element_type type, const check_policy& p) {
  const bool exact = type != problems::element_type::f32;
  for (std::size_t i = 0; i < r.checks.size(); ++i) {
    const auto& c = r.checks[i];
    if (c.set != set) {
      continue;
    }
    if (!close(c.sum, verified.sum, verified.abs_sum, p.digest_tolerance, exact) ||
        !close(c.abs_sum, verified.abs_sum, verified.abs_sum, p.digest_tolerance, exact)) {
      return failed(timed_verdict::wrong,
                    fmt::format("the output of a timed call was wrong: timed call {} on input set "
                                "{} gave another result than the verified call on the same inputs "
                                "(elements sum to {}, expected {})",
                                i + 1, set, format_number(c.sum), format_number(verified.sum)));
    }
  }
  return std::nullopt;
}

std::string describe_call(const protocol::saved_output& s) {
  if (s.role == "fresh") {
    return "the fresh-contents call (new inputs at the addresses of input set 0)";
  }
  return fmt::format("the {} timed call on input set {}", s.role, s.set);
}

struct set_context {
  const problems::problem& problem;
  const problems::test_case& benchmark;
  int input_sets;
  const protocol::timing_record& record;
  const std::filesystem::path& dir;
  const check_policy& policy;
};

// The check of input set `set`'s outputs, prepared once per grading when the policy shares them.
const prepared_check& prepared_for(const set_context& x, int set,
                                   std::optional<prepared_check>& own) {
  const auto tc = protocol::input_set_case(x.benchmark, set);
  const auto make = [&] {
    return prepare_check(x.problem, tc,
                         protocol::input_set_inputs(x.problem, x.benchmark, set, x.input_sets),
                         x.policy);
  };
  if (x.policy.prepared) {
    auto set_tc = tc;
    set_tc.name += set == x.input_sets ? "/fresh" : ""; // the fresh set's inputs are negated
    return x.policy.prepared->get(set_tc, make);
  }
  own = make();
  return *own;
}

// The file of input set `set`'s first output, when the runner saved one.
std::optional<std::string> first_file(const protocol::timing_record& r, int set) {
  for (const auto& s : r.saved) {
    if (s.set == set && s.role == "first") {
      return s.file;
    }
  }
  return std::nullopt;
}

// The saved outputs of input set `set` against the reference, then the fingerprints.
std::optional<timed_check> check_set(const set_context& x, int set, int& checked) {
  std::optional<prepared_check> own;
  const prepared_check* check = nullptr;
  const auto spec = x.problem.output(x.benchmark.dims);
  const auto first = first_file(x.record, set);
  for (const auto& s : x.record.saved) {
    // A last output equal to the first names the first's file, checked as the first.
    if (s.set != set || (s.role != "first" && first && s.file == *first)) {
      continue;
    }
    const auto out = protocol::read_output(x.dir / s.file, spec);
    if (!out) {
      return failed(timed_verdict::incomplete,
                    "the runner's saved output " + s.file + " is missing or short");
    }
    ++checked;
    if (check == nullptr) {
      check = &prepared_for(x, set, own);
    }
    const auto v = check_prepared(x.problem, *check, *out, x.policy);
    if (!v.passed) {
      const bool fresh = s.role == "fresh";
      return failed(fresh     ? timed_verdict::cached
                    : v.stale ? timed_verdict::stale
                              : timed_verdict::wrong,
                    "the output of a timed call was wrong: " + describe_call(s) + ": " + v.detail +
                        (fresh ? "; a launcher must compute every call from its inputs, not "
                                 "return a result kept from an earlier call"
                               : ""));
    }
    if (s.role == "first") {
      const auto d = protocol::digest_of(spec.type, out->bytes.data(), spec.count);
      if (auto bad = check_digests(x.record, set, d, spec.type, x.policy)) {
        return bad;
      }
    }
  }
  return std::nullopt;
}

// Each set that was timed has its first output saved, and the fresh call has its own.
bool evidence_complete(const protocol::timing_record& r, int input_sets) {
  for (int set = 0; set <= input_sets; ++set) {
    bool called = false;
    for (const auto& c : r.checks) {
      called = called || c.set == set;
    }
    bool saved = false;
    for (const auto& s : r.saved) {
      saved = saved || s.set == set;
    }
    if (called && !saved) {
      return false;
    }
  }
  return !r.checks.empty() && r.checks.back().set == input_sets;
}

} // namespace

void prepare_checks(const problems::problem& problem, const problems::test_case& benchmark,
                    int input_sets, const check_policy& policy) {
  if (!policy.prepared) {
    return;
  }
  const protocol::timing_record none;
  const std::filesystem::path nowhere;
  const set_context x{problem, benchmark, input_sets, none, nowhere, policy};
  for (int set = 0; set <= input_sets; ++set) {
    std::optional<prepared_check> own;
    (void)prepared_for(x, set, own);
  }
}

timed_check verify_timed_calls(const problems::problem& problem,
                               const problems::test_case& benchmark, int input_sets,
                               const protocol::timing_record& record) {
  if (auto bad = check_calls(record, problem.output(benchmark.dims).count, input_sets)) {
    return *bad;
  }
  if (record.checks.empty()) {
    return failed(timed_verdict::incomplete, "the runner fingerprinted no timed call");
  }
  return {timed_verdict::ok, "", 0};
}

timed_check verify_timed_case(const problems::problem& problem,
                              const problems::test_case& benchmark, int input_sets,
                              const protocol::timing_record& record,
                              const std::filesystem::path& output_dir, const check_policy& policy) {
  const auto elements = problem.output(benchmark.dims).count;
  if (auto bad = check_calls(record, elements, input_sets)) {
    return *bad;
  }
  if (!evidence_complete(record, input_sets)) {
    return failed(timed_verdict::incomplete,
                  "the runner did not save the outputs of every input set and the fresh call");
  }
  const set_context x{problem, benchmark, input_sets, record, output_dir, policy};
  int checked = 0;
  for (int set = 0; set <= input_sets; ++set) {
    if (auto bad = check_set(x, set, checked)) {
      return *bad;
    }
  }
  return {timed_verdict::ok, "", checked};
}

} // namespace cugrade::perf
