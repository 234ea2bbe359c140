#include "grader/perf/gpu_evaluation.h"

#include "grader/perf/benchmark_plan.h"
#include "grader/perf/performance_entries.h"
#include "grader/perf/reference_build.h"
#include "grader/perf/roofline_cache.h"
#include "grader/perf/sanitizer_check.h"
#include "grader/perf/statistics.h"
#include "grader/process/device_lock.h"
#include "grader/process/process.h"
#include "harness/core/elapsed.h"
#include "harness/core/sha256.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <future>
#include <iterator>
#include <random>
#include <sstream>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

constexpr double roofline_time_limit = 600;

std::vector<std::string> case_keys(const spec::assignment_spec& spec) {
  std::vector<std::string> keys;
  for (const auto& c : spec.benchmarks) {
    keys.push_back(roofline::case_key(spec.problem, c));
  }
  return keys;
}

bool runnable(reports::kernel_status s) {
  return s == reports::kernel_status::passed || s == reports::kernel_status::failed;
}

// The first run that failed its checks; runs end at the first failure.
const launcher_run* failed_run(const std::vector<launcher_run>& runs) {
  for (const auto& r : runs) {
    if (!r.verified()) {
      return &r;
    }
  }
  return nullptr;
}

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

gpu_evaluation_options::gpu_evaluation_options()
    : request(default_timing_request()), control(default_control_request()) {}

gpu_evaluator::gpu_evaluator(const spec::assignment_spec& spec, const grader::layout& layout,
                             fs::path nvcc, protocol::device_identity device,
                             runners::run_context context, fs::path work_dir,
                             std::function<void(std::string_view)> progress,
                             gpu_evaluation_options options)
    : m_spec(spec), m_layout(layout), m_nvcc(std::move(nvcc)), m_device(std::move(device)),
      m_context(std::move(context)), m_work_dir(std::move(work_dir)),
      m_progress(std::move(progress)), m_options(std::move(options)) {
  // Drawn per grading: the runner cannot know which matmul rows will be checked.
  m_policy.row_seed = std::random_device{}();
  // Every round of this grading checks its outputs against the same input sets: their expected
  // values are computed once (a 2^28-element reduction input set is 1 GiB to generate and sum).
  m_policy.prepared = std::make_shared<prepared_checks>();
}

void gpu_evaluator::say(const std::string& message) const {
  if (m_progress) {
    m_progress(message);
  }
}

std::string gpu_evaluator::gpu_key() const {
  return m_device.uuid.empty() ? m_device.device : m_device.uuid;
}

result<fs::path> gpu_evaluator::reference() {
  if (!m_reference) {
    say("building the reference " + m_spec.source_file + " for timing");
    std::vector<std::string> archs;
    if (!m_device.arch.empty()) {
      archs.push_back(m_device.arch);
    }
    auto lib = reference_library(m_spec, m_nvcc, m_layout.cache_dir, archs);
    if (!lib) {
      return fail(lib.error());
    }
    m_reference = *lib;
  }
  return *m_reference;
}

const roofline::device_roofline* gpu_evaluator::roof() {
  if (!m_roof_tried) {
    m_roof_tried = true;
    // Read from the cache, it needs no GPU: a grading does not wait for the GPU alone again (in a
    // batch that wait drains every other grading's runs from the GPU) just to read a file.
    if (auto cached = cached_roofline(m_layout.cache_dir, m_device.device, case_keys(m_spec))) {
      m_roof = std::move(*cached);
      return &*m_roof;
    }
    // Measuring the roofline times the device: nothing else of cugrade may run on it meanwhile.
    auto lock = hold_exclusive();
    auto r = lock
                 ? load_roofline(m_layout.bin_dir / "cugrade-roofline", m_layout.cache_dir,
                                 m_device.device, case_keys(m_spec), roofline_time_limit, m_context)
                 : result<roofline::device_roofline>(fail(lock.error()));
    if (r) {
      m_roof = std::move(*r);
    } else {
      say("no roofline figures: " + r.error());
    }
  }
  return m_roof ? &*m_roof : nullptr;
}

result<std::shared_ptr<process::device_lock>> gpu_evaluator::hold_exclusive() {
  if (auto held = m_exclusive.lock()) {
    return held;
  }
  const auto asked = std::chrono::steady_clock::now();
  auto lock = process::device_lock::acquire(gpu_key(), process::lock_mode::exclusive,
                                            [this](std::string_view m) { say(std::string(m)); });
  if (!lock) {
    return fail(lock.error());
  }
  add_part("lock wait", asked);
  auto held = std::make_shared<process::device_lock>(std::move(*lock));
  m_exclusive = held;
  return held;
}

void gpu_evaluator::add_part(const std::string& name, std::chrono::steady_clock::time_point since) {
  const double seconds = seconds_since(since);
  for (auto& p : m_parts) {
    if (p.name == name) {
      p.seconds += seconds;
      return;
    }
  }
  m_parts.push_back({name, seconds});
}

comparison_setup gpu_evaluator::setup() const {
  comparison_setup s;
  s.problem = m_spec.problem;
  s.runner = m_layout.runner("gpu");
  s.context = m_context;
  s.work_dir = m_work_dir / "timing";
  s.cases = benchmark_cases(m_spec);
  s.request = m_options.request;
  s.policy = m_policy;
  s.rounds = m_options.rounds;
  s.progress = m_progress;
  return s;
}

result<cached_reference_setup> gpu_evaluator::cached_setup() {
  auto ref = reference();
  if (!ref) {
    return fail(ref.error());
  }
  if (!m_reference_sha256) {
    std::ifstream in(*ref, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    m_reference_sha256 = sha256_hex(bytes.str());
  }
  cached_reference_setup c;
  c.timing = setup();
  c.control = m_options.control;
  c.drift_limit = m_options.drift_limit;
  c.noise = m_options.noise;
  c.cache = reference_timing_cache(m_layout.cache_dir / "reference-timings");
  c.key.gpu = gpu_key();
  c.key.driver = m_device.driver;
  c.key.library_sha256 = *m_reference_sha256;
  c.key.spec_sha256 = m_spec.spec_sha256;
  return c;
}

// Like correctness runs, sanitizer runs may share the GPU with each other, not with timing.
result<process::device_lock> gpu_evaluator::hold_shared() const {
  return process::device_lock::acquire(gpu_key(), process::lock_mode::shared,
                                       [this](std::string_view m) { say(std::string(m)); });
}

result<gpu_evaluator::sanitizer_turn> gpu_evaluator::take_sanitizer_turn() const {
  const auto sanitizer = find_compute_sanitizer(m_nvcc);
  if (!sanitizer) {
    return fail("the assignment asks for compute-sanitizer checks but compute-sanitizer is not "
                "installed (looked next to " +
                m_nvcc.string() +
                " and on PATH); install the "
                "CUDA toolkit's compute-sanitizer or set \"sanitizer\": {\"enabled\": false}");
  }
  auto lock = hold_shared();
  if (!lock) {
    return fail(lock.error());
  }
  return sanitizer_turn{
      {*sanitizer, m_layout.runner("gpu"), m_context, m_work_dir / "sanitizer", 300},
      std::move(*lock)};
}

result<void> gpu_evaluator::run_sanitizer_checks(reports::kernel_report& k, const fs::path& library,
                                                 const std::vector<std::string>& tools) {
  const auto turn = take_sanitizer_turn();
  if (!turn) {
    return fail(turn.error());
  }
  say(k.name + ": compute-sanitizer " + joined(tools, ", "));
  auto outcome = run_sanitizer(m_spec, tools, k.name, library, turn->tools);
  if (!outcome) {
    return fail(outcome.error());
  }
  for (const auto& note : outcome->notes) {
    say(k.name + ": " + note);
  }
  record_findings(k, outcome->findings);
  if (!outcome->stopped_by_submission.empty()) {
    say(k.name + ": " + outcome->stopped_by_submission);
    k.status = reports::kernel_status::error;
    k.error_kind = reports::fault_kind::tampering;
    k.message = outcome->stopped_by_submission;
  }
  return {};
}

result<std::vector<std::string>>
gpu_evaluator::sanitizer_pass(const std::vector<reports::kernel_report*>& kernels,
                              const fs::path& library) {
  const auto turn = take_sanitizer_turn();
  if (!turn) {
    return fail(turn.error());
  }
  std::vector<std::string> launchers;
  for (const auto* k : kernels) {
    launchers.push_back(k->name);
  }
  say("compute-sanitizer " + joined(m_spec.sanitizer.tools, ", ") + ", one run each over " +
      joined(launchers, ", "));
  return run_sanitizer_pass(m_spec, launchers, library, turn->tools);
}

result<std::vector<reference_side>>
gpu_evaluator::compare_precise(const comparison_setup& s, const std::string& launcher,
                               const fs::path& library, const fs::path& reference,
                               std::vector<launcher_run>& runs) {
  auto lock = hold_exclusive(); // verification stays inside: --precise is for disputes
  if (!lock) {
    return fail(lock.error());
  }
  const auto started = std::chrono::steady_clock::now();
  auto cmp = compare_launchers(s, launcher, {library, "student"}, {reference, "reference"});
  add_part("A B B A rounds", started);
  if (!cmp) {
    return fail(cmp.error());
  }
  if (const auto* bad = failed_run(cmp->b_runs)) {
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

// The checks of the timed calls (CPU work: reading hundreds of megabytes of saved outputs and
// comparing them with the reference) run after the lock is let go, so other gradings use the GPU
// meanwhile. Only a missing cache entry or a control that moved takes the GPU again, to time the
// reference in full.
result<std::vector<reference_side>> gpu_evaluator::check_with_cache(timed_runs& t,
                                                                    const fs::path& reference) {
  // `cugrade bench` holds the GPU for its whole run; a grading has let it go by now.
  say(t.launcher +
      (m_exclusive.expired()
           ? ": checking the timed calls (the GPU is free for other gradings meanwhile)"
           : ": checking the timed calls"));
  const auto checking = std::chrono::steady_clock::now();
  check_timed_launcher(t.setup.problem, t.setup.request, t.setup.policy, t.runs.front());
  if (t.control) {
    check_control(*t.cache, *t.control);
  }
  add_part("checks", checking);
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
  auto lock = hold_exclusive();
  if (!lock) {
    return fail(lock.error());
  }
  const auto started = std::chrono::steady_clock::now();
  auto measured =
      measure_reference(*t.cache, t.launcher, reference, why, verdict ? &*verdict : nullptr);
  add_part("reference", started);
  return measured;
}

// Every timed kernel's first student round (one runner) and the controls (another), started
// while the GPU is shared (the lock held shared, as for correctness runs): each makes its CUDA
// context, the slow and machine-wide serialised part of a start, and waits at its gate with
// nothing of the submission loaded. The exclusive hold then covers what they run once let go. A
// runner not ready in time is cancelled; its rounds start in the hold.
result<gpu_evaluator::started_rounds>
gpu_evaluator::start_ahead(const std::vector<timed_runs>& ts, const fs::path& library,
                           const fs::path& reference) {
  constexpr double ready_limit_seconds = 120;
  started_rounds ahead;
  const auto asked = std::chrono::steady_clock::now();
  auto shared = hold_shared();
  if (!shared) {
    return fail(shared.error());
  }
  add_part("shared lock wait", asked); // behind the exclusive holds taken or asked for before
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
  const auto until =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(ready_limit_seconds));
  for (auto* started : {&ahead.students, &ahead.controls}) {
    if (*started && !(*started)->runner->wait_ready(seconds_until(until))) {
      started->reset(); // cancelled; its rounds start in the hold
    }
  }
  add_part("runner start-up", starting);
  return ahead;
}

// Lets a runner started ahead go, when there is one, and splits its run into each of its
// launchers' shares (launcher_shares); none when it was not started or was cancelled. The runner
// is used up either way.
result<std::vector<std::optional<launcher_run>>>
gpu_evaluator::let_go(std::optional<started_launcher>& started, std::string_view doing) {
  if (!started) {
    return std::vector<std::optional<launcher_run>>{};
  }
  say(joined(started->target.launchers(), ", ") + ": " + std::string(doing));
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
result<void> gpu_evaluator::run_student_rounds(std::vector<timed_runs>& ts, const fs::path& library,
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
  add_part("student runs", started);
  return {};
}

// The control of each kernel whose student round finished and whose reference time is cached:
// its share of the control runner started ahead, else a control runner of its own.
result<void> gpu_evaluator::run_controls(std::vector<timed_runs>& ts, const fs::path& reference,
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
  add_part("control", started);
  return {};
}

result<std::vector<gpu_evaluator::timed_runs>>
gpu_evaluator::run_timing(const std::vector<std::string>& launchers, const fs::path& library,
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
    auto lock = hold_exclusive();
    if (!lock) {
      return fail(lock.error());
    }
    for (auto& t : ts) {
      auto sides = compare_precise(t.setup, t.launcher, library, *ref, t.runs);
      if (!sides) {
        return fail(sides.error());
      }
      t.sides = std::move(*sides);
    }
    return ts;
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
  auto lock = hold_exclusive();
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

// The CPU half: the checks, the control's verdict (a full measurement of the reference where it
// moved), and one performance entry per benchmark case the student's runs reached.
result<std::vector<reports::performance_entry>> gpu_evaluator::finish_timing(timed_runs& t) {
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
    src.problem = m_spec.problem;
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
std::future<void> gpu_evaluator::prepare_checks_ahead() {
  return std::async(std::launch::async, [this, cases = setup().cases] {
    for (const auto& c : cases) {
      prepare_checks(problems::get(m_spec.problem), c, m_options.request.input_sets, m_policy);
    }
  });
}

result<std::vector<reports::performance_entry>>
gpu_evaluator::compare(const std::string& launcher, const fs::path& library,
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

result<void> gpu_evaluator::score_timing(reports::kernel_report& k,
                                         std::vector<reports::performance_entry> entries,
                                         const std::vector<launcher_run>& runs) {
  k.performance = std::move(entries);
  if (const auto* bad = failed_run(runs)) {
    const auto h = timing_failure_hint(*bad);
    say(k.name + ": timed calls failed their checks: " + h.message);
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
      say(k.name + ": performance " + k.performance_note);
      return {};
    }
  }
  score_performance(k, *m_spec.find_kernel(k.name), m_spec.performance);
  return {};
}

// Every kernel's runner processes under one exclusive hold, then every kernel's checks with the
// GPU let go (and the caller told: runs_ended). With several kernels the runs in the hold are a
// stage of their own (no kernel).
result<std::vector<reports::stage_timing>>
gpu_evaluator::time_all(const std::vector<reports::kernel_report*>& kernels,
                        const fs::path& library, const std::function<void()>& runs_ended) {
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
    stages.push_back({"timing", "", seconds_since(starting), take_parts()});
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
    stages.push_back({"timing", timed[i]->name, seconds_since(started), take_parts()});
  }
  return stages;
}

bool gpu_evaluator::checks(const reports::kernel_report& k) const {
  return m_options.sanitizer && m_spec.sanitizer.enabled && m_spec.find_kernel(k.name) != nullptr &&
         runnable(k.status);
}

// Kernels without performance points are timed only on request: a teaching kernel with global
// atomics can take seconds per round (`cugrade bench` covers them).
bool gpu_evaluator::times(const reports::kernel_report& k) const {
  const auto* kernel = m_spec.find_kernel(k.name);
  return kernel != nullptr && k.status == reports::kernel_status::passed && m_options.timing &&
         !m_spec.benchmarks.empty() &&
         (kernel->performance_points > 0 || m_options.time_unscored_kernels);
}

result<void> gpu_evaluator::sanitize(reports::kernel_report& k, const fs::path& student_library) {
  return checks(k) ? run_sanitizer_checks(k, student_library, m_spec.sanitizer.tools)
                   : result<void>{};
}

result<std::vector<reports::stage_timing>>
gpu_evaluator::sanitize_all(const std::vector<reports::kernel_report*>& kernels,
                            const fs::path& student_library) {
  std::vector<reports::kernel_report*> checked;
  std::copy_if(kernels.begin(), kernels.end(), std::back_inserter(checked),
               [this](const auto* k) { return checks(*k); });
  std::vector<reports::stage_timing> stages;
  std::vector<std::string> left = m_spec.sanitizer.tools; // what each kernel still needs
  if (checked.size() > 1) {
    const auto started = std::chrono::steady_clock::now();
    auto clean = sanitizer_pass(checked, student_library);
    stages.push_back({"sanitizer", "", seconds_since(started), {}});
    if (!clean) {
      return fail(clean.error());
    }
    std::erase_if(left, [&](const std::string& tool) {
      return std::find(clean->begin(), clean->end(), tool) != clean->end();
    });
    if (!left.empty()) {
      say(fmt::format("compute-sanitizer {} found something or did not finish over every kernel: "
                      "checking kernel by kernel",
                      fmt::join(left, ", ")));
    }
  }
  if (left.empty()) {
    return stages;
  }
  // Kernel by kernel, at once (each in its own runners, sharing the GPU as correctness runs do).
  std::vector<std::future<std::pair<result<void>, double>>> runs;
  for (auto* k : checked) {
    runs.push_back(std::async(std::launch::async, [this, k, &student_library, &left] {
      const auto started = std::chrono::steady_clock::now();
      auto r = run_sanitizer_checks(*k, student_library, left);
      return std::pair{std::move(r), seconds_since(started)};
    }));
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto [r, seconds] = runs[i].get();
    stages.push_back({"sanitizer", checked[i]->name, seconds, {}});
    if (!r) {
      return fail(r.error());
    }
  }
  return stages;
}

result<void> gpu_evaluator::evaluate(reports::kernel_report& k, const fs::path& student_library) {
  if (checks(k)) {
    const auto started = std::chrono::steady_clock::now();
    auto r = sanitize(k, student_library);
    m_stages.push_back({"sanitizer", k.name, seconds_since(started), take_parts()});
    if (!r) {
      return r;
    }
  }
  auto timed = time_all({&k}, student_library);
  if (!timed) {
    return fail(timed.error());
  }
  m_stages.insert(m_stages.end(), timed->begin(), timed->end());
  return {};
}

std::optional<fs::path> find_compute_sanitizer(const fs::path& nvcc) {
  return runners::find_cuda_tool(nvcc, "compute-sanitizer");
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
