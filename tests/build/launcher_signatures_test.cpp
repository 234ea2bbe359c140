#include "grader/build/launcher_signatures.h"

#include <gtest/gtest.h>

using namespace cugrade::build;

namespace {

const std::vector<std::string> launchers{"matmul_naive", "matmul_tiled", "matmul_dynamic"};
const std::string parameters = "const float* M, const float* N, float* P, int j, int k, int l";

const std::string launcher_source = R"(#include <cuda_runtime.h>

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j,
                             int k) {
}
extern "C" __host__ void matmul_tiled(double* M, const double* N, double* P, int j, int k, int l) {}
extern "C" void matmul_dynamic(float* M, float const* N, float* const P, const int j, int k,
                               int l) {}
)";

// What each compiler says (after compile_log.h's trimming) when the contract's header meets the
// declarations above: read from gcc 12 and 14, clang 19 and nvcc 13 with either host compiler.
const std::string gcc_log =
    R"(matmul.cu:3:17: warning: conflicting C language linkage declaration 'void matmul_naive(const float*, const float*, float*, int, int)'
    3 | extern "C" void matmul_naive(const float* M, const float* N, float* P, int j,
      |                 ^~~~~~~~~~~~
In file included from <command-line>:
cugrade_contract.h:3:17: note: previous declaration 'void cugrade_contract::matmul_naive(const float*, const float*, float*, int, int, int)'
    3 | extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l);
      |                 ^~~~~~~~~~~~
matmul.cu: In function 'void matmul_tiled(double*, const double*, double*, int, int, int)':
matmul.cu:6:37: warning: unused parameter 'k' [-Wunused-parameter]
matmul.cu:6:26: warning: conflicting C language linkage declaration 'void matmul_tiled(double*, const double*, double*, int, int, int)'
cugrade_contract.h:4:17: note: previous declaration 'void cugrade_contract::matmul_tiled(const float*, const float*, float*, int, int, int)')";

const std::string clang_log = R"(matmul.cu:7:17: error: conflicting types for 'matmul_dynamic'
    7 | extern "C" void matmul_dynamic(float* M, float const* N, float* const P, const int j, int k,
      |                 ^
cugrade_contract.h:5:17: note: previous declaration is here
    5 | extern "C" void matmul_dynamic(const float* M, const float* N, float* P, int j, int k, int l);
      |                 ^
1 error generated.)";

const std::string nvcc_log =
    R"(matmul.cu:3: warning #338-D: more than one instance of overloaded function "cugrade_contract::matmul_naive" has "C" linkage
  extern "C" void matmul_naive(const float* M, const float* N, float* P, int j,
                  ^

matmul.cu:6: error: declaration is incompatible with previous "cugrade_contract::matmul_tiled" (declared at line 4 of "cugrade_contract.h")
  extern "C" __host__ void matmul_tiled(double* M, const double* N, double* P, int j, int k, int l) {}
                           ^

matmul.cu:9: error: identifier "oops" is undefined)";

} // namespace

TEST(LauncherSignatures, TheHeaderDeclaresEveryLauncherWithCLinkageInItsOwnNamespace) {
  const std::string header = contract_header({"reduce_interleaved"}, "const float* input, long n");
  EXPECT_NE(header.find("namespace cugrade_contract {\nextern \"C\" void "
                        "reduce_interleaved(const float* input, long n);\n}"),
            std::string::npos)
      << header;
}

TEST(LauncherSignatures, CompilingWithoutTheContractDropsOnlyItsInclude) {
  const std::vector<std::string> compile{
      "g++", "-include", "/e/cugrade_emu.h", "-include", "/w/cugrade_contract.h", "x.cpp"};
  EXPECT_EQ(without_contract(compile),
            (std::vector<std::string>{"g++", "-include", "/e/cugrade_emu.h", "x.cpp"}));
}

TEST(LauncherSignatures, FindsGccsWarningsAndTakesThemOutOfTheLog) {
  const auto check = check_signatures(gcc_log, "matmul.cu", launcher_source, launchers, parameters);
  ASSERT_EQ(check.conflicts.size(), 2u);
  EXPECT_EQ(check.conflicts[0].launcher, "matmul_naive");
  EXPECT_EQ(check.conflicts[0].line, 3);
  EXPECT_EQ(check.conflicts[0].declared, "void matmul_naive(const float* M, const float* N, "
                                         "float* P, int j, int k)");
  EXPECT_FALSE(check.conflicts[0].only_input_constness);
  EXPECT_EQ(check.conflicts[1].launcher, "matmul_tiled");
  EXPECT_EQ(check.conflicts[1].declared, "void matmul_tiled(double* M, const double* N, "
                                         "double* P, int j, int k, int l)");
  // The student's own warning and gcc's context line stay; nothing of the contract does.
  EXPECT_EQ(check.log, "matmul.cu: In function 'void matmul_tiled(double*, const double*, "
                       "double*, int, int, int)':\nmatmul.cu:6:37: warning: unused parameter 'k' "
                       "[-Wunused-parameter]");
}

TEST(LauncherSignatures, FindsClangsErrorsAndAcceptsInputsWithoutConst) {
  const auto check = check_signatures(clang_log, "matmul.cu", launcher_source, launchers, parameters);
  ASSERT_EQ(check.conflicts.size(), 1u);
  EXPECT_EQ(check.conflicts[0].launcher, "matmul_dynamic");
  EXPECT_EQ(check.conflicts[0].declared, "void matmul_dynamic(float* M, float const* N, float* "
                                         "const P, const int j, int k, int l)");
  EXPECT_TRUE(check.conflicts[0].only_input_constness);
  EXPECT_EQ(refused_conflicts(check, "matmul.cu", parameters), "");
  EXPECT_EQ(check.log, "1 error generated.");
}

TEST(LauncherSignatures, FindsNvccsFrontEndDiagnosticsAndKeepsTheStudentsErrors) {
  const auto check = check_signatures(nvcc_log, "matmul.cu", launcher_source, launchers, parameters);
  ASSERT_EQ(check.conflicts.size(), 2u);
  EXPECT_EQ(check.conflicts[0].launcher, "matmul_naive");
  EXPECT_EQ(check.conflicts[1].launcher, "matmul_tiled");
  EXPECT_EQ(check.conflicts[1].line, 6);
  EXPECT_EQ(check.log, "matmul.cu:9: error: identifier \"oops\" is undefined");
}

TEST(LauncherSignatures, TheErrorShowsBothSignatures) {
  const auto check = check_signatures(gcc_log, "matmul.cu", launcher_source, launchers, parameters);
  EXPECT_EQ(refused_conflicts(check, "matmul.cu", parameters),
            "matmul.cu:3: error: matmul_naive is declared as `void matmul_naive(const float* M, "
            "const float* N, float* P, int j, int k)`; the contract's is `void matmul_naive(const "
            "float* M, const float* N, float* P, int j, int k, int l)`\n"
            "matmul.cu:6: error: matmul_tiled is declared as `void matmul_tiled(double* M, const "
            "double* N, double* P, int j, int k, int l)`; the contract's is `void "
            "matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l)`\n");
}

TEST(LauncherSignatures, AConflictWhoseDeclarationCannotBeFoundIsStillAnError) {
  const signature_conflict conflict{"matmul_naive", 12, "", false};
  EXPECT_EQ(
      conflict_error(conflict, "matmul.cu", parameters),
      "matmul.cu:12: error: matmul_naive is declared with other parameters; the contract's "
      "is `void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l)`");
}

TEST(LauncherSignatures, ReadsTheDeclarationAsWritten) {
  EXPECT_EQ(declaration_as_written(launcher_source, 6, "matmul_tiled"),
            "void matmul_tiled(double* M, const double* N, double* P, int j, int k, int l)");
  EXPECT_EQ(declaration_as_written("int x;\nvoid\nmatmul_naive(int a) {}\n", 2, "matmul_naive"),
            "matmul_naive(int a)");
  EXPECT_EQ(declaration_as_written(launcher_source, 6, "matmul_naive"), "");
  EXPECT_EQ(declaration_as_written(launcher_source, 99, "matmul_naive"), "");
}

TEST(LauncherSignatures, OnlyALeftOutInputConstIsAccepted) {
  const auto only_const = [](const std::string& declared) {
    return differs_only_in_input_constness(declared, parameters);
  };
  EXPECT_TRUE(only_const("void f(float* M, float* N, float* P, int j, int k, int l)"));
  EXPECT_TRUE(only_const("void f(float *M, const float* N, float* P, int, int, int)"));
  EXPECT_TRUE(only_const("void f(float* __restrict__ M, float const* N, float* const P, "
                         "const int j, int k, int l = 1)"));
  EXPECT_FALSE(only_const("void f(const float* M, const float* N, float* P, int j, int k, int l)"));
  EXPECT_FALSE(only_const("void f(float* M, float* N, float* P, int j, int k)"));
  EXPECT_FALSE(only_const("void f(double* M, double* N, double* P, int j, int k, int l)"));
  EXPECT_FALSE(only_const("void f(float* M, float* N, const float* P, int j, int k, int l)"));
  EXPECT_FALSE(only_const("void f(float* M, float* N, float* P, long j, int k, int l)"));
  EXPECT_FALSE(only_const("int f(float* M, float* N, float* P, int j, int k, int l)"));
  EXPECT_FALSE(only_const("f(float* M, float* N, float* P, int j, int k, int l)"));
  EXPECT_FALSE(only_const(""));
}
