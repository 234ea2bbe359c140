// JUnit XML in the shape CI dashboards (Jenkins, GitLab, GitHub test reporters) read: one
// <testsuite> per kernel, one <testcase> per correctness case. Per-case times are not measured,
// so every testcase says time="0".
#include <fmt/format.h>

#include "reports/debug_output.h"
#include "reports/number_text.h"
#include "reports/redact.h"
#include "reports/writers.h"

namespace cugrade::reports {
namespace {

struct counts {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
};

// How JUnit classifies an outcome: wrong answers are failures, faults and timeouts are errors.
const char* junit_element(test_status s) {
  switch (s) {
  case test_status::passed:
    return nullptr;
  case test_status::failed:
    return "failure";
  case test_status::not_run:
    return "skipped";
  case test_status::error:
  case test_status::timeout:
    return "error";
  }
  return "error";
}

std::string details(const test_result& t) {
  std::string out = fmt::format("shape {} distribution {}", t.shape, t.distribution);
  if (t.mismatches) {
    out += fmt::format("\n{} mismatching elements", *t.mismatches);
  }
  if (t.max_abs_error) {
    out += fmt::format("\nmax abs error {:g}", *t.max_abs_error);
  }
  if (t.max_rel_error) {
    out += fmt::format("\nmax rel error {:g}", *t.max_rel_error);
  }
  if (t.first_mismatch) {
    out += fmt::format("\nfirst mismatch at index {}: expected {}, got {}", t.first_mismatch->index,
                       number_text(t.first_mismatch->expected), number_text(t.first_mismatch->got));
  }
  return out + (t.output_bytes > 0 ? "\n" + debug_output_block(t, "") : "");
}

std::string testcase(const std::string& classname, const test_result& t, counts& c) {
  ++c.tests;
  std::string out = fmt::format(R"(    <testcase classname="{}" name="{}" time="0")",
                                xml_escape(classname), xml_escape(t.name));
  const char* element = junit_element(t.status);
  if (element == nullptr) {
    return out + "/>\n";
  }
  std::string_view kind(element);
  (kind == "failure" ? c.failures : kind == "error" ? c.errors : c.skipped) += 1;
  const bool hidden = t.vis == visibility::hidden;
  const std::string message = hidden ? "hidden test " + std::string(to_string(t.status))
                              : t.message.empty() ? std::string(to_string(t.status))
                                                  : t.message;
  out += fmt::format(">\n      <{} message=\"{}\" type=\"{}\">{}</{}>\n    </testcase>\n", element,
                     xml_escape(message), to_string(t.status),
                     hidden ? "" : xml_escape(details(t), false), element);
  return out;
}

// A kernel that never ran its cases (missing launcher, build error, forbidden symbol) still shows
// up, as one testcase carrying its status.
std::string kernel_case(const report& r, const kernel_report& k, counts& c) {
  ++c.tests;
  std::string out =
      fmt::format(R"(    <testcase classname="{}.{}" name="{}" time="0")",
                  xml_escape(r.assignment_name), xml_escape(k.name), xml_escape(k.name));
  if (k.status == kernel_status::passed) {
    return out + "/>\n";
  }
  const bool wrong = k.status == kernel_status::failed;
  ++(wrong ? c.failures : c.errors);
  std::string body = k.message;
  for (const std::string& s : k.forbidden_symbols) {
    body += "\nforbidden symbol: " + s;
  }
  if (k.status == kernel_status::build_error) {
    body += "\n" + r.build.log;
  }
  const char* element = wrong ? "failure" : "error";
  return out + fmt::format(">\n      <{} message=\"{}\" type=\"{}\">{}</{}>\n    </testcase>\n",
                           element, xml_escape(k.message.empty() ? to_string(k.status) : k.message),
                           xml_escape(std::string(k.error_kind ? to_string(*k.error_kind)
                                                               : to_string(k.status))),
                           xml_escape(body, false), element);
}

// What the reader of a CI dashboard needs beside the cases: the fetch notes (commits ignored,
// uncommitted work left out), the compiler's messages and why performance was not measured.
std::string system_out(const report& r, const kernel_report& k) {
  std::string text;
  for (const std::string& note : r.submission.notes) {
    text += "note: " + note + "\n";
  }
  if (!r.build.summary.empty()) {
    text += "compiler: " + r.build.summary + "\n";
  }
  if (!k.performance_note.empty()) {
    text += "performance: " + k.performance_note + "\n";
  }
  return text.empty() ? std::string()
                      : "    <system-out>" + xml_escape(text, false) + "</system-out>\n";
}

std::string suite(const report& r, const kernel_report& k, counts& total) {
  counts c;
  std::string cases;
  if (k.tests.empty()) {
    cases = kernel_case(r, k, c);
  }
  for (const test_result& t : k.tests) {
    cases += testcase(r.assignment_name + "." + k.name, t, c);
  }
  total.tests += c.tests;
  total.failures += c.failures;
  total.errors += c.errors;
  total.skipped += c.skipped;
  return fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
      "time=\"0\">\n{}{}  </testsuite>\n",
      xml_escape(k.name), c.tests, c.failures, c.errors, c.skipped, cases, system_out(r, k));
}

std::string infrastructure_suite(const report& r, counts& total) {
  total.tests = total.errors = 1;
  return fmt::format("  <testsuite name=\"grading infrastructure\" tests=\"1\" failures=\"0\" "
                     "errors=\"1\" skipped=\"0\" time=\"0\">\n"
                     "    <testcase classname=\"{}.infrastructure\" name=\"gradable\" time=\"0\">\n"
                     "      <error message=\"{}\" type=\"infrastructure\"/>\n"
                     "    </testcase>\n  </testsuite>\n",
                     xml_escape(r.assignment_name), xml_escape(r.infrastructure_error));
}

} // namespace

std::string render_junit(const redacted_report& redacted) {
  const report& r = redacted.get();
  counts total;
  std::string suites;
  if (!r.gradable) {
    suites = infrastructure_suite(r, total);
  } else {
    for (const kernel_report& k : r.kernels) {
      suites += suite(r, k, total);
    }
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
                     "skipped=\"{}\" time=\"{:.3f}\">\n{}</testsuites>\n",
                     xml_escape(r.assignment_name), total.tests, total.failures, total.errors,
                     total.skipped, r.elapsed_seconds, suites);
}

} // namespace cugrade::reports
