#include "grader/perf/reference_comparison.h"

#include "grader/perf/statistics.h"

#include <fmt/format.h>

namespace cugrade::perf {

namespace {

void say(const comparison_setup& s, const std::string& message) {
  if (s.progress) {
    s.progress(message);
  }
}

timing_target target_of(const comparison_setup& setup, const std::string& launcher,
                        const timed_side& side, const std::string& folder) {
  timing_target target;
  target.runner = setup.runner;
  target.context = setup.context;
  target.library = side.library;
  target.launcher = launcher;
  target.output_dir = setup.work_dir / folder;
  return target;
}

result<launcher_run> run_once(const comparison_setup& setup, const std::string& launcher,
                              const timed_side& side, const protocol::timing_request& request,
                              const std::string& folder) {
  return run_timed_launcher(setup.problem, target_of(setup, launcher, side, folder), setup.cases,
                            request);
}

std::string try_folder(const std::string& folder, int attempt) {
  return fmt::format("{}-try-{}", folder, attempt);
}

std::string control_folder(const std::string& launcher) {
  return launcher + "-reference-control";
}

// Why a round of the reference cannot be used: its runner did not start, or it failed its own
// timed checks (a harness or reference bug, never the student's).
std::optional<std::string> reference_problem(const result<launcher_run>& run,
                                             const std::string& launcher) {
  if (!run) {
    return run.error();
  }
  if (!run->verified()) {
    return reference_failure(launcher, *run);
  }
  return std::nullopt;
}

std::vector<pooled_samples> samples_of(const launcher_run& run, std::size_t cases) {
  std::vector<pooled_samples> out;
  for (std::size_t i = 0; i < cases; ++i) {
    out.push_back(pool({run}, i));
  }
  return out;
}

reference_timing_key key_for(const cached_reference_setup& s, const std::string& launcher,
                             std::size_t index) {
  auto key = s.key;
  key.launcher = launcher;
  key.tc = s.timing.cases[index];
  return key;
}

} // namespace

std::string reference_failure(const std::string& launcher, const launcher_run& run) {
  return "the reference " + launcher +
         " failed its own timed checks (a harness or reference bug): " + run.first_problem();
}

double max_rsd(const launcher_run& run) {
  double worst = 0;
  for (const auto& c : run.cases) {
    if (c.record) {
      worst = std::max(worst, summarize(c.record->event_ms).rel_stddev);
    }
  }
  return worst;
}

result<started_launcher> start_first_rounds(const comparison_setup& setup,
                                            const std::vector<std::string>& launchers,
                                            const timed_side& side, const std::string& folder) {
  auto target = target_of(setup, launchers.front(), side, try_folder(folder, 0));
  target.more_launchers.assign(launchers.begin() + 1, launchers.end());
  return start_timed_launcher(setup.problem, target, setup.cases, setup.request);
}

result<launcher_run> run_with_retries(const comparison_setup& setup, const std::string& launcher,
                                      const timed_side& side, const noise_rule& rule,
                                      const std::string& folder, launcher_run* first) {
  std::optional<launcher_run> best;
  for (int attempt = 0; attempt <= rule.retries; ++attempt) {
    const bool given = attempt == 0 && first != nullptr;
    if (!given) {
      say(setup, fmt::format("{}: timing the {} launcher{}", launcher, side.label,
                             attempt == 0 ? ""
                                          : fmt::format(" (try {} of {})", attempt + 1,
                                                        rule.retries + 1)));
    }
    auto run = given ? result<launcher_run>(std::move(*first))
                     : run_once(setup, launcher, side, setup.request, try_folder(folder, attempt));
    if (!run) {
      return fail(run.error());
    }
    if (!run->finished()) {
      return run; // a fault or a time-out: the checks name it, more rounds would only cost time
    }
    const double rsd = max_rsd(*run);
    if (!best || rsd < max_rsd(*best)) {
      best = std::move(*run);
    }
    if (rsd <= rule.max_rsd) {
      break;
    }
    say(setup, fmt::format("{}: the {} timing was noisy (RSD {:.2f}% above {:.0f}%)", launcher,
                           side.label, 100 * rsd, 100 * rule.max_rsd));
  }
  return std::move(*best);
}

result<launcher_run> time_with_retries(const comparison_setup& setup, const std::string& launcher,
                                       const timed_side& side, const noise_rule& rule,
                                       const std::string& folder) {
  auto run = run_with_retries(setup, launcher, side, rule, folder);
  if (run) {
    check_timed_launcher(setup.problem, setup.request, setup.policy, *run);
  }
  return run;
}

std::vector<std::optional<pooled_samples>> load_cached_reference(const cached_reference_setup& s,
                                                                 const std::string& launcher) {
  std::vector<std::optional<pooled_samples>> cached;
  for (std::size_t i = 0; i < s.timing.cases.size(); ++i) {
    cached.push_back(s.cache.load(key_for(s, launcher, i)));
  }
  return cached;
}

bool every_case_cached(const std::vector<std::optional<pooled_samples>>& cached) {
  for (const auto& c : cached) {
    if (!c) {
      return false;
    }
  }
  return !cached.empty();
}

result<started_launcher> start_controls(const cached_reference_setup& s,
                                        const std::vector<std::string>& launchers,
                                        const std::filesystem::path& reference_library) {
  auto target = target_of(s.timing, launchers.front(), {reference_library, "reference"},
                          control_folder(fmt::format("{}", fmt::join(launchers, "+"))));
  target.more_launchers.assign(launchers.begin() + 1, launchers.end());
  return start_timed_launcher(s.timing.problem, target, s.timing.cases, s.control);
}

result<launcher_run> run_control(const cached_reference_setup& s, const std::string& launcher,
                                 const std::filesystem::path& reference_library) {
  say(s.timing, launcher + ": control measurement of the cached reference time");
  return run_once(s.timing, launcher, {reference_library, "reference"}, s.control,
                  control_folder(launcher));
}

void check_control(const cached_reference_setup& s, launcher_run& control) {
  check_timed_launcher(s.timing.problem, s.control, s.timing.policy, control);
}

result<control_verdict> judge_control(const cached_reference_setup& s, const std::string& launcher,
                                      const std::vector<std::optional<pooled_samples>>& cached,
                                      const launcher_run& control) {
  if (!control.verified()) {
    return fail(reference_failure(launcher, control));
  }
  control_verdict v;
  const auto measured = samples_of(control, s.timing.cases.size());
  v.confirmed = every_case_cached(cached);
  for (std::size_t i = 0; i < cached.size() && cached[i]; ++i) {
    reference_side side{*cached[i], "cache", std::nullopt, false};
    const double ratio = median(measured[i].event_ms) / median(cached[i]->event_ms);
    side.control_ratio = ratio;
    const bool noisy = summarize(measured[i].event_ms).rel_stddev > s.noise.max_rsd;
    if (noisy || std::abs(ratio - 1) > s.drift_limit) {
      v.confirmed = false;
      v.why = noisy ? fmt::format("the control of {} was noisy", s.timing.cases[i].name)
                    : fmt::format("the control of {} moved by {:+.2f}% (limit {:.0f}%)",
                                  s.timing.cases[i].name, 100 * (ratio - 1), 100 * s.drift_limit);
    }
    v.sides.push_back(std::move(side));
  }
  return v;
}

result<std::vector<reference_side>>
measure_reference(const cached_reference_setup& s, const std::string& launcher,
                  const std::filesystem::path& reference_library, const std::string& why,
                  const control_verdict* control) {
  say(s.timing, launcher + ": timing the reference in full (" + why + ")");
  auto run = time_with_retries(s.timing, launcher, {reference_library, "reference"}, s.noise,
                               launcher + "-reference");
  if (auto bad = reference_problem(run, launcher)) {
    return fail(*bad);
  }
  std::vector<reference_side> sides;
  for (std::size_t i = 0; i < s.timing.cases.size(); ++i) {
    const bool have_ratio = control != nullptr && i < control->sides.size();
    reference_side side{pool({*run}, i), "measured",
                        have_ratio ? control->sides[i].control_ratio : std::nullopt, false};
    side.noisy = summarize(side.samples.event_ms).rel_stddev > s.noise.max_rsd;
    std::string err;
    if (!side.noisy && !s.cache.store(key_for(s, launcher, i), side.samples, &err)) {
      say(s.timing, "cannot cache the reference time: " + err);
    }
    sides.push_back(std::move(side));
  }
  return sides;
}

} // namespace cugrade::perf
