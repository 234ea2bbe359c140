#pragma once
/// \file
/// The report model: everything one grading of one submission produced, in the words of the
/// submission contract (docs/reports.md). Plain data; the writers turn it into JSON, Gradescope's
/// results.json, JUnit XML and a text summary. Depends on nothing but the standard library, so
/// every part of cugrade (and outside tools) can read and write reports.

#include "harness/core/enum_names.h"
#include "harness/core/fault_kind.h"
#include "reports/hint_code.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cugrade::reports {

/// The schema identifier written into every report; the number after the slash is the major
/// version (docs/reports.md, "Schema versions").
inline constexpr std::string_view schema_id = "cugrade.report/1";

/// Per-kernel outcome (the contract's table).
enum class kernel_status { passed, failed, error, timeout, missing, build_error, forbidden };
/// Outcome of one correctness case.
enum class test_status { passed, failed, error, timeout, not_run };
/// Who may see a test's details, in Gradescope's words. Only `hidden` tests lose their details in
/// every written format (see redact.h).
enum class visibility { visible, hidden, after_due_date, after_published };
/// Where kernels ran: a real GPU or the CPU emulator.
enum class backend_kind { gpu, emu };
/// Whether the submission was built.
enum class build_status { ok, error, skipped };

} // namespace cugrade::reports

// The reports' name tables (harness/core/enum_names.h): specialised where the template lives.
namespace cugrade {

template <> struct enum_traits<reports::kernel_status> {
  static constexpr std::array<std::string_view, 7> names{
      "passed", "failed", "error", "timeout", "missing", "build_error", "forbidden"};
};
template <> struct enum_traits<reports::test_status> {
  static constexpr std::array<std::string_view, 5> names{"passed", "failed", "error", "timeout",
                                                         "not_run"};
};
template <> struct enum_traits<reports::visibility> {
  static constexpr std::array<std::string_view, 4> names{"visible", "hidden", "after_due_date",
                                                         "after_published"};
};
template <> struct enum_traits<reports::backend_kind> {
  static constexpr std::array<std::string_view, 2> names{"gpu", "emu"};
};
template <> struct enum_traits<reports::build_status> {
  static constexpr std::array<std::string_view, 3> names{"ok", "error", "skipped"};
};

} // namespace cugrade

namespace cugrade::reports {

// The runtime fault and the name helpers are reports' words too: `reports::fault_kind`,
// `reports::to_string(status)`.
using cugrade::fault_kind;
using cugrade::fault_kind_named;
using cugrade::from_string;
using cugrade::is_memory_fault;
using cugrade::names_of;
using cugrade::to_string;

/// The first output element that differed from the reference.
struct mismatch_info {
  std::size_t index = 0;
  double expected = 0;
  double got = 0; ///< may be NaN or infinite: written as "NaN", "Infinity", "-Infinity"

  bool operator==(const mismatch_info&) const = default;
};

/// One correctness case of one kernel.
struct test_result {
  std::string name;  ///< e.g. "17x33x9/real"; hidden tests are renamed when written
  std::string group; ///< the rubric group it counts towards
  visibility vis = visibility::visible;
  test_status status = test_status::not_run;
  std::string shape;        ///< e.g. "17x33x9" or "n=1000"
  std::string distribution; ///< input distribution name
  std::optional<double> max_abs_error;
  std::optional<double> max_rel_error;
  std::optional<std::size_t> mismatches;
  std::optional<mismatch_info> first_mismatch;
  std::string message; ///< what went wrong, for the student
  /// The student's debug output during the case (stdout and stderr, as written): its first
  /// bytes, up to 4 KiB per case and 64 KiB per kernel. Never for a hidden case.
  std::string output;
  std::size_t output_bytes = 0; ///< everything the case wrote; more than output's size when cut

  bool operator==(const test_result&) const = default;
};

/// A rubric group: its points are awarded when its cases pass (the rubric decides how).
struct group_result {
  std::string name;
  visibility vis = visibility::visible;
  bool passed = false;
  double score = 0;
  double max_score = 0;
  std::size_t cases = 0;
  std::size_t cases_passed = 0;

  bool operator==(const group_result&) const = default;
};

/// One diagnosis: what the grader thinks the mistake is. A kernel's hints are ranked: the first
/// is the most specific one the evidence supports (docs/hints.md).
struct hint {
  hint() = default;
  hint(hint_code c, std::string text, std::string where = {}, std::vector<std::string> why = {})
      : code(c), message(std::move(text)), location(std::move(where)), evidence(std::move(why)) {}

  hint_code code = hint_code::wrong_result;
  std::string message;
  std::string location;              ///< the student's source line, e.g. "matmul.cu:30", or ""
  std::vector<std::string> evidence; ///< the observations that support it, for TAs

  bool operator==(const hint&) const = default;
};

/// One measured number of a kernel's memory behaviour, on one profiled shape (docs/insight.md).
struct insight_metric {
  std::string name; ///< e.g. "global_load_sectors_per_request"
  double value = 0;
  std::optional<double> ideal; ///< what the lecture's technique achieves, where it is a number

  bool operator==(const insight_metric&) const = default;
};

/// Why a kernel is slow, in the lectures' terms, at the line that costs it. Never costs points.
struct insight {
  std::string kind; ///< uncoalesced_access, bank_conflicts, excess_traffic, global_atomics,
                    ///< idle_lanes, low_occupancy
  std::string message;
  std::string location; ///< the student's source line, e.g. "matmul.cu:41", or ""
  /// The share of the kernel's modelled memory time this cause wastes (0 to 1): what ranks it.
  double cost_share = 0;

  bool operator==(const insight&) const = default;
};

/// Where a kernel's insights come from: the tool, the shape it profiled and what it measured.
struct kernel_profile {
  backend_kind backend = backend_kind::emu;
  std::string tool;  ///< "cugrade emulator (warp profiler)", "ncu 2025.3.1"
  std::string shape; ///< the profiled shape, e.g. "M=128 N=128 K=128"
  std::vector<insight_metric> metrics;
  std::string note; ///< what could not be measured, and why
  /// The tool's own names of what it read (Nsight Compute's metrics on the GPU); empty for the
  /// emulator, whose counts are the metrics themselves.
  std::vector<std::string> counters;

  bool operator==(const kernel_profile&) const = default;
};

/// Timing of one benchmark case (milliseconds of device time per call).
struct performance_entry {
  std::string shape;
  std::string distribution;
  double median_ms = 0;
  double mean_ms = 0;
  double rel_stddev = 0; ///< standard deviation over mean
  std::size_t samples = 0;
  double min_ms = 0;
  double max_ms = 0;
  std::optional<double> reference_ms; ///< the reference solution's median on the same device
  std::optional<double> speedup;      ///< reference_ms / median_ms
  std::optional<double> speedup_ci_low, speedup_ci_high;
  std::optional<double> gflops, gbps, roof_percent;
  std::optional<double> library_ms; ///< a vendor library (e.g. cuBLAS) on the same case
  std::string library_name;
  std::optional<double> sm_clock_mhz;
  bool suspicious = false; ///< the measurement looks unreliable (noise, clock changes)
  /// The samples' relative standard deviation stayed above the noise limit after the retries
  /// (another program on the GPU, a throttling machine): no speedup, no points, no leaderboard
  /// metric, and the kernel's performance counts as not measured, never as slow.
  bool noisy = false;
  /// Where the reference's time came from: "cache" (timed earlier on this GPU, confirmed by a
  /// control measurement), "measured" (timed now: first grading on this GPU, or the control
  /// moved), "abba" (--precise: A B B A rounds beside the student's), or empty (no reference).
  std::string reference_source;
  /// The control measurement's median over the cached reference median (cache only).
  std::optional<double> control_ratio;
  std::string note;

  bool operator==(const performance_entry&) const = default;
};

/// Everything about one kernel variant (one launcher).
struct kernel_report {
  std::string name; ///< the launcher, e.g. "matmul_tiled"
  kernel_status status = kernel_status::passed;
  std::optional<fault_kind> error_kind; ///< for `error`: e.g. out_of_bounds, deadlock
  std::string message;
  double score = 0; ///< correctness plus performance points
  double max_score = 0;
  double performance_score = 0; ///< the part of `score` earned by speed
  double performance_max = 0;
  std::vector<test_result> tests;
  std::vector<group_result> groups;
  std::vector<hint> diagnosis;
  std::vector<std::string> forbidden_symbols;
  std::vector<performance_entry> performance;
  std::optional<double> speedup_geomean;
  /// Why there is no performance result, e.g. "not measured in emulation (needs a GPU)"; empty
  /// when performance was measured or the rubric gives it no points.
  std::string performance_note;
  /// Why it is slow (docs/insight.md): causes ranked by what they cost, from `profile`.
  std::vector<insight> insights;
  std::optional<kernel_profile> profile;

  bool operator==(const kernel_report&) const = default;
};

struct submission_info {
  std::string source; ///< a local path made absolute, or the URL as given
  std::optional<std::string> commit;
  std::optional<std::string> commit_time; ///< ISO 8601 with offset
  std::optional<std::string> deadline;    ///< ISO 8601 with offset
  int late_days = 0;
  std::string student;
  /// What the fetch says about the graded state: the commit chosen, newer commits ignored (how
  /// many, the newest's time), uncommitted or untracked changes left out.
  std::vector<std::string> notes;

  bool operator==(const submission_info&) const = default;
};

struct environment_info {
  backend_kind backend = backend_kind::emu;
  std::string device; ///< e.g. "NVIDIA H100 80GB HBM3" or "cpu emulator"
  std::string driver;
  std::string cuda_runtime;
  std::string grader_version;
  std::string host;
  /// What confined student code: "bubblewrap 0.8.0", or "none" (--no-sandbox).
  std::string sandbox = "none";

  bool operator==(const environment_info&) const = default;
};

struct build_info {
  build_status status = build_status::skipped;
  std::string log;
  double seconds = 0;
  /// What a student reads first: the compiler's first errors (or, for a build that succeeded,
  /// its warnings), at the student's file and line, each with the source line it points at.
  std::string summary;
  std::size_t warnings = 0; ///< warnings in the student's file (notes, never failures)

  bool operator==(const build_info&) const = default;
};

/// A named share of a stage's time, e.g. the timing stage's "lock wait" or "checks".
struct stage_part {
  std::string name;
  double seconds = 0;

  bool operator==(const stage_part&) const = default;
};

/// How long one stage of a grading took (the profile of where time goes).
struct stage_timing {
  std::string stage;  ///< probe, fetch, build, correctness, sanitizer, timing
  std::string kernel; ///< the launcher, for per-kernel stages; empty otherwise
  double seconds = 0;
  /// Where the stage's time went, when it says (timing: shared lock wait, runner start-up, lock
  /// wait, student runs, control, checks, reference); the parts need not add up to `seconds`.
  std::vector<stage_part> parts;

  bool operator==(const stage_timing&) const = default;
};

/// One grading of one submission.
struct report {
  std::string schema{schema_id};
  std::string assignment_name;
  std::string spec_sha256; ///< of the assignment spec's bytes; empty if it never loaded
  submission_info submission;
  environment_info environment;
  build_info build;
  std::vector<kernel_report> kernels;
  /// Final points (late penalty already deducted); nullopt exactly when !gradable.
  std::optional<double> score;
  double max_score = 0;
  double late_penalty = 0; ///< points deducted for lateness
  /// How `late_penalty` was reached, e.g. "1 day late x 10% a day = -4.00 (policy: 10% a day, at
  /// most 50%, 15 min grace)"; empty when nothing was deducted.
  std::string late_penalty_explanation;
  /// False when infrastructure failed (no GPU, broken toolchain): then no score, and
  /// `infrastructure_error` says why. Never a zero for the student.
  bool gradable = true;
  std::string infrastructure_error;
  std::uint64_t seed = 0;
  double elapsed_seconds = 0;       ///< wall time of the whole grading
  std::vector<stage_timing> stages; ///< in the order they ran
  std::string created_at;           ///< ISO 8601 UTC, e.g. "2025-03-01T12:00:00Z"

  bool operator==(const report&) const = default;
};

/// The current time as "YYYY-MM-DDTHH:MM:SSZ".
[[nodiscard]] std::string now_iso8601_utc();

/// Marks `r` not gradable: drops the score and records why.
void mark_ungradable(report& r, std::string reason);

} // namespace cugrade::reports
