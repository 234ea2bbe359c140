#pragma once
/// \file
/// Assignment specs: what one assignment grades, read from `assignments/<name>/assignment.json`.
///
/// A spec is data, not code: which problem it grades, the file students hand in, the kernels and
/// their points, the groups of correctness cases, the benchmark cases, the performance curve, the
/// limits and the late policy. `load_assignment` validates every field and returns an error whose
/// every line names the file, the JSON path of the field, what is wrong and how to fix it.
/// The format is documented field by field in docs/assignments.md.

#include "harness/core/result.h"
#include "harness/problems/problem.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::spec {

/// The `schema` value this loader reads.
inline constexpr std::string_view schema_id = "cugrade.assignment/1";

/// When students see a test group's results; the words are Gradescope's.
enum class visibility { visible, hidden, after_due_date, after_published };

[[nodiscard]] std::string_view to_string(visibility v);
[[nodiscard]] std::optional<visibility> visibility_from_string(std::string_view word);
/// All visibility words, in declaration order.
[[nodiscard]] std::vector<std::string> visibility_words();

/// One graded kernel: a launcher of the problem and what it is worth.
struct kernel_spec {
  std::string name;              ///< a launcher of the problem, e.g. "matmul_tiled"
  double points = 0;             ///< earned by correctness, in proportion to passed group weight
  double performance_points = 0; ///< earned by speed, along the assignment's performance curve
};

/// A set of cases that passes only when all its cases pass.
struct test_group {
  std::string name;
  visibility vis = visibility::visible;
  double weight = 1;
  std::vector<problems::case_template> cases; ///< shapes crossed with distributions
  /// Graded only on a GPU: emulation leaves the group out, and its share of each kernel's points
  /// with it (docs/assignments.md, "Shapes emulation cannot finish").
  bool gpu_only = false;
};

/// Which commit a deadline grades (docs/git.md, "Deadlines: one rule, three modes").
enum class deadline_mode {
  last_on_time,        ///< the newest commit at or before the deadline and its grace
  latest_with_penalty, ///< the newest commit, with the late policy applied
  best_of,             ///< both, keeping the higher score after the penalty
};

/// How many times each correctness case runs (in emulation with different thread orders).
inline constexpr int runs_per_case = 2;

/// The late penalty: a fraction of the score per late day, capped.
struct late_policy {
  double penalty_per_day = 0; ///< in [0, 1]
  double max_penalty = 0;     ///< in [0, 1]
  int grace_minutes = 0;      ///< lateness within this many minutes is not late
  deadline_mode mode = deadline_mode::last_on_time;
};

/// The spec's word for a mode: "last_on_time", "latest_with_penalty", "best_of".
[[nodiscard]] const char* to_string(deadline_mode mode) noexcept;

/// "1 day late x 10% a day = -4.00 (policy: 10% a day, at most 50%, 15 min grace)": how a
/// penalty of `points` came from `late_days` under `policy`; empty when nothing was deducted.
[[nodiscard]] std::string explain_late_penalty(const late_policy& policy, int late_days,
                                               double points);

/// Wall-clock limits, in seconds, and bounds on what a grading reads and fetches of a submission
/// (docs/sandbox.md, "What the grader itself reads").
struct limits {
  double compile_seconds = 120;
  double kernel_seconds = 60; ///< per kernel, for all its correctness cases together
  std::uint64_t source_bytes = std::uint64_t{1} << 20;       ///< the contract's source file
  std::uint64_t submission_bytes = std::uint64_t{64} << 20;  ///< every file copied in, together
  std::uint64_t repository_bytes = std::uint64_t{256} << 20; ///< what a clone may download
  double fetch_seconds = 300; ///< a clone or fetch of a git source, checkout included
};

/// Speedup over the reference (reference time / student time) mapped to performance points:
/// all points at or above `full_speedup`, none at or below `zero_speedup`, linear between.
struct performance_curve {
  double full_speedup = 1.0;
  double zero_speedup = 0.5;
  /// `"in_emulation": "counted"`: in emulation, where speed is never measured, performance points
  /// stay in every maximum (unearned), so a gradebook has one denominator across backends. The
  /// default, "excluded", leaves them out of every maximum in emulation.
  bool counted_in_emulation = false;
};

/// compute-sanitizer checks of each kernel on the GPU (docs/timing.md, "Sanitizer checks"): a
/// parsed spec has them on unless it says "sanitizer": {"enabled": false}; a policy built in code
/// starts off.
struct sanitizer_policy {
  bool enabled = false;
  std::vector<problems::shape> shapes; ///< small shapes, each run once with the first distribution
  std::vector<std::string> tools;      ///< memcheck, racecheck, synccheck
};

/// The sanitizer tools a spec may name, in the order they run.
[[nodiscard]] const std::vector<std::string>& sanitizer_tools();

/// A validated assignment spec.
struct assignment_spec {
  std::string name;
  std::string title;
  problems::kind problem;              ///< no default (problems::kind): set by whoever makes one
  std::string source_file;             ///< e.g. "matmul.cu", at the submission's root
  std::filesystem::path reference_dir; ///< absolute; holds `source_file`
  std::vector<kernel_spec> kernels;    ///< one per launcher of the problem, in the spec's order
  std::uint64_t seed = 0;              ///< base seed of every correctness case
  std::vector<test_group> groups;
  std::vector<problems::case_template> benchmarks;
  performance_curve performance;
  std::string tolerance_policy; ///< "fp32-any-order"
  limits lim;
  late_policy late;
  sanitizer_policy sanitizer;
  /// Profile each timed kernel for insights (docs/insight.md): on unless "insight": false.
  bool insight = true;
  std::optional<std::string> deadline; ///< normalised to UTC, "YYYY-MM-DDTHH:MM:SSZ"
  std::filesystem::path spec_path;     ///< absolute path of the spec file
  std::string spec_sha256;             ///< SHA-256 of the spec file's bytes, lowercase hex
  /// What the instructor should still change in a spec that loads: shapes whose estimated time
  /// in emulation exceeds the kernel limit (emulation_cost.h). Grading goes on regardless.
  std::vector<std::string> warnings;

  /// Sum of every kernel's points and performance points.
  [[nodiscard]] double max_score() const;
  /// Sum of every group's weight (> 0 in a validated spec).
  [[nodiscard]] double total_weight() const;
  /// The kernel called `name`, or nullptr.
  [[nodiscard]] const kernel_spec* find_kernel(std::string_view name) const;
};

/// Where a grading's hidden test groups come from (docs/assignments.md, "Hidden tests").
enum class hidden_tests {
  beside_spec, ///< `hidden.json` in the spec's folder when there is one (grade, batch)
  from_file,   ///< the file `load_options::hidden_file` (`--hidden FILE`); it must exist
  none         ///< never read: `check`, the students' own runs
};

/// The file holding an assignment's hidden groups, beside its assignment.json.
inline constexpr std::string_view hidden_file_name = "hidden.json";
/// The `schema` value of a hidden-groups file.
inline constexpr std::string_view hidden_schema_id = "cugrade.hidden/1";

/// What to read besides the spec itself.
struct load_options {
  hidden_tests hidden = hidden_tests::beside_spec;
  std::filesystem::path hidden_file; ///< for hidden_tests::from_file
  /// The spec's `reference` folder must hold the reference solution. `check` never reads it
  /// (correctness is judged against CPU references), and a student's installation has none.
  bool require_reference = true;
};

/// Loads and validates a spec. `name_or_path` is an assignment name ("matmul", looked up as
/// `<project_root>/assignments/matmul/assignment.json`), a directory holding `assignment.json`, or
/// a path to a `.json` file; relative paths are taken from the current directory. On failure the
/// message holds one line per problem found.
[[nodiscard]] result<assignment_spec> load_assignment(std::string_view name_or_path,
                                                      const std::filesystem::path& project_root);

/// load_assignment, then the hidden groups `options` asks for merged in (merge_hidden_groups).
[[nodiscard]] result<assignment_spec> load_assignment(std::string_view name_or_path,
                                                      const std::filesystem::path& project_root,
                                                      const load_options& options);

/// Adds the groups of the instructor's hidden file (schema "cugrade.hidden/1": `assignment`, the
/// spec's name, and `groups`, as in a spec's tests.groups but none of them `visible`) to `spec`.
/// Group names and cases must be new to the spec. The spec's SHA-256 becomes that of its own
/// digest followed by the hidden file's, so a report names both files it was graded with.
[[nodiscard]] result<void> merge_hidden_groups(assignment_spec& spec,
                                               const std::filesystem::path& hidden_file);

/// The same checks on a spec held in memory, as if read from `spec_path` (which names the file in
/// messages, relative to `project_root` when it lies under it).
[[nodiscard]] result<assignment_spec> parse_assignment(std::string_view text,
                                                       const std::filesystem::path& spec_path,
                                                       const std::filesystem::path& project_root,
                                                       bool require_reference = true);

/// Names of the assignments under `<project_root>/assignments` (folders holding an
/// assignment.json), sorted.
[[nodiscard]] std::vector<std::string> known_assignments(const std::filesystem::path& project_root);

/// The fraction of the score taken away for `late_days` days late: min(max_penalty, days *
/// penalty_per_day); 0 for zero or negative days.
[[nodiscard]] double late_penalty_fraction(const late_policy& policy, int late_days);

/// The fraction of a kernel's performance points earned at `speedup` (reference time / student
/// time): 1 at or above full_speedup, 0 at or below zero_speedup, linear between.
[[nodiscard]] double performance_fraction(const performance_curve& curve, double speedup);

} // namespace cugrade::spec
