// The GPU half of timing: every timed kernel's runner processes, started ahead while the GPU is
// shared and let go under one exclusive hold (docs/timing.md section 9), or A B B A rounds with
// --precise. Their checks come later, with the GPU let go (timing_stage.cpp).
#include "grader/perf/statistics.h"
#include "grader/perf/timing_stage.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

std::string student_folder(const std::string& launcher) {
  return launcher + "-student";
}

std::string joined(const std::vector<std::string>& names, const std::string& between) {
  return fmt::format("{}", fmt::join(names, between));
}

double seconds_until(std::chrono::steady_clock::time_point when) {
  return std::chrono::duration<double>(when - std::chrono::steady_clock::now()).count();
}

} // namespace

result<std::vector<reference_side>> timing_stage::compare_precise(const comparison_setup& s,
                                                                  const std::string& launcher,
                                                                  const fs::path& library,
                                                                  const fs::path& reference,
                                                                  std::vector<launcher_run>& runs) {
  auto lock = m_lock.hold_exclusive(); // verification stays inside: --precise is for disputes
  if (!lock) {
    return fail(lock.error());
  }
  const auto started = std::chrono::steady_clock::now();
  auto cmp = compare_launchers(s, launcher, {library, "student"}, {reference, "reference"});
  m_parts.add("A B B A rounds", started);
  if (!cmp) {
    return fail(cmp.error());
  }
  if (const auto* bad = first_failed_run(cmp->b_runs)) {
    return fail(reference_failure(launcher, *bad));
  }
  runs = cmp->a_runs;
  std::vector<reference_side> refs;
  for (std::size_t i = 0; cmp->a_verified() && i < s.cases.size(); ++i) {
    auto samples = pool(cmp->b_runs, i);
    const bool noisy = summarize(samples.event_ms).rel_stddev > m_options.noise.max_rsd;
    refs.push_back({std::move(samples), "abba", std::nullopt, noisy});
  }
  return refs;
}

// Every timed kernel's first student round (one runner) and the controls (another), started
// while the GPU is shared (the lock held shared, as for correctness runs): each makes its CUDA
// context, the slow and machine-wide serialised part of a start, and waits at its gate with
// nothing of the submission loaded. The exclusive hold then covers what they run once let go. A
// runner not ready in time is cancelled; its rounds start in the hold.
result<timing_stage::started_rounds> timing_stage::start_ahead(const std::vector<timed_runs>& ts,
                                                               const fs::path& library,
                                                               const fs::path& reference) {
  constexpr double ready_limit_seconds = 120;
  started_rounds ahead;
  const auto asked = std::chrono::steady_clock::now();
  auto shared = m_lock.hold_shared();
  if (!shared) {
    return fail(shared.error());
  }
  m_parts.add("shared lock wait", asked); // behind the exclusive holds taken or asked for before
  const auto starting = std::chrono::steady_clock::now();
  std::vector<std::string> launchers;
  std::vector<std::string> controlled; // the kernels whose reference time is cached
  for (const auto& t : ts) {
    launchers.push_back(t.launcher);
    if (every_case_cached(t.cached)) {
      controlled.push_back(t.launcher);
    }
  }
  if (auto students = start_first_rounds(ts.front().setup, launchers, {library, "student"},
                                         student_folder(joined(launchers, "+")))) {
    ahead.students = std::move(*students);
  }
  if (!controlled.empty()) {
    if (auto controls = start_controls(*ts.front().cache, controlled, reference)) {
      ahead.controls = std::move(*controls);
    }
  }
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(ready_limit_seconds));
  for (auto* started : {&ahead.students, &ahead.controls}) {
    if (*started && !(*started)->runner->wait_ready(seconds_until(until))) {
      started->reset(); // cancelled; its rounds start in the hold
    }
  }
  m_parts.add("runner start-up", starting);
  return ahead;
}

// Lets a runner started ahead go, when there is one, and splits its run into each of its
// launchers' shares (launcher_shares); none when it was not started or was cancelled. The runner
// is used up either way.
result<std::vector<std::optional<launcher_run>>>
timing_stage::let_go(std::optional<started_launcher>& started, std::string_view doing) {
  if (!started) {
    return std::vector<std::optional<launcher_run>>{};
  }
  m_grading.say(joined(started->target.launchers(), ", ") + ": " + std::string(doing));
  auto run = run_started_launcher(*started);
  started.reset();
  if (!run) {
    return fail(run.error());
  }
  return launcher_shares(*run);
}

// Each kernel's first round is its share of the runner started ahead; a kernel without one (the
// runner was not started ahead, or stopped before the kernel finished) times in a runner of its
// own, and a noisy kernel times again in its own runners.
result<void> timing_stage::run_student_rounds(std::vector<timed_runs>& ts, const fs::path& library,
                                              started_rounds& ahead) {
  const auto started = std::chrono::steady_clock::now();
  auto firsts = let_go(ahead.students, ts.size() > 1 ? "timing the student launchers in one runner"
                                                     : "timing the student launcher");
  if (!firsts) {
    return fail(firsts.error());
  }
  for (std::size_t i = 0; i < ts.size(); ++i) {
    auto& t = ts[i];
    auto* first = i < firsts->size() && (*firsts)[i] ? &*(*firsts)[i] : nullptr;
    auto student = run_with_retries(t.setup, t.launcher, {library, "student"}, m_options.noise,
                                    student_folder(t.launcher), first);
    if (!student) {
      return fail(student.error());
    }
    t.runs = {std::move(*student)};
  }
  m_parts.add("student runs", started);
  return {};
}

// The control of each kernel whose student round finished and whose reference time is cached:
// its share of the control runner started ahead, else a control runner of its own.
result<void> timing_stage::run_controls(std::vector<timed_runs>& ts, const fs::path& reference,
                                        started_rounds& ahead) {
  std::vector<timed_runs*> wanted;
  for (auto& t : ts) {
    if (t.runs.front().finished() && every_case_cached(t.cached)) {
      wanted.push_back(&t);
    }
  }
  if (wanted.empty()) {
    return {}; // a control started ahead is cancelled with `ahead`
  }
  const auto started = std::chrono::steady_clock::now();
  const auto controlled =
      ahead.controls ? ahead.controls->target.launchers() : std::vector<std::string>{};
  auto shares = let_go(ahead.controls, "control measurement of the cached reference time");
  if (!shares) {
    return fail(shares.error());
  }
  for (auto* t : wanted) {
    const auto at = static_cast<std::size_t>(
        std::find(controlled.begin(), controlled.end(), t->launcher) - controlled.begin());
    if (at < shares->size() && (*shares)[at]) {
      t->control = std::move(*(*shares)[at]);
      continue;
    }
    auto measured = run_control(*t->cache, t->launcher, reference);
    if (!measured) {
      return fail(measured.error());
    }
    t->control = std::move(*measured);
  }
  m_parts.add("control", started);
  return {};
}

// With --precise each kernel's A B B A comparison, verified inside one exclusive hold.
result<std::vector<timing_stage::timed_runs>> timing_stage::run_precise(std::vector<timed_runs> ts,
                                                                        const fs::path& library,
                                                                        const fs::path& reference) {
  auto lock = m_lock.hold_exclusive();
  if (!lock) {
    return fail(lock.error());
  }
  for (auto& t : ts) {
    auto sides = compare_precise(t.setup, t.launcher, library, reference, t.runs);
    if (!sides) {
      return fail(sides.error());
    }
    t.sides = std::move(*sides);
  }
  return ts;
}

// The GPU half of timing `launchers`: with --precise each one's A B B A comparison, otherwise
// every one's student round(s) and control under one exclusive hold, their runners started
// ahead when `start_early`; checked later by finish_timing().
result<std::vector<timing_stage::timed_runs>>
timing_stage::run_timing(const std::vector<std::string>& launchers, const fs::path& library,
                         bool start_early) {
  auto ref = reference();
  if (!ref) {
    return fail(ref.error());
  }
  std::vector<timed_runs> ts(launchers.size());
  for (std::size_t i = 0; i < ts.size(); ++i) {
    ts[i].launcher = launchers[i];
    ts[i].setup = setup();
  }
  if (m_options.precise) {
    return run_precise(std::move(ts), library, *ref);
  }
  auto c = cached_setup();
  if (!c) {
    return fail(c.error());
  }
  for (auto& t : ts) {
    t.cached = load_cached_reference(*c, t.launcher);
    t.cache = *c;
  }
  started_rounds ahead; // what is left of it is cancelled after the hold is let go
  if (start_early) {
    auto early = start_ahead(ts, library, *ref);
    if (!early) {
      return fail(early.error());
    }
    ahead = std::move(*early);
  }
  auto lock = m_lock.hold_exclusive();
  if (!lock) {
    return fail(lock.error());
  }
  if (auto r = run_student_rounds(ts, library, ahead); !r) {
    return fail(r.error());
  }
  if (auto r = run_controls(ts, *ref, ahead); !r) {
    return fail(r.error());
  }
  return ts;
}

} // namespace cugrade::perf
