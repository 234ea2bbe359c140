// The text summary: what a student reads in a terminal or an e-mail.
#include <fmt/format.h>

#include "reports/redact.h"
#include "reports/writers.h"

namespace cugrade::reports {
namespace {

// Failing tests listed per kernel before "... and N more".
constexpr std::size_t listed_failures = 3;

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

std::string header(const report& r) {
  const submission_info& s = r.submission;
  const environment_info& e = r.environment;
  std::string out = fmt::format("cugrade report: {}{}\n", r.assignment_name,
                                s.student.empty() ? "" : " for " + s.student);
  out += fmt::format("  submission: {}{}{}\n", s.source, s.commit ? " @ " + *s.commit : "",
                     s.late_days > 0 ? fmt::format(" ({} day(s) late)", s.late_days) : "");
  out += fmt::format("  backend: {}, {} (driver {}, CUDA runtime {}), grader {}\n",
                     to_string(e.backend), e.device.empty() ? "unknown device" : e.device,
                     e.driver.empty() ? "-" : e.driver,
                     e.cuda_runtime.empty() ? "-" : e.cuda_runtime, e.grader_version);
  out += fmt::format("  build: {} ({:.1f} s)\n", to_string(r.build.status), r.build.seconds);
  return out;
}

std::string test_line(const test_result& t) {
  std::string out = fmt::format("      {} {}", t.name, to_string(t.status));
  if (!t.message.empty()) {
    out += ": " + t.message;
  }
  if (t.mismatches && t.first_mismatch) {
    out +=
        fmt::format(" ({} mismatches, first at index {}: expected {:g}, got {:g})", *t.mismatches,
                    t.first_mismatch->index, t.first_mismatch->expected, t.first_mismatch->got);
  }
  return out + "\n";
}

// "      cases passed: edge 34/64, rectangular 10/10, hidden 3/15": the rubric's groups.
std::string group_line(const kernel_report& k) {
  std::string out;
  for (const group_result& g : k.groups) {
    if (g.cases > 0) {
      out += fmt::format("{}{} {}/{}", out.empty() ? "" : ", ", g.name, g.cases_passed, g.cases);
    }
  }
  return out.empty() ? out : "      cases passed: " + out + "\n";
}

std::string kernel_block(const kernel_report& k, const painter& p) {
  std::string out = fmt::format("  {:<24} {} {:>7.2f} / {:.2f}", k.name, p.status(k.status),
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
    out += "      " + k.message + "\n";
  }
  for (const std::string& s : k.forbidden_symbols) {
    out += "      forbidden symbol: " + s + "\n";
  }
  for (const hint& h : k.diagnosis) {
    out += fmt::format("      {} {}\n", p.paint(fmt::format("hint {}:", to_string(h.code)), "1"),
                       h.message);
  }
  std::size_t failing = 0;
  for (const test_result& t : k.tests) {
    if (t.status != test_status::passed && ++failing <= listed_failures) {
      out += test_line(t);
    }
  }
  if (failing > listed_failures) {
    out += fmt::format("      ... and {} more failing tests\n", failing - listed_failures);
  }
  if (k.speedup_geomean) {
    out += fmt::format("      speedup {:.2f}x over the reference (geometric mean), "
                       "performance {:.2f} / {:.2f}\n",
                       *k.speedup_geomean, k.performance_score, k.performance_max);
  }
  return out;
}

std::string footer(const report& r, const painter& p) {
  if (!r.gradable || !r.score) {
    return p.paint("NOT GRADABLE", "1;31") + ": " + r.infrastructure_error +
           "\nNo score was given: this is a problem with the grading machine, not with the "
           "submission, and it will be graded again.\n";
  }
  std::string out =
      fmt::format("{} {:.2f} / {:.2f}", p.paint("score:", "1"), *r.score, r.max_score);
  if (r.late_penalty > 0) {
    out += fmt::format(" (late penalty {:.2f} deducted)", r.late_penalty);
  }
  return out + "\n";
}

} // namespace

std::string render_text(const report& original, bool colour) {
  const report r = redact(original);
  const painter p(colour);
  std::string out = header(r) + "\n";
  for (const kernel_report& k : r.kernels) {
    out += kernel_block(k, p);
  }
  return out + "\n" + footer(r, p);
}

} // namespace cugrade::reports
