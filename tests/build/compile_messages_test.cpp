#include "grader/build/compile_messages.h"

#include <gtest/gtest.h>

using namespace cugrade::build;

namespace {

// What g++ prints for a launch with too few arguments, compiled from the emulator's rewrite.
const std::string wrong_launch_log =
    "matmul.cu: In function 'void matmul_naive(const float*, const float*, float*, int, int, "
    "int)':\n"
    "matmul.cu:8:60: error: no match for call to '(cugrade::emu::launcher<const float*, float*, "
    "int>) (const float*&, float*&)'\n"
    "    8 |   cugrade::emu::launch(k, 1, 32)(M, P);\n"
    "      |                                                            ^\n"
    "In file included from /opt/cugrade/emu/include/cugrade_emu.h:20,\n"
    "                 from <command-line>:\n"
    "/opt/cugrade/emu/include/cugrade_emu/launch.h:43:8: note: candidate: 'void "
    "cugrade::emu::launcher<P>::operator()(P ...) const'\n"
    "   43 |   void operator()(P... args) const {\n"
    "      |        ^~~~~~~~\n"
    "/opt/cugrade/emu/include/cugrade_emu/launch.h:43:8: note:   candidate expects 3 arguments, 2 "
    "provided";

TEST(CompileMessages, RephrasesAWrongLaunchInTheStudentsWords) {
  const std::string cleaned = clean_emulation_log(wrong_launch_log, "matmul.cu");
  EXPECT_EQ(cleaned,
            "matmul.cu: In function 'void matmul_naive(const float*, const float*, float*, int, "
            "int, int)':\n"
            "matmul.cu:8: error: this kernel launch passes (const float*, float*) but the kernel "
            "takes (const float*, float*, int): give one argument per kernel parameter, of its "
            "type");
  EXPECT_EQ(cleaned.find("cugrade"), std::string::npos);
  EXPECT_EQ(cleaned.find(":60"), std::string::npos) << "a column of the rewrite leaked";
}

TEST(CompileMessages, DropsTheEmulatorsNamespacesEverywhere) {
  EXPECT_EQ(in_student_words("in (anonymous namespace)::tile_kernel(float*) via "
                             "cugrade::emu::detail::shared_array<float, 16>"),
            "in tile_kernel(float*) via shared_array<float, 16>");
}

// What g++ says of the emulator's deleted device math is said as nvcc's rule, in the student's
// types, with the fix.
TEST(CompileMessages, SaysDeviceMathOfAnIntegerAsNvccsRule) {
  EXPECT_EQ(in_student_words("use of deleted function \u2018double cugrade::emu::device_cmath::"
                             "log2(T) [with T = unsigned int]\u2019"),
            "`log2` of unsigned int in device code: nvcc gives device code the float and double "
            "log2 only (\"calling a constexpr __host__ function(\"log2\") from a __global__ "
            "function is not allowed\"): convert the argument, as in log2f((float)x) or "
            "log2((double)x)");
  EXPECT_EQ(in_student_words("use of deleted function 'double cugrade::emu::device_cmath::fmax(A, "
                             "B) [with A = float; B = double]'"),
            "`fmax` of float and double in device code: nvcc gives device code fmax of two floats "
            "or of two doubles only (\"calling a constexpr __host__ function(\"fmax\") from a "
            "__global__ function is not allowed\"): give both arguments one floating type, as in "
            "fmaxf(a, b) for floats");
}

TEST(CompileMessages, FindsErrorsAndWarningsOfTheStudentsFileOnly) {
  const std::string log = "reduction.cu:8:23: error: expected ';' before '}' token\n"
                          "other.h:3:1: error: not the student's\n"
                          "reduction.cu:12: warning #549-D: variable \"q\" is used before its "
                          "value is set\n"
                          "reduction.cu:14:5: warning: statement has no effect [-Wunused-value]\n";
  const auto messages = student_messages(log, "reduction.cu");
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0].line, 8);
  EXPECT_EQ(messages[0].severity, "error");
  EXPECT_EQ(messages[0].text, "expected ';' before '}' token");
  EXPECT_EQ(messages[1].severity, "warning");
  EXPECT_EQ(messages[2].line, 14);
}

TEST(CompileMessages, AMessageRepeatedAtOneLineIsCountedOnce) {
  // nvcc warns in its host pass and again in its device pass; a column does not tell them apart
  // for the student (columns are dropped).
  const std::string log = "matmul.cu:12:9: warning: unused variable 'x' [-Wunused-variable]\n"
                          "matmul.cu:12:9: warning: unused variable 'x' [-Wunused-variable]\n"
                          "matmul.cu:12:20: warning: unused variable 'y' [-Wunused-variable]\n"
                          "matmul.cu:13: warning: unused variable 'x' [-Wunused-variable]\n"
                          "matmul.cu:12: warning: unused variable 'y' [-Wunused-variable]\n";
  const auto messages = student_messages(log, "matmul.cu");
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0].line, 12);
  EXPECT_EQ(messages[0].text, "unused variable 'x' [-Wunused-variable]");
  EXPECT_EQ(messages[1].line, 12);
  EXPECT_EQ(messages[1].text, "unused variable 'y' [-Wunused-variable]");
  EXPECT_EQ(messages[2].line, 13);
}

TEST(CompileMessages, SummaryShowsTheStudentsLineUnderEachMessageAndCountsTheRest) {
  const std::string source = "a\nb\nc\n  atomicAdd(result, s)\n";
  std::vector<compiler_message> messages;
  for (int i = 0; i < 5; ++i) {
    messages.push_back({4, "error", "expected ';' before '}' token"});
  }
  messages.push_back({2, "warning", "unused variable 'x'"});
  const std::string summary = message_summary(messages, "error", "reduction.cu", source, 2);
  EXPECT_EQ(summary, "reduction.cu:4: error: expected ';' before '}' token\n"
                     "     4 |   atomicAdd(result, s)\n"
                     "reduction.cu:4: error: expected ';' before '}' token\n"
                     "     4 |   atomicAdd(result, s)\n"
                     "... and 3 more errors (the full compiler output is the report's build log)");
  EXPECT_EQ(message_summary(messages, "warning", "reduction.cu", source),
            "reduction.cu:2: warning: unused variable 'x'\n     2 | b");
  EXPECT_EQ(message_summary({}, "error", "reduction.cu", source), "");
}

} // namespace
