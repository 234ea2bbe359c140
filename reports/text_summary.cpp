// The text summary: what a student reads in a terminal or an e-mail. Every string of the report
// may come from the student (a compiler quoting their source, a runner's stderr, a commit
// message, a branch name): each is shown through escape_untrusted_text, so the only control
// sequences in the result are the painter's own colours.
#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <regex>

#include "harness/core/untrusted_text.h"
#include "reports/debug_output.h"
#include "reports/indented_text.h"
#include "reports/number_text.h"
#include "reports/redact.h"
#include "reports/writers.h"

namespace cugrade::reports {
namespace {

// A string of the report as it may be shown.
std::string shown(std::string_view text) {
  return escape_untrusted_text(text);
}

class painter {
public:
  explicit painter(bool on) : m_on(on) {}
  [[nodiscard]] std::string paint(std::string_view text, std::string_view code) const {
    return m_on ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : std::string(text);
  }
  [[nodiscard]] std::string status(kernel_status s) const {
    const std::string word = fmt::format("{:<11}", to_string(s));
    switch (s) {
    case kernel_status::passed:
      return paint(word, "32");
    case kernel_status::missing:
    case kernel_status::timeout:
      return paint(word, "33");
    default:
      return paint(word, "31");
    }
  }

private:
  bool m_on;
};

// "deadline 2026-11-20T23:59:59Z: on time" or "...: 2 days late".
std::string deadline_line(const submission_info& s) {
  if (!s.deadline) {
    return "";
  }
  const std::string when = s.late_days == 0   ? "on time"
                           : s.late_days == 1 ? "1 day late"
                                              : fmt::format("{} days late", s.late_days);
  // Without a commit time (a plain directory) there is nothing to compare; a note says so.
  return s.commit_time ? fmt::format("  deadline: {}, {}\n", shown(*s.deadline), when)
                       : fmt::format("  deadline: {}\n", shown(*s.deadline));
}

std::string build_block(const build_info& b) {
  std::string out = fmt::format("  build: {} ({:.1f} s)", to_string(b.status), b.seconds);
  if (b.warnings > 0) {
    out += fmt::format(", {} compiler warning{} (notes, not failures)", b.warnings,
                       b.warnings == 1 ? "" : "s");
  }
  return out + "\n" + indented_untrusted(b.summary, "    ");
}

std::string header(const report& r) {
  const submission_info& s = r.submission;
  const environment_info& e = r.environment;
  std::string out = fmt::format("cugrade report: {}{}\n", shown(r.assignment_name),
                                s.student.empty() ? "" : " for " + shown(s.student));
  out += fmt::format("  submission: {}{}{}\n", shown(s.source),
                     s.commit ? " @ " + shown(*s.commit) : "",
                     s.commit_time ? " (committed " + shown(*s.commit_time) + ")" : "");
  out += deadline_line(s);
  for (const std::string& note : s.notes) {
    out += "  note: " + shown(note) + "\n";
  }
  out += fmt::format("  backend: {}, {} (driver {}, CUDA runtime {}), grader {}\n",
                     to_string(e.backend), e.device.empty() ? "unknown device" : shown(e.device),
                     e.driver.empty() ? "-" : shown(e.driver),
                     e.cuda_runtime.empty() ? "-" : shown(e.cuda_runtime), shown(e.grader_version));
  out += fmt::format("  sandbox: {}\n", shown(r.environment.sandbox));
  return out + build_block(r.build);
}

std::string inputs_of(const test_result& t) {
  if (t.shape.empty() && t.distribution.empty()) {
    return "";
  }
  return fmt::format(" [inputs: {}{}{}]", shown(t.shape), t.shape.empty() ? "" : ", ",
                     shown(t.distribution));
}

std::string test_line(const test_result& t) {
  std::string out = fmt::format("      {} {}", shown(t.name), to_string(t.status));
  if (!t.message.empty()) {
    out += ": " + shown(t.message);
  }
  if (t.message.empty() && t.mismatches && t.first_mismatch) { // else the message says it
    out += fmt::format(" ({} mismatches, first at index {}: expected {}, got {})", *t.mismatches,
                       t.first_mismatch->index, number_text(t.first_mismatch->expected),
                       number_text(t.first_mismatch->got));
  }
  return out + inputs_of(t) + "\n" + debug_output_block(t, "        ");
}

// Failing tests that differ only in their numbers (shape, values, counts) fail alike: their
// status and message with every number blanked.
std::string failure_key(const test_result& t) {
  static const std::regex number(R"([0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
  return std::string(to_string(t.status)) + "|" + std::string(to_string(t.vis)) + "|" +
         std::regex_replace(t.message, number, "#");
}

struct failure_group {
  const test_result* first = nullptr;
  std::vector<const test_result*> others;
};

// The failing (not passed, not run) tests in groups of alike ones, in order of first appearance.
std::vector<failure_group> failure_groups(const std::vector<test_result>& tests) {
  std::vector<failure_group> groups;
  std::map<std::string, std::size_t> index;
  for (const test_result& t : tests) {
    if (t.status == test_status::passed || t.status == test_status::not_run) {
      continue;
    }
    const auto [at, fresh] = index.try_emplace(failure_key(t), groups.size());
    if (fresh) {
      groups.push_back({&t, {}});
    } else {
      groups[at->second].others.push_back(&t);
    }
  }
  return groups;
}

// "        and 47 more cases like it: 1x1x1/real, ... (and 39 more)": 8 names, or as many as
// the listing's length (check --all names them all).
std::string alike_line(const failure_group& g, std::size_t listed_failures) {
  if (g.others.empty()) {
    return "";
  }
  const std::size_t named = std::max<std::size_t>(8, listed_failures);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < g.others.size() && i < named; ++i) {
    names.push_back(shown(g.others[i]->name));
  }
  return fmt::format("        and {} more case{} like it: {}{}\n", g.others.size(),
                     g.others.size() == 1 ? "" : "s", fmt::join(names, ", "),
                     g.others.size() > named
                         ? fmt::format(" (and {} more)", g.others.size() - named)
                         : std::string());
}

// "      cases passed: edge 34/64, rectangular 10/10, hidden 3/15": the rubric's groups.
std::string group_line(const kernel_report& k) {
  std::string out;
  for (const group_result& g : k.groups) {
    if (g.cases > 0) {
      out += fmt::format("{}{} {}/{}", out.empty() ? "" : ", ", shown(g.name), g.cases_passed,
                         g.cases);
    }
  }
  return out.empty() ? out : "      cases passed: " + out + "\n";
}

// Why the kernel is slow (docs/insight.md), each cause at its line, costliest first.
std::string insight_lines(const kernel_report& k, const painter& p) {
  if (!k.profile) {
    return "";
  }
  std::string out;
  for (const insight& i : k.insights) {
    out += fmt::format("      {} {}\n", p.paint("insight:", "1"), shown(i.message));
  }
  if (k.insights.empty()) {
    out += fmt::format("      insight: no memory behaviour that costs time was measured ({} on {})\n",
                       shown(k.profile->tool), shown(k.profile->shape));
  }
  if (!k.profile->note.empty()) {
    out += "      insight note: " + shown(k.profile->note) + "\n";
  }
  return out;
}

std::string kernel_block(const kernel_report& k, const painter& p, std::size_t listed_failures) {
  std::string out = fmt::format("  {:<24} {} {:>7.2f} / {:.2f}", shown(k.name), p.status(k.status),
                                k.score, k.max_score);
  if (k.error_kind) {
    out += fmt::format(" ({})", to_string(*k.error_kind));
  }
  out += "\n";
  const bool ran = k.status == kernel_status::failed || k.status == kernel_status::error ||
                   k.status == kernel_status::timeout;
  if (ran) {
    out += group_line(k);
  }
  if (!k.message.empty()) {
    out += "      " + shown(k.message) + "\n";
  }
  for (const std::string& s : k.forbidden_symbols) {
    out += "      forbidden symbol: " + shown(s) + "\n";
  }
  for (const hint& h : k.diagnosis) {
    if (h.message == k.message) {
      continue; // a kernel that never ran: its message is its one hint, already shown
    }
    out += fmt::format("      {} {}\n", p.paint(fmt::format("hint {}:", to_string(h.code)), "1"),
                       shown(h.message));
  }
  const auto groups = failure_groups(k.tests);
  std::size_t unlisted = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (i < listed_failures) {
      out += test_line(*groups[i].first) + alike_line(groups[i], listed_failures);
    } else {
      unlisted += 1 + groups[i].others.size();
    }
  }
  if (unlisted > 0) {
    out += fmt::format("      ... and {} more failing tests (cugrade check --all lists them)\n",
                       unlisted);
  }
  const auto not_run = static_cast<std::size_t>(
      std::count_if(k.tests.begin(), k.tests.end(),
                    [](const test_result& t) { return t.status == test_status::not_run; }));
  if (not_run > 0 && !k.tests.empty() && not_run < k.tests.size()) {
    out +=
        fmt::format("      {} more tests not run: an earlier case stopped this kernel\n", not_run);
  }
  if (k.speedup_geomean) {
    out += fmt::format("      speedup {:.2f}x over the reference (geometric mean), "
                       "performance {:.2f} / {:.2f}\n",
                       *k.speedup_geomean, k.performance_score, k.performance_max);
  }
  if (!k.performance_note.empty()) {
    out += fmt::format(
        "      performance: {}{}\n", shown(k.performance_note),
        k.performance_max > 0
            ? fmt::format(" ({:.2f} points counted in the maximum, not earned)", k.performance_max)
            : std::string());
  }
  out += insight_lines(k, p);
  return out;
}

// Where the grading's time went, stage by stage (the JSON report's "stages").
std::string stage_table(const report& r) {
  if (r.stages.empty()) {
    return "";
  }
  std::string out = fmt::format("time: {:.1f} s in all\n", r.elapsed_seconds);
  for (const stage_timing& s : r.stages) {
    out += fmt::format("  {:<12} {:>7.2f} s  {}\n", shown(s.stage), s.seconds, shown(s.kernel));
    if (!s.parts.empty()) {
      std::vector<std::string> parts;
      for (const stage_part& p : s.parts) {
        parts.push_back(fmt::format("{} {:.2f} s", shown(p.name), p.seconds));
      }
      out += fmt::format("      {}\n", fmt::join(parts, ", "));
    }
  }
  return out;
}

std::string footer(const report& r, const painter& p) {
  if (!r.gradable || !r.score) {
    return p.paint("NOT GRADABLE", "1;31") + ": " + shown(r.infrastructure_error) +
           "\nNo score was given: this is a problem with the grading machine, not with the "
           "submission, and it will be graded again.\n";
  }
  std::string out =
      fmt::format("{} {:.2f} / {:.2f}", p.paint("score:", "1"), *r.score, r.max_score);
  if (r.late_penalty > 0) {
    out += r.late_penalty_explanation.empty()
               ? fmt::format(" (late penalty {:.2f} deducted)", r.late_penalty)
               : " (late: " + shown(r.late_penalty_explanation) + ")";
  }
  return out + "\n";
}

} // namespace

std::string render_text(const redacted_report& r, bool colour) {
  return render_text(r, colour, default_listed_failures);
}

std::string render_text(const redacted_report& redacted, bool colour, std::size_t listed_failures) {
  const report& r = redacted.get();
  const painter p(colour);
  std::string out = header(r) + "\n";
  for (const kernel_report& k : r.kernels) {
    out += kernel_block(k, p, listed_failures);
  }
  return out + "\n" + footer(r, p) + stage_table(r);
}

} // namespace cugrade::reports
