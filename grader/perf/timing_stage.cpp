#include "grader/perf/timing_stage.h"

#include "grader/perf/benchmark_plan.h"
#include "grader/perf/performance_entries.h"
#include "grader/perf/statistics.h"
#include "harness/core/elapsed.h"

#include <chrono>
#include <fmt/format.h>
#include <random>

namespace cugrade::perf {

namespace fs = std::filesystem;

gpu_evaluation_options::gpu_evaluation_options()
    : request(default_timing_request()), control(default_control_request()) {}

timing_stage::timing_stage(const gpu_grading& grading, gpu_lock& lock, stage_parts& parts,
                           const gpu_evaluation_options& options)
    : m_grading(grading), m_lock(lock), m_parts(parts), m_options(options) {
  // Drawn per grading: the runner cannot know which matmul rows will be checked.
  m_policy.row_seed = std::random_device{}();
  // Every round of this grading checks its outputs against the same input sets: their expected
  // values are computed once (a 2^28-element reduction input set is 1 GiB to generate and sum).
  m_policy.prepared = std::make_shared<prepared_checks>();
}

// Kernels without performance points are timed only on request: a teaching kernel with global
// atomics can take seconds per round (`cugrade bench` covers them).
bool timing_stage::times(const reports::kernel_report& k) const {
  const auto& spec = m_grading.spec;
  const auto* kernel = spec.find_kernel(k.name);
  return kernel != nullptr && k.status == reports::kernel_status::passed && m_options.timing &&
         !spec.benchmarks.empty() &&
         (kernel->performance_points > 0 || m_options.time_unscored_kernels);
}

// The checks of the timed calls (CPU work: reading hundreds of megabytes of saved outputs and
// comparing them with the reference) run after the lock is let go, so other gradings use the GPU
// meanwhile. Only a missing cache entry or a control that moved takes the GPU again, to time the
// reference in full.
result<std::vector<reference_side>> timing_stage::check_with_cache(timed_runs& t,
                                                                   const fs::path& reference) {
  // `cugrade bench` holds the GPU for its whole run; a grading has let it go by now.
  m_grading.say(t.launcher +
                (!m_lock.held_exclusively()
                     ? ": checking the timed calls (the GPU is free for other gradings meanwhile)"
                     : ": checking the timed calls"));
  const auto checking = std::chrono::steady_clock::now();
  check_timed_launcher(t.setup.problem, t.setup.request, t.setup.policy, t.runs.front());
  if (t.control) {
    check_control(*t.cache, *t.control);
  }
  m_parts.add("checks", checking);
  if (!t.runs.front().verified()) {
    return std::vector<reference_side>{};
  }
  std::optional<control_verdict> verdict;
  std::string why = "no cached reference time on this GPU";
  if (t.control) {
    auto judged = judge_control(*t.cache, t.launcher, t.cached, *t.control);
    if (!judged) {
      return fail(judged.error());
    }
    if (judged->confirmed) {
      return std::move(judged->sides);
    }
    why = judged->why;
    verdict = std::move(*judged);
  }
  auto lock = m_lock.hold_exclusive();
  if (!lock) {
    return fail(lock.error());
  }
  const auto started = std::chrono::steady_clock::now();
  auto measured =
      measure_reference(*t.cache, t.launcher, reference, why, verdict ? &*verdict : nullptr);
  m_parts.add("reference", started);
  return measured;
}

// The CPU half: the checks, the control's verdict (a full measurement of the reference where it
// moved), and one performance entry per benchmark case the student's runs reached.
result<std::vector<reports::performance_entry>> timing_stage::finish_timing(timed_runs& t) {
  if (!t.sides) {
    auto sides = check_with_cache(t, *m_reference);
    if (!sides) {
      return fail(sides.error());
    }
    t.sides = std::move(*sides);
  }
  const std::vector<reference_side>& refs = *t.sides; // per case; empty when unverified
  const auto& s = t.setup;
  std::vector<reports::performance_entry> entries;
  for (std::size_t i = 0; i < s.cases.size(); ++i) {
    entry_source src;
    src.problem = m_grading.spec.problem;
    src.tc = s.cases[i];
    src.measured = pool(t.runs, i);
    if (src.measured.event_ms.empty()) {
      continue;
    }
    const bool have_ref = i < refs.size();
    src.reference = have_ref && !refs[i].noisy ? &refs[i].samples : nullptr;
    src.roof = roof();
    src.bootstrap_seed = bootstrap_seed(t.launcher, s.cases[i].name);
    src.noisy_rsd = m_options.noise.max_rsd;
    auto e = make_entry(src);
    if (have_ref) {
      e.reference_source = refs[i].source;
      e.control_ratio = refs[i].control_ratio;
      if (refs[i].noisy) {
        e.noisy = true;
        e.note += (e.note.empty() ? "" : "; ") + std::string("the reference's timing was noisy");
      }
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

// The grader's share of the checks (generating each input set and its expected values) runs
// while the runners time: it is ready, or nearly, when the first round's outputs come back.
std::future<void> timing_stage::prepare_checks_ahead() {
  return std::async(std::launch::async, [this, cases = setup().cases] {
    for (const auto& c : cases) {
      prepare_checks(problems::get(m_grading.spec.problem), c, m_options.request.input_sets,
                     m_policy);
    }
  });
}

result<std::vector<reports::performance_entry>>
timing_stage::compare(const std::string& launcher, const fs::path& library,
                      std::vector<launcher_run>& runs) {
  auto ahead = prepare_checks_ahead();
  // Not started ahead: `cugrade bench` holds the GPU for its whole run already.
  auto ts = run_timing({launcher}, library, /*start_early=*/false);
  if (!ts) {
    return fail(ts.error());
  }
  auto entries = finish_timing(ts->front());
  runs = std::move(ts->front().runs);
  return entries;
}

result<void> timing_stage::score_timing(reports::kernel_report& k,
                                        std::vector<reports::performance_entry> entries,
                                        const std::vector<launcher_run>& runs) {
  k.performance = std::move(entries);
  if (const auto* bad = first_failed_run(runs)) {
    const auto h = timing_failure_hint(*bad);
    m_grading.say(k.name + ": timed calls failed their checks: " + h.message);
    k.diagnosis.push_back(h);
    return {};
  }
  for (const auto& e : k.performance) {
    if (e.noisy) {
      k.performance_note = fmt::format(
          "not measured: the timing of {} was noisy (relative spread {:.1f}%, above {:.0f}%, after "
          "{} tries): the GPU was not quiet. These points are not a low score; a "
          "regrade on a quiet GPU measures them",
          e.shape, 100 * e.rel_stddev, 100 * m_options.noise.max_rsd, m_options.noise.retries + 1);
      m_grading.say(k.name + ": performance " + k.performance_note);
      return {};
    }
  }
  score_performance(k, *m_grading.spec.find_kernel(k.name), m_grading.spec.performance);
  return {};
}

// Every kernel's runner processes under one exclusive hold, then every kernel's checks with the
// GPU let go (and the caller told: runs_ended). With several kernels the runs in the hold are a
// stage of their own (no kernel).
result<std::vector<reports::stage_timing>>
timing_stage::time_all(const std::vector<reports::kernel_report*>& kernels, const fs::path& library,
                       const std::function<void()>& runs_ended) {
  const auto gpu_done = [&] {
    if (runs_ended) {
      runs_ended();
    }
  };
  std::vector<reports::kernel_report*> timed;
  std::vector<std::string> launchers;
  for (auto* k : kernels) {
    if (times(*k)) {
      timed.push_back(k);
      launchers.push_back(k->name);
    }
  }
  std::vector<reports::stage_timing> stages;
  if (timed.empty()) {
    gpu_done();
    return stages;
  }
  auto checks_ahead = prepare_checks_ahead();
  const auto starting = std::chrono::steady_clock::now();
  m_parts.clear();
  auto ran = run_timing(launchers, library, /*start_early=*/!m_options.precise);
  if (!ran) {
    return fail(ran.error());
  }
  gpu_done();
  const bool shared = timed.size() > 1;
  if (shared) {
    stages.push_back({std::string(name()), "", seconds_since(starting), m_parts.take()});
  }
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const auto started = shared ? std::chrono::steady_clock::now() : starting;
    auto entries = finish_timing((*ran)[i]);
    if (!entries) {
      return fail(entries.error());
    }
    if (auto scored = score_timing(*timed[i], std::move(*entries), (*ran)[i].runs); !scored) {
      return fail(scored.error());
    }
    stages.push_back({std::string(name()), timed[i]->name, seconds_since(started), m_parts.take()});
  }
  return stages;
}

const launcher_run* first_failed_run(const std::vector<launcher_run>& runs) {
  for (const auto& r : runs) {
    if (!r.verified()) {
      return &r;
    }
  }
  return nullptr;
}

reports::hint timing_failure_hint(const launcher_run& run) {
  for (const auto& c : run.cases) {
    if (!c.record) {
      const bool timeout = run.outcome.timed_out;
      return {timeout ? reports::hint_code::timeout : reports::hint_code::wrong_result,
              "the benchmark run of " + c.tc.name + " did not finish: " + run.outcome.ending()};
    }
    if (c.check.ok()) {
      continue;
    }
    if (c.check.verdict == timed_verdict::input_modified) {
      return {reports::hint_code::input_modified,
              "an input of a timed call was modified: " + c.check.message};
    }
    const std::string prefix = "the output of a timed call was wrong: ";
    const std::string& m = c.check.message;
    return {reports::hint_code::wrong_result, (m.starts_with(prefix) ? m : prefix + m) +
                                                  " (benchmark " + c.tc.name +
                                                  "); no performance points"};
  }
  return {reports::hint_code::wrong_result, "the timed calls failed their checks"};
}

} // namespace cugrade::perf
