// Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "reports/debug_output.h"
#include "reports/leaderboard_standing.h"
#include "reports/number_text.h"
#include "reports/redact.h"
#include "reports/writers.h"

namespace cugrade::reports {
namespace {

using ojson = nlohmann::ordered_json;

// How many failing visible cases a group's output lists before "and N more".
constexpr std::size_t failures_listed = 5;
// Gradescope shows test output in a collapsed <pre>; a compiler can print megabytes.
constexpr std::size_t max_log_chars = 20000;

ojson scored_test(std::string name, double score, double max_score, bool passed, std::string output,
                  visibility vis, const std::string& kernel) {
  return {{"name", std::move(name)},       {"score", score},
          {"max_score", max_score},        {"status", passed ? "passed" : "failed"},
          {"output", std::move(output)},   {"visibility", to_string(vis)},
          {"tags", ojson::array({kernel})}};
}

std::string group_output(const kernel_report& k, const group_result& g) {
  std::string out = fmt::format("{} of {} cases passed", g.cases_passed, g.cases);
  if (g.vis == visibility::hidden) {
    return out + " (hidden cases: no details are shown)";
  }
  std::size_t failing = 0;
  for (const test_result& t : k.tests) {
    if (t.group != g.name || t.status == test_status::passed) {
      continue;
    }
    if (++failing <= failures_listed) {
      out += fmt::format("\n- {}: {}{}{}", t.name, to_string(t.status),
                         t.message.empty() ? "" : ": ", t.message);
      const std::string output = debug_output_block(t, "  ");
      out += output.empty() ? "" : "\n" + output.substr(0, output.size() - 1);
    }
  }
  if (failing > failures_listed) {
    out += fmt::format("\n- and {} more", failing - failures_listed);
  }
  return out;
}

std::string kernel_output(const kernel_report& k) {
  std::string out = fmt::format("status: {}", to_string(k.status));
  if (k.error_kind) {
    out += fmt::format(" ({})", to_string(*k.error_kind));
  }
  if (!k.message.empty()) {
    out += "\n" + k.message;
  }
  for (const std::string& s : k.forbidden_symbols) {
    out += "\nforbidden symbol: " + s;
  }
  for (const hint& h : k.diagnosis) {
    out += fmt::format("\nhint ({}): {}", to_string(h.code), h.message);
  }
  if (!k.performance_note.empty()) {
    out += "\nperformance: " + k.performance_note;
  }
  for (const insight& i : k.insights) {
    out += "\ninsight: " + i.message;
  }
  return out;
}

// Groups explain a kernel's score only when their points add up to it; a kernel zeroed for a
// forbidden symbol, say, keeps its group results but not their points.
bool groups_explain_score(const kernel_report& k) {
  if (k.groups.empty()) {
    return false;
  }
  const double sum = std::accumulate(k.groups.begin(), k.groups.end(), 0.0,
                                     [](double s, const group_result& g) { return s + g.score; });
  return std::abs(sum + k.performance_score - k.score) <= 1e-9 * std::max(1.0, k.max_score);
}

// A kernel whose performance points an emulated grading leaves out of its maximum.
bool not_measured_here(const kernel_report& k) {
  return !k.performance_note.empty() && k.performance_max == 0 && k.performance_score == 0;
}

// Said above the report when the maximum here leaves out points that only the GPU can award.
std::string emulation_preface(const report& r) {
  const bool any = std::any_of(r.kernels.begin(), r.kernels.end(), not_measured_here);
  return any ? fmt::format("Graded in emulation: {} points are what emulation can award. The "
                           "performance points come from the course's GPU grading.\n\n",
                           number_text(r.max_score))
             : std::string();
}

void add_kernel_tests(ojson& tests, const kernel_report& k) {
  if (!groups_explain_score(k)) {
    tests.push_back(scored_test(k.name, k.score, k.max_score, k.status == kernel_status::passed,
                                kernel_output(k), visibility::visible, k.name));
    return;
  }
  for (const group_result& g : k.groups) {
    tests.push_back(scored_test(k.name + " / " + g.name, g.score, g.max_score, g.passed,
                                group_output(k, g), g.vis, k.name));
  }
  if (not_measured_here(k)) {
    // Not a failure: these points belong to the GPU grading, and the maximum here leaves them out.
    tests.push_back(scored_test(k.name + " / performance", 0, 0, true,
                                "measured on the GPU run, not here: " + k.performance_note,
                                visibility::visible, k.name));
  } else if (k.performance_max > 0 || !k.performance_note.empty()) {
    const std::string speed =
        !k.performance_note.empty() ? k.performance_note
        : k.speedup_geomean ? fmt::format("speedup {:.2f}x (geometric mean)", *k.speedup_geomean)
                            : std::string("no speedup measured");
    tests.push_back(
        scored_test(k.name + " / performance", k.performance_score, k.performance_max,
                    k.performance_note.empty() && k.performance_score >= k.performance_max, speed,
                    visibility::visible, k.name));
  }
}

ojson build_test(const build_info& b) {
  std::string log = b.log;
  if (log.size() > max_log_chars) {
    log = "[... earlier output cut ...]\n" + log.substr(log.size() - max_log_chars);
  }
  const std::string summary = b.summary.empty() ? "" : b.summary + "\n\nfull compiler output:\n";
  return {{"name", "build"},
          {"status", b.status == build_status::error ? "failed" : "passed"},
          {"output",
           fmt::format("build {} in {:.1f} s\n{}{}", to_string(b.status), b.seconds, summary, log)},
          {"visibility", "visible"}};
}

// No score anywhere: Gradescope then records no grade, and the student is told why, instead of
// a zero for a failure that is not theirs.
ojson ungradable_json(const redacted_report& redacted) {
  const report& r = redacted.get();
  ojson j{{"execution_time", std::lround(std::ceil(r.elapsed_seconds))},
          {"output", render_text(redacted, false)},
          {"output_format", "text"},
          {"visibility", "visible"},
          {"stdout_visibility", "hidden"}};
  j["tests"] = ojson::array({{{"name", "grading infrastructure"},
                              {"status", "failed"},
                              {"output", "Not graded: " + r.infrastructure_error +
                                             "\nThis is not a problem with your submission; it "
                                             "will be graded again."},
                              {"visibility", "visible"}}});
  return j;
}

} // namespace

ojson gradescope_json(const redacted_report& redacted) {
  const report& r = redacted.get();
  if (!r.gradable || !r.score) {
    return ungradable_json(redacted);
  }
  ojson j{{"score", *r.score},
          {"execution_time", std::lround(std::ceil(r.elapsed_seconds))},
          {"output", emulation_preface(r) + render_text(redacted, false)},
          {"output_format", "text"},
          {"visibility", "visible"},
          {"stdout_visibility", "hidden"}};
  ojson tests = ojson::array();
  if (r.build.status != build_status::skipped) {
    tests.push_back(build_test(r.build));
  }
  for (const kernel_report& k : r.kernels) {
    add_kernel_tests(tests, k);
  }
  if (r.late_penalty > 0) {
    tests.push_back(scored_test("late penalty", -r.late_penalty, 0, false,
                                r.late_penalty_explanation.empty()
                                    ? fmt::format("{} day(s) late", r.submission.late_days)
                                    : r.late_penalty_explanation,
                                visibility::visible, "late"));
  }
  j["tests"] = std::move(tests);
  // The published leaderboard's rule (docs/leaderboard.md): ranked kernels only, and overall.
  if (ojson board = gradescope_leaderboard(r); !board.empty()) {
    j["leaderboard"] = std::move(board);
  }
  return j;
}

std::string render_gradescope(const redacted_report& r) {
  return gradescope_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace cugrade::reports
