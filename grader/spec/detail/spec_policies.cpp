#include "grader/spec/detail/spec_reader.h"

#include "grader/spec/suggest.h"
#include "harness/core/iso8601.h"

#include <cmath>

namespace cugrade::spec::detail {

namespace {

const std::vector<std::string>& tolerance_policies() {
  static const std::vector<std::string> policies = {"fp32-any-order"};
  return policies;
}

// A number in [low, high] (`low_open`: strictly above low); reports otherwise.
std::optional<double> read_bounded(object_reader& r, std::string_view key, std::string_view example,
                                   double low, bool low_open, double high, std::string_view why) {
  const auto x = r.number(key, example, true);
  if (!x)
    return std::nullopt;
  const bool above = low_open ? *x > low : *x >= low;
  if (std::isfinite(*x) && above && *x <= high)
    return x;
  r.diag().error(r.path_of(key), number_text(*x) + " is out of range: " + std::string(why) +
                                     "; write e.g. \"" + std::string(key) +
                                     "\": " + std::string(example));
  return std::nullopt;
}

// A size in bytes from 1 KiB to 4 GiB, when given.
void read_byte_limit(object_reader& r, std::string_view key, std::string_view example,
                     std::uint64_t& out) {
  constexpr std::uint64_t low = 1024;
  constexpr std::uint64_t high = std::uint64_t{4} << 30;
  const auto bytes = r.unsigned_whole(key, example, false);
  if (!bytes)
    return;
  if (*bytes < low || *bytes > high) {
    r.diag().error(r.path_of(key), std::to_string(*bytes) +
                                       " is out of range: a size in bytes from 1024 (1 KiB) to "
                                       "4294967296 (4 GiB); write e.g. \"" +
                                       std::string(key) + "\": " + std::string(example));
    return;
  }
  out = *bytes;
}

void read_performance(object_reader& top, assignment_spec& out) {
  const json* value = top.get("performance", value_kind::object,
                              R"({"full_speedup": 1.0, "zero_speedup": 0.5})", false);
  if (value == nullptr)
    return;
  object_reader r(*value, top.path_of("performance"), top.diag());
  r.reject_unknown_keys({"full_speedup", "zero_speedup", "in_emulation"});
  const auto full =
      read_bounded(r, "full_speedup", "1.0", 0, true, 1e6, "a speedup over the reference, above 0");
  const auto zero = read_bounded(r, "zero_speedup", "0.5", 0, false, 1e6,
                                 "a speedup over the reference, 0 or above");
  if (full && zero && *full <= *zero)
    r.diag().error(r.path_of("full_speedup"),
                   "must be above zero_speedup (" + number_text(*zero) + "), got " +
                       number_text(*full) +
                       "; full points need a higher speedup than none, "
                       "e.g. \"full_speedup\": 1.0, \"zero_speedup\": 0.5");
  out.performance = {full.value_or(out.performance.full_speedup),
                     zero.value_or(out.performance.zero_speedup), false};
  if (const auto in_emulation = r.text("in_emulation", "\"excluded\"", false)) {
    if (*in_emulation != "excluded" && *in_emulation != "counted")
      r.diag().error(r.path_of("in_emulation"),
                     "\"" + *in_emulation +
                         "\" is not a choice; write \"excluded\" (performance points leave the "
                         "maximum in emulation) or \"counted\" (they stay in it, unearned)");
    out.performance.counted_in_emulation = *in_emulation == "counted";
  }
}

void read_tolerance(object_reader& top, assignment_spec& out) {
  out.tolerance_policy = tolerance_policies().front();
  const json* value =
      top.get("tolerance", value_kind::object, R"({"policy": "fp32-any-order"})", false);
  if (value == nullptr)
    return;
  object_reader r(*value, top.path_of("tolerance"), top.diag());
  r.reject_unknown_keys({"policy"});
  const auto policy = r.text("policy", "\"fp32-any-order\"", true);
  if (policy && *policy != tolerance_policies().front())
    r.diag().error(r.path_of("policy"), json(*policy).dump() + " is not a tolerance policy " +
                                            expected_one_of(*policy, tolerance_policies()));
}

void read_limits(object_reader& top, assignment_spec& out) {
  const json* value = top.get("limits", value_kind::object,
                              R"({"compile_seconds": 120, "kernel_seconds": 60})", false);
  if (value == nullptr)
    return;
  object_reader r(*value, top.path_of("limits"), top.diag());
  r.reject_unknown_keys({"compile_seconds", "kernel_seconds", "fetch_seconds", "source_bytes",
                         "submission_bytes", "repository_bytes"});
  const std::string_view why = "a time limit in seconds, above 0 and at most 86400";
  if (value->contains("compile_seconds"))
    out.lim.compile_seconds =
        read_bounded(r, "compile_seconds", "120", 0, true, 86400, why).value_or(1);
  if (value->contains("kernel_seconds"))
    out.lim.kernel_seconds =
        read_bounded(r, "kernel_seconds", "60", 0, true, 86400, why).value_or(1);
  if (value->contains("fetch_seconds"))
    out.lim.fetch_seconds =
        read_bounded(r, "fetch_seconds", "300", 0, true, 86400, why).value_or(1);
  read_byte_limit(r, "source_bytes", "1048576", out.lim.source_bytes);
  read_byte_limit(r, "submission_bytes", "67108864", out.lim.submission_bytes);
  read_byte_limit(r, "repository_bytes", "268435456", out.lim.repository_bytes);
  if (out.lim.source_bytes > out.lim.submission_bytes)
    r.diag().error(r.path_of("source_bytes"), "must be at most submission_bytes (" +
                                                  std::to_string(out.lim.submission_bytes) +
                                                  "): the source is part of the submission");
}

// Which commit a deadline grades: one of the three modes, by name.
void read_deadline_mode(object_reader& r, late_policy& out) {
  const auto mode = r.text("mode", "\"last_on_time\"", false);
  if (!mode)
    return;
  for (const auto m :
       {deadline_mode::last_on_time, deadline_mode::latest_with_penalty, deadline_mode::best_of}) {
    if (*mode == to_string(m)) {
      out.mode = m;
      return;
    }
  }
  r.diag().error(r.path_of("mode"),
                 json(*mode).dump() +
                     " is not a deadline mode; write \"last_on_time\" (the newest commit on "
                     "time), \"latest_with_penalty\" (the newest commit, penalised) or "
                     "\"best_of\" (both, the higher score after the penalty)");
}

void read_late_policy(object_reader& top, assignment_spec& out) {
  const json* value =
      top.get("late_policy", value_kind::object,
              R"({"penalty_per_day": 0.1, "max_penalty": 0.5, "grace_minutes": 0})", false);
  if (value == nullptr)
    return;
  object_reader r(*value, top.path_of("late_policy"), top.diag());
  r.reject_unknown_keys({"penalty_per_day", "max_penalty", "grace_minutes", "mode"});
  const std::string_view why = "a fraction of the score, from 0 to 1 (0.1 is 10%)";
  out.late.penalty_per_day =
      read_bounded(r, "penalty_per_day", "0.1", 0, false, 1, why).value_or(0);
  out.late.max_penalty = read_bounded(r, "max_penalty", "0.5", 0, false, 1, why).value_or(0);
  const auto grace = r.whole("grace_minutes", "0", false);
  if (grace && (*grace < 0 || *grace > 60 * 24 * 365))
    r.diag().error(r.path_of("grace_minutes"),
                   std::to_string(*grace) + " is out of range: minutes of lateness forgiven, from "
                                            "0 to 525600; write e.g. \"grace_minutes\": 15");
  else if (grace)
    out.late.grace_minutes = static_cast<int>(*grace);
  read_deadline_mode(r, out.late);
}

void read_deadline(object_reader& top, assignment_spec& out) {
  const auto text = top.text("deadline", "\"2026-12-01T23:59:00Z\"", false);
  if (!text)
    return;
  // The same parser as --deadline, so a spec accepts every form the command line does.
  const auto when = parse_iso8601(*text);
  if (when)
    out.deadline = format_iso8601_utc(*when);
  else
    top.diag().error(top.path_of("deadline"), when.error());
}

} // namespace

void read_policies(object_reader& top, assignment_spec& out) {
  read_performance(top, out);
  read_tolerance(top, out);
  read_limits(top, out);
  read_late_policy(top, out);
  read_deadline(top, out);
}

} // namespace cugrade::spec::detail
