#include "grader/core/case_evaluation.h"
#include "grader/core/source_lines.h"
#include "grader/process/temp_dir.h"

#include "tests/core/core_test_support.h"

#include <bit>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

using namespace testing_support;
using reports::fault_kind;
using reports::test_status;

TEST(SourceLocation, TakesTheLastCudaSourceLineOfAMessage) {
  EXPECT_EQ(source_location_in("waits at __syncthreads() at reduction.cu:12 while thread (1,0,0) "
                               "waits at reduction.cu:23"),
            "reduction.cu:23");
  EXPECT_EQ(source_location_in("read past the end at histogram.cu:14 (in sectioned)"),
            "histogram.cu:14");
  EXPECT_EQ(source_location_in("no line here: 3.5 of 12"), "");
}

// A runner log with two runs of one 1x1x1 matmul case whose outputs are the given words.
class TwoRuns : public ::testing::Test {
protected:
  protocol::run_record run(int r, std::uint32_t word) {
    protocol::run_record rec;
    rec.run = r;
    rec.completed = true;
    rec.output_file = protocol::output_file_name(0, r);
    std::ofstream out(m_dir / rec.output_file, std::ios::binary);
    out.write(reinterpret_cast<const char*>(&word), sizeof word);
    return rec;
  }
  std::vector<case_outcome> evaluate(std::vector<protocol::run_record> runs) {
    protocol::runner_log log;
    log.started = log.finished = true;
    log.runs = std::move(runs);
    return evaluate_cases(problems::get(problems::kind_named("matmul")), m_cases, log, m_dir, {});
  }

  process::temp_dir m_tmp{"cugrade-core-test"};
  std::filesystem::path m_dir = m_tmp.path();
  std::vector<graded_case> m_cases{matmul_case(1, 1, 1)};
};

TEST_F(TwoRuns, IdenticalNaNOutputsAgree) {
  const std::uint32_t nan = 0x7fc00001u;
  const auto out = evaluate({run(0, nan), run(1, nan)});
  EXPECT_EQ(out[0].status, test_status::failed);
  EXPECT_FALSE(out[0].schedule_dependent);
}

TEST_F(TwoRuns, DifferentOutputsAreScheduleDependent) {
  const auto out = evaluate(
      {run(0, std::bit_cast<std::uint32_t>(1.0f)), run(1, std::bit_cast<std::uint32_t>(-7.0f))});
  EXPECT_EQ(out[0].status, test_status::failed);
  EXPECT_TRUE(out[0].schedule_dependent);
}

TEST_F(TwoRuns, CanaryAndInputFlagsAreSetAsFlags) {
  auto first = run(0, 0);
  first.canary_overwritten = true;
  auto out = evaluate({first, run(1, 0)});
  EXPECT_EQ(out[0].status, test_status::error);
  EXPECT_EQ(out[0].error_kind, fault_kind::out_of_bounds);
  EXPECT_TRUE(out[0].canary_overwritten);
  auto mutated = run(0, 0);
  mutated.input_modified = true;
  out = evaluate({mutated, run(1, 0)});
  EXPECT_EQ(out[0].error_kind, fault_kind::input_mutation);
  EXPECT_TRUE(out[0].input_modified);
  EXPECT_FALSE(out[0].canary_overwritten);
}

TEST_F(TwoRuns, AFaultKeepsItsKindAndSourceLine) {
  auto first = run(0, 0);
  first.error_kind = fault_kind::barrier_divergence;
  first.message = "waits at __syncthreads() at matmul.cu:41";
  const auto out = evaluate({first});
  EXPECT_EQ(out[0].status, test_status::error);
  EXPECT_EQ(out[0].error_kind, fault_kind::barrier_divergence);
  EXPECT_EQ(out[0].location, "matmul.cu:41");
}

// A GPU says only cudaErrorAssert; the device prints which assertion failed, under the grader's
// work folder, and every failing thread prints it again.
TEST_F(TwoRuns, AGpusFailedAssertGetsTheAssertionItPrintedWithoutTheWorkFolder) {
  auto first = run(0, 0);
  first.error_kind = fault_kind::device_assert;
  first.message = "cudaErrorAssert while running: device-side assert triggered";
  first.output = "debug line\n"
                 "/tmp/cache/cugrade/work/cugrade-grade-1-ab/submission/matmul.cu:22: void "
                 "naive(const float *, float *, int): block: [3,0,0], thread: [224,1,0] Assertion "
                 "`row < j && \"in range\"` failed.\n"
                 "/tmp/cache/cugrade/work/cugrade-grade-1-ab/submission/matmul.cu:22: void "
                 "naive(const float *, float *, int): block: [3,0,0], thread: [225,1,0] Assertion "
                 "`row < j && \"in range\"` failed.\n";
  const auto out = evaluate({first});
  EXPECT_EQ(out[0].error_kind, fault_kind::device_assert);
  EXPECT_EQ(out[0].message,
            "cudaErrorAssert while running: device-side assert triggered: assertion `row < j && "
            "\"in range\"` failed at matmul.cu:22 by thread (224,1,0) of block (3,0,0)");
  EXPECT_EQ(out[0].location, "matmul.cu:22");
  // Without the printed line (output capped, or another fault's words): the message as it was.
  first.output = "nothing printed";
  EXPECT_EQ(evaluate({first})[0].message,
            "cudaErrorAssert while running: device-side assert triggered");
}

TEST_F(TwoRuns, PassingSmallOutputsKeepTheirAnswerForLaterComparison) {
  // 1x1x1 with real inputs: whatever M[0]*N[0] is, echo it back.
  const auto probe = evaluate({run(0, 0), run(1, 0)});
  ASSERT_EQ(probe[0].evidence.expected.size(), 1u);
  const float answer = static_cast<float>(probe[0].evidence.expected[0]);
  const auto out = evaluate(
      {run(0, std::bit_cast<std::uint32_t>(answer)), run(1, std::bit_cast<std::uint32_t>(answer))});
  EXPECT_EQ(out[0].status, test_status::passed);
  EXPECT_EQ(out[0].evidence.expected.size(), 1u);
  EXPECT_TRUE(out[0].evidence.got.empty());
}

// A race may give the right answer on the first run and a wrong one on the second: the wrong
// values are what diagnosis can read (a reduction's lost block sums), so they are kept.
TEST_F(TwoRuns, ARightFirstRunAndAWrongSecondKeepTheWrongValues) {
  const auto probe = evaluate({run(0, 0), run(1, 0)});
  ASSERT_EQ(probe[0].evidence.expected.size(), 1u);
  const float answer = static_cast<float>(probe[0].evidence.expected[0]);
  const float wrong = answer + 1000.0f;
  const auto out = evaluate(
      {run(0, std::bit_cast<std::uint32_t>(answer)), run(1, std::bit_cast<std::uint32_t>(wrong))});
  EXPECT_EQ(out[0].status, test_status::failed);
  EXPECT_TRUE(out[0].schedule_dependent);
  ASSERT_EQ(out[0].evidence.got.size(), 1u);
  EXPECT_EQ(static_cast<float>(out[0].evidence.got[0]), wrong);
  // A wrong first run keeps its own values, whatever the second gives.
  const auto wrong_first = evaluate(
      {run(0, std::bit_cast<std::uint32_t>(wrong)), run(1, std::bit_cast<std::uint32_t>(answer))});
  ASSERT_EQ(wrong_first[0].evidence.got.size(), 1u);
  EXPECT_EQ(static_cast<float>(wrong_first[0].evidence.got[0]), wrong);
}

} // namespace
} // namespace cugrade::grader

namespace cugrade::grader {
namespace {

// objdump --dwarf=decodedline of a load of input[i] (line 14) that g++ -O2 folded into the
// argument set-up of the atomicAdd on line 15: addr2line names line 15.
constexpr const char* folded_load_table = R"(
histogram.cu                                  13              0x1179       1       x
histogram.cu                                  14              0x117e               x
histogram.cu                                  15              0x117e       1       x
atomics.h                                     53              0x117e       2       x
histogram.cu                                  15              0x117e       4
histogram.cu                                  20              0x1190               x
)";

TEST(SourceLines, AFaultingInstructionBelongsToTheFirstStatementStartingThere) {
  EXPECT_EQ(first_statement_line(folded_load_table, "histogram.cu", 0x117e), 14);
  EXPECT_EQ(first_statement_line(folded_load_table, "histogram.cu", 0x1190), 20);
  EXPECT_EQ(first_statement_line(folded_load_table, "histogram.cu", 0x1234), std::nullopt);
  EXPECT_EQ(first_statement_line(folded_load_table, "matmul.cu", 0x117e), std::nullopt);
}

// Builds DIR/libk.so from a k.cu whose function `faulting` starts after `blank_lines` empty
// lines, and gives the offset of that function's first instruction ("0x...").
std::string build_with_function_at(const std::filesystem::path& dir, int blank_lines) {
  std::ofstream(dir / "k.cu") << std::string(static_cast<std::size_t>(blank_lines), '\n')
                              << "extern \"C\" int faulting(int* p) {\n  return *p;\n}\n";
  const auto library = (dir / "libk.so").string();
  const std::string compile =
      "g++ -x c++ -g -O0 -fPIC -shared -o " + library + " " + (dir / "k.cu").string() + " && nm " +
      library + " | awk '$3 == \"faulting\" {print $1}' > " + (dir / "address.txt").string();
  if (std::system(compile.c_str()) != 0) {
    return {};
  }
  std::ifstream in(dir / "address.txt");
  std::string address;
  in >> address;
  return address.empty() ? std::string() : "0x" + address;
}

// Lines are remembered per fault site, so a library rebuilt at the same path (a new inode, size
// or time) must be looked up again, not answered from the first build.
TEST(SourceLines, ALibraryRebuiltAtTheSamePathIsLookedUpAgain) {
  const process::temp_dir dir("cugrade-source-lines");
  const auto first = build_with_function_at(dir.path(), 3);
  ASSERT_FALSE(first.empty()) << "g++ or nm did not build the probe library";
  const auto before = source_line_of(dir.path() / "libk.so", first);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->substr(0, 7), "k.cu:4 ");
  EXPECT_EQ(source_line_of(dir.path() / "libk.so", first), before); // the same site, remembered
  const auto second = build_with_function_at(dir.path(), 10);
  ASSERT_FALSE(second.empty());
  const auto after = source_line_of(dir.path() / "libk.so", second);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->substr(0, 8), "k.cu:11 ");
}

} // namespace
} // namespace cugrade::grader
