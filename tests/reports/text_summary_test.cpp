#include <gtest/gtest.h>

#include "reports/writers.h"
#include "sample_report.h"
#include "tests/surfaces/terminal_controls.h"

#include <regex>

namespace cugrade::reports {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TextSummary, ShowsKernelsScoresHintsAndEnvironment) {
  const std::string text = render_text(redact(testing::sample_report()), false);
  EXPECT_TRUE(contains(text, "cugrade report: matmul for alice")) << text;
  EXPECT_TRUE(contains(text, "backend: gpu, NVIDIA H100 (driver 550.54, CUDA runtime 13.0)"));
  EXPECT_TRUE(contains(text, "deadline: 2025-02-28T23:59:00Z, 1 day late")) << text;
  EXPECT_TRUE(contains(text, "note: 1 uncommitted change")) << text;
  EXPECT_TRUE(contains(text, "1 compiler warning (notes, not failures)")) << text;
  EXPECT_TRUE(contains(text, "    matmul.cu:3: warning: unused variable 'x'")) << text;
  EXPECT_TRUE(contains(text, "performance: not measured: the kernel failed")) << text;
  EXPECT_TRUE(contains(text, "matmul_naive")) << text;
  EXPECT_TRUE(contains(text, "passed        12.00 / 12.00")) << text;
  EXPECT_TRUE(contains(text, "failed         4.00 / 12.00")) << text;
  EXPECT_TRUE(contains(text, "error          0.00 / 12.00 (out_of_bounds)")) << text;
  EXPECT_TRUE(contains(text, "hint boundary_check:"));
  EXPECT_TRUE(contains(text,
                       "33x17x65/integer failed: 12 of 2145 elements differ <&\"quotes\"> here "
                       "[inputs: "))
      << text;
  EXPECT_TRUE(contains(text, "speedup 2.00x"));
  EXPECT_TRUE(contains(text, "score: 14.50 / 36.00 (late penalty 1.50 deducted)")) << text;
  EXPECT_TRUE(contains(text, "  timing          7.25 s  matmul_naive\n"
                             "      lock wait 3.50 s, student runs 1.25 s, control 1.00 s, "
                             "checks 1.50 s\n"))
      << text;
}

TEST(TextSummary, WholeNumbersPrintAsIntegers) {
  report r = testing::sample_report();
  test_result t;
  t.name = "n=100003/uniform";
  t.status = test_status::failed;
  t.mismatches = 256;
  t.first_mismatch = mismatch_info{0, 2142950000.0, 2142950391.0};
  r.kernels[1].tests = {t};
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "expected 2142950000, got 2142950391")) << text;
}

TEST(TextSummary, CheckAllListsEveryFailingTest) {
  report r = testing::sample_report();
  for (int i = 0; i < 6; ++i) {
    test_result t;
    t.name = "case" + std::to_string(i);
    t.status = test_status::failed;
    r.kernels[1].tests.push_back(t);
  }
  const std::string text = render_text(redact(r), false, 100);
  EXPECT_TRUE(contains(text, "case5")) << text;
  EXPECT_FALSE(contains(text, "more failing tests")) << text;
}

TEST(TextSummary, AKernelThatRanShowsItsCasesPassedPerGroup) {
  const std::string text = render_text(redact(testing::sample_report()), false);
  EXPECT_TRUE(contains(text, "cases passed: edge 1/2, hidden_edge 0/1")) << text;
  EXPECT_FALSE(contains(text, "cases passed: edge 1/1")) << text; // the passing kernel
}

TEST(TextSummary, ColourOnlyWhenAsked) {
  const report r = testing::sample_report();
  EXPECT_FALSE(contains(render_text(redact(r), false), "\x1b["));
  const std::string coloured = render_text(redact(r), true);
  EXPECT_TRUE(contains(coloured, "\x1b[32mpassed")) << coloured;
  EXPECT_TRUE(contains(coloured, "\x1b[31mfailed"));
}

TEST(TextSummary, LongFailureListsAreCut) {
  report r = testing::sample_report();
  for (int i = 0; i < 6; ++i) {
    test_result t;
    t.name = "case" + std::to_string(i);
    t.group = "edge";
    t.status = test_status::timeout;
    t.message = std::string("stopped in loop ") + static_cast<char>('a' + i); // each its own
    r.kernels[1].tests.push_back(t);
  }
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "... and 5 more failing tests")) << text;
  EXPECT_FALSE(contains(text, "case5"));
}

TEST(TextSummary, FailuresThatDifferOnlyInTheirNumbersAreOneGroup) {
  report r = testing::sample_report();
  // Sizes from 2000: the sample's hidden shape holds 1031, which redaction scrubs from messages.
  for (int i = 0; i < 48; ++i) {
    test_result t;
    t.name = "n=" + std::to_string(2000 + i) + "/ones";
    t.group = "edge";
    t.status = test_status::failed;
    t.message = "sum of n = " + std::to_string(2000 + i) + ": expected " +
                std::to_string(2000 + i) + ".5, got 512, allowed error 0";
    r.kernels[1].tests.push_back(t);
  }
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "      n=2000/ones failed: sum of n = 2000: expected 2000.5, got 512"))
      << text;
  EXPECT_TRUE(contains(text, "        and 47 more cases like it: n=2001/ones, n=2002/ones, "))
      << text;
  EXPECT_TRUE(contains(text, "n=2008/ones (and 39 more)\n")) << text;
  EXPECT_FALSE(contains(text, "n=2009/ones")) << text;
  // check --all names every case of the group.
  EXPECT_TRUE(contains(render_text(redact(r), false, 2000), ", n=2047/ones\n"));
}

TEST(TextSummary, AMismatchTheMessageStatesIsNotSaidTwice) {
  const std::string text = render_text(redact(testing::sample_report()), false);
  // The failing test's message is its comparison's note: no second "(12 mismatches, ...)".
  EXPECT_FALSE(contains(text, "12 mismatches, first at index")) << text;
  report bare = testing::sample_report();
  bare.kernels[1].tests[0].message.clear();
  EXPECT_TRUE(contains(render_text(redact(bare), false), "(12 mismatches, first at index 5"));
}

TEST(TextSummary, AFailingCaseShowsItsDebugOutputAndHowMuchWasCut) {
  const std::string text = render_text(redact(testing::sample_report()), false);
  EXPECT_TRUE(contains(text, "        output (5000 bytes):\n"
                             "          | tile 16, grid 3x2\n"
                             "          [4982 more bytes not shown]\n"))
      << text;
  // The hidden case's output (it names the hidden shape) is never shown.
  EXPECT_FALSE(contains(text, "n = ")) << text;
}

TEST(TextSummary, UngradableSaysWhyAndGivesNoScore) {
  report r = testing::sample_report();
  mark_ungradable(r, "no CUDA-capable device is detected");
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "NOT GRADABLE: no CUDA-capable device is detected")) << text;
  EXPECT_FALSE(contains(text, "score:"));
}

// A clipboard write (OSC 52), a screen clear, the 8-bit CSI, a right-to-left override and a byte
// that is not UTF-8: what a compiler, a runner or git may say for a hostile submission.
const std::string attack =
    std::string("\x1b]52;c;aGk=\x07") + "\x1b[2J" + "\xC2\x9B" + "31m" + "\u202E" + "evil" + "\xFF";

// Every string of the sample report with the attack appended (visible tests only: redaction
// drops a hidden test's words anyway).
report hostile_report() {
  report r = testing::sample_report();
  for (std::string* s : {&r.assignment_name, &r.submission.student, &r.submission.source,
                         &r.environment.device, &r.environment.driver, &r.environment.cuda_runtime,
                         &r.environment.grader_version, &r.environment.sandbox, &r.build.summary}) {
    *s += attack;
  }
  r.submission.commit = "abc" + attack;
  r.submission.commit_time = "2025-02-28" + attack;
  r.submission.deadline = "2025-03-01" + attack;
  r.submission.notes.push_back("graded the newest commit on main" + attack);
  for (auto& k : r.kernels) {
    k.message += attack;
    k.performance_note += attack;
    k.forbidden_symbols.push_back("system" + attack);
    for (auto& h : k.diagnosis) {
      h.message += attack;
    }
    for (auto& g : k.groups) {
      g.name += attack;
    }
    for (auto& t : k.tests) {
      if (t.vis == visibility::visible) {
        t.name += attack;
        t.message += attack;
        t.shape += attack;
        t.distribution += attack;
        t.output += attack;
        t.output_bytes += attack.size();
      }
    }
  }
  for (auto& stage : r.stages) {
    stage.stage += attack;
    stage.kernel += attack;
    for (auto& part : stage.parts) {
      part.name += attack;
    }
  }
  return r;
}

void expect_no_raw_controls(const std::string& text) {
  const auto found = surfaces::terminal_controls_in(text);
  EXPECT_TRUE(found.empty()) << found.size() << " raw controls, the first: " << found.front();
}

TEST(TextSummary, StudentTextReachesNoTerminalRaw) {
  const report r = hostile_report();
  const std::string plain = render_text(redact(r), false);
  expect_no_raw_controls(plain);
  // Shown, not dropped: each string's copy of the clipboard write is there, escaped.
  EXPECT_TRUE(contains(plain, "\\x1b]52;c;aGk=\\x07\\x1b[2J\\x9b31m\\u202eevil\xEF\xBF\xBD"))
      << plain;
  // In colour, the painter's own SGR codes are the only escapes left.
  const std::string coloured = render_text(redact(r), true);
  const std::string without_colours =
      std::regex_replace(coloured, std::regex("\x1b\\[(0|1|31|32|33|1;31)m"), "");
  expect_no_raw_controls(without_colours);
  EXPECT_NE(without_colours, coloured) << "the painter's colours went missing";
}

TEST(TextSummary, UngradableReasonReachesNoTerminalRaw) {
  report r = testing::sample_report();
  mark_ungradable(r, "the reference name 'refs/heads/main" + attack + "' is not valid");
  const std::string text = render_text(redact(r), true);
  expect_no_raw_controls(std::regex_replace(text, std::regex("\x1b\\[(0|1|31|32|33|1;31)m"), ""));
  EXPECT_TRUE(contains(text, "refs/heads/main\\x1b]52;c;aGk=")) << text;
}

TEST(TextSummary, CrlfCompilerLogLosesItsCarriageReturns) {
  report r = testing::sample_report();
  r.build.summary = "matmul.cu:3: error: expected ';'\r\n    3 | int x\r\n";
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "    matmul.cu:3: error: expected ';'\n        3 | int x\n")) << text;
}

} // namespace
} // namespace cugrade::reports
