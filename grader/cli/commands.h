#pragma once
/// \file
/// The `cugrade` subcommands, defined in one table: each entry names the command, says what it
/// does (this is what --help prints), adds its options and runs it.

#include "grader/core/grade.h"
#include "reports/writers.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::cli {

/// Exit codes shared by the commands.
inline constexpr int exit_ok = 0;
inline constexpr int exit_failed_checks = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_infrastructure = 3;

struct command {
  std::string name;
  std::string summary;
  /// Adds the command's options to `sub` and returns the function that runs it.
  std::function<std::function<int()>(CLI::App& sub)> define;
};

/// Every subcommand, in the order --help lists them.
[[nodiscard]] const std::vector<command>& command_table();

command grade_command();
command check_command();
command bench_command();
command doctor_command();
command batch_command();
command leaderboard_command();
command package_command();
command kinds_command();

/// What grade_and_print did: the command's exit code and, when grading ran, its outcome.
struct printed_grading {
  int exit_code = exit_ok;
  std::optional<grader::grade_outcome> outcome;
};

/// Grades, prints the text summary (listing up to `listed_failures` failing tests per kernel)
/// and the files written; an ungradable report is announced with `not_gradable_words` (e.g. "not
/// gradable").
printed_grading grade_and_print(const grader::grade_options& options,
                                std::string_view not_gradable_words,
                                std::size_t listed_failures = reports::default_listed_failures);

/// Help for an `assignment` argument: the assignments this cugrade finds under its data root's
/// assignments/ (none listed when the layout cannot be found), or a path to an assignment.json.
[[nodiscard]] std::string assignment_argument_help();

/// Adds --no-sandbox, which runs student code unconfined (grader/sandbox's mode).
void add_no_sandbox_flag(CLI::App& sub);

/// Adds --hidden FILE: the instructor's hidden groups from FILE instead of the hidden.json beside
/// the spec (docs/assignments.md, "Hidden tests").
void add_hidden_option(CLI::App& sub, spec::load_options& loading);

/// Text from a submission, a compiler, a runner or a git server, as a command prints it: through
/// escape_untrusted_text (harness/core/untrusted_text.h), so no control sequence reaches the
/// terminal.
[[nodiscard]] std::string shown(std::string_view text);

/// The progress callback of grade, check and bench: each message on stderr after "cugrade: ",
/// shown (a remote repository's progress lines come from its server). After 10 s with no new
/// message, and every 10 s after that, it says what it is still waiting for ("still waiting
/// after 10 s for: reduce_convergent: running 40 cases ...").
[[nodiscard]] std::function<void(std::string_view)> progress_on_stderr();

/// True when stdout is a terminal and NO_COLOR is unset.
[[nodiscard]] bool use_colour();

} // namespace cugrade::cli
