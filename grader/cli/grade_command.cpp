#include "grader/cli/commands.h"

#include "grader/core/grade.h"
#include "reports/writers.h"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace cugrade::cli {

namespace {

struct grade_args {
  grader::grade_options options;
  std::string formats = "json,gradescope,junit,text";
  std::uint64_t seed = 0;
  double kernel_timeout = 0;
  std::string commit;
  std::string deadline;
};

std::vector<std::string> split_formats(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto word = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (!word.empty()) {
      out.push_back(word);
    }
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

int run_grade(grade_args& a, const CLI::App& sub) {
  a.options.formats = split_formats(a.formats);
  for (const auto& f : a.options.formats) {
    if (!reports::is_known_format(f)) {
      std::cerr << "cugrade grade: unknown --format \"" << f
                << "\" (choose from json, gradescope, junit, text)\n";
      return exit_usage;
    }
  }
  if (sub.count("--seed") > 0) {
    a.options.seed = a.seed;
  }
  if (sub.count("--kernel-timeout") > 0) {
    a.options.kernel_timeout_seconds = a.kernel_timeout;
  }
  if (!a.commit.empty()) {
    a.options.commit = a.commit;
  }
  if (!a.deadline.empty()) {
    a.options.deadline = a.deadline;
  }
  a.options.progress = progress_on_stderr();
  return grade_and_print(a.options, "not gradable").exit_code;
}

} // namespace

printed_grading grade_and_print(const grader::grade_options& options,
                                std::string_view not_gradable_words, std::size_t listed_failures) {
  const auto layout = grader::discover_layout();
  if (!layout) {
    std::cerr << "cugrade: " << layout.error() << "\n";
    return {exit_infrastructure, std::nullopt};
  }
  auto out = grader::grade(options, *layout);
  if (out.exit == grader::grade_exit::usage_error) {
    std::cerr << "cugrade: " << shown(out.error) << "\n";
    return {exit_usage, std::move(out)};
  }
  if (out.report) {
    std::cout << reports::render_text(reports::redact(*out.report), use_colour(), listed_failures);
  }
  for (const auto& path : out.written) {
    std::cerr << "cugrade: wrote " << shown(path.string()) << "\n";
  }
  for (const auto& notice : out.notices) {
    std::cerr << "cugrade: " << shown(notice) << "\n";
  }
  if (out.exit == grader::grade_exit::infrastructure) {
    std::cerr << "cugrade: " << not_gradable_words << ": " << shown(out.error) << "\n";
    return {exit_infrastructure, std::move(out)};
  }
  return {exit_ok, std::move(out)};
}

bool use_colour() {
  const char* no_colour = std::getenv("NO_COLOR");
  return ::isatty(STDOUT_FILENO) != 0 && (no_colour == nullptr || *no_colour == '\0');
}

command grade_command() {
  return {
      "grade",
      "Grade one submission (a directory, a local git repository or a git URL) and "
      "write its report",
      [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<grade_args>();
        sub.add_option("assignment", a->options.assignment, assignment_argument_help())->required();
        sub.add_option("submission", a->options.submission,
                       "A directory, a local git repository, or a git URL (file://, "
                       "https://, ssh)")
            ->required();
        sub.add_option("--backend", a->options.backend,
                       "Where kernels run: auto (the GPU when one is usable, else emulation), "
                       "gpu or emu")
            ->check(CLI::IsMember({"auto", "gpu", "emu"}))
            ->capture_default_str();
        sub.add_option("--out", a->options.out_dir,
                       "Folder for the reports (default: ./reports/<assignment>/)");
        sub.add_option("--format", a->formats,
                       "Comma-separated report formats: json, gradescope, junit, text")
            ->capture_default_str();
        sub.add_option("--commit", a->commit,
                       "Grade this commit: a hash (or a prefix only one commit has), or a "
                       "ref spelled from refs/ (refs/heads/main, refs/tags/v1)");
        sub.add_option("--deadline", a->deadline,
                       "ISO-8601 deadline: grade the last commit at or before it, and count "
                       "late days from it (overrides the spec's deadline)");
        sub.add_option("--seed", a->seed, "Seed of the test inputs (default: the spec's)");
        sub.add_option("--student", a->options.student,
                       "Student id used in the report and its file names (default: the last "
                       "two parts of the submission's path or URL, e.g. alice-hw)");
        sub.add_flag("--force", a->options.force,
                     "Replace an existing report of a different submission under the same "
                     "id (without it, cugrade refuses and names both)");
        sub.add_option("--kernel-timeout", a->kernel_timeout,
                       "Seconds each kernel's runner may take (default: the spec's limit)");
        sub.add_option("--kernel", a->options.kernels, "Grade only this launcher (repeatable)");
        sub.add_flag("--precise", a->options.precise,
                     "GPU: time against the reference in A B B A rounds (slower; for "
                     "disputes) instead of against its cached time and a control");
        sub.add_flag("--perf", a->options.insight,
                     "Also say why each kernel that passes is slow (the report's insights, "
                     "docs/insight.md): in emulation from the warp profiler's counts, on the GPU "
                     "from Nsight Compute's counters (there every timed kernel gets them without "
                     "--perf, unless the spec says \"insight\": false)");
        add_hidden_option(sub, a->options.spec_loading);
        add_no_sandbox_flag(sub);
        return [a, &sub] { return run_grade(*a, sub); };
      }};
}

} // namespace cugrade::cli
