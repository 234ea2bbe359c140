// The contract's checks at build time, which both backends must make alike (the same source,
// the same words): debug output allowed, forbidden uses named as the student wrote them, and
// launcher signatures held to the contract's. Each test runs with nvcc and with the emulator's
// rewrite, and reports SKIPPED, with the reason, where that backend cannot build here.

#include "grader/build/detail/build_plan.h"
#include "tests/build/build_fixture.h"

using namespace cugrade::build;
using namespace cugrade::build::testing;

namespace {

/// What the report says about sources/forbidden_host_calls.cu on either backend: each call as
/// the student wrote it, at its line, with the reason.
const std::vector<std::string> forbidden_host_calls{
    "std::system at matmul.cu:14 (processes and signals are not allowed)",
    "std::getenv at matmul.cu:15 (the environment is not allowed)",
    "std::fopen at matmul.cu:22 (files are not allowed)",
    "std::fclose at matmul.cu:24 (files are not allowed)",
    "clock_gettime at matmul.cu:27 (clocks and timing are not allowed)",
    "cudaStreamCreate at matmul.cu:33 (streams, events and graphs are not allowed)",
    "cudaStreamDestroy at matmul.cu:35 (streams, events and graphs are not allowed)"};

/// The same for sources/defines_runtime_names.cu.
const std::vector<std::string> runtime_name_definitions{
    "defines malloc at matmul.cu:4, which the runtime already defines",
    "defines main at matmul.cu:12, which the grader owns"};

/// The same for sources/forbidden_in_headers.cu: std::async starts its thread in library code,
/// named by the #include; the future's get() rethrows through exception_ptr, inlined at the line.
const std::vector<std::string> forbidden_in_headers{
    "`#include <future>` at matmul.cu:4 (threads are not allowed)",
    "`const int block = size.get();` at matmul.cu:17 (not on the allowlist)"};

/// The same for sources/uses_thrust.cu: each library #include, nothing compiled.
const std::vector<std::string> uses_thrust{
    "`#include <thrust/device_ptr.h>` at matmul.cu:4 (thrust is a library: the contract asks for "
    "your own kernels)",
    "`#include <thrust/fill.h>` at matmul.cu:5 (thrust is a library: the contract asks for your "
    "own kernels)"};

/// The same for sources/profiler_calls.cu.
const std::vector<std::string> profiler_calls{
    "cudaProfilerStart at matmul.cu:13 (device management belongs to the grader)",
    "cudaProfilerStop at matmul.cu:15 (device management belongs to the grader)"};

/// The same for sources/clock_in_kernel.cu: the launcher's clock() calls, not the kernel's.
const std::vector<std::string> launcher_clock_calls{
    "clock at matmul.cu:19 (clocks and timing are not allowed)",
    "clock at matmul.cu:21 (clocks and timing are not allowed)"};

/// The errors that sources/signature_*.cu must fail the build with, on either backend.
const std::string contract_signature =
    "(const float* M, const float* N, float* P, int j, int k, int l)`";
const std::string dropped_parameter_error =
    "matmul.cu:12: error: matmul_naive is declared as `void matmul_naive(const float* M, const "
    "float* N, float* P, int j, int k)`; the contract's is `void matmul_naive" +
    contract_signature;
const std::string double_pointer_error =
    "matmul.cu:14: error: matmul_tiled is declared as `void matmul_tiled(const double* M, const "
    "double* N, double* P, int j, int k, int l)`; the contract's is `void matmul_tiled" +
    contract_signature;

class ContractOnBothBackends : public build_test, public ::testing::WithParamInterface<backend> {
protected:
  void SetUp() override {
    if (GetParam() == backend::gpu && !find_nvcc()) {
      GTEST_SKIP() << "nvcc not found ($CUDACXX, /usr/local/cuda/bin/nvcc, PATH): the CUDA "
                      "toolkit is needed to test GPU builds";
    }
    if (GetParam() == backend::emu && !detail::emu_rewriter_available()) {
      GTEST_SKIP() << "emulator rewriter not built yet (harness/emu target cugrade_emu_rewrite)";
    }
  }

  build_request request(const std::string& source_name) {
    return request_for(source_name, GetParam());
  }
};

TEST_P(ContractOnBothBackends, AKernelMayReadTheCycleCounterALauncherMayNotTimeItself) {
  // Device code's clock64() and clock() are the SM's counter on a GPU; emulation had no clock64()
  // and sent clock() to the C library, so the kernel was build_error or forbidden there alone.
  build_request request = this->request("clock_in_kernel.cu");
  request.launchers = {"matmul_naive"};
  const build_outcome outcome = build(request);
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.forbidden_symbols, launcher_clock_calls);
}

} // namespace

TEST_P(ContractOnBothBackends, ReportsForbiddenCallsAsWrittenAtTheirLines) {
  const build_outcome outcome = build(request("forbidden_host_calls.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.forbidden_symbols, forbidden_host_calls);
}

TEST_P(ContractOnBothBackends, ReportsRedefinedRuntimeNamesAtTheirLines) {
  build_request redefines = request("defines_runtime_names.cu");
  redefines.launchers = {"matmul_naive"};
  const build_outcome outcome = build(redefines);
  EXPECT_EQ(outcome.forbidden_symbols, runtime_name_definitions);
}

TEST_P(ContractOnBothBackends, AllowsDebugOutputThroughPrintfCoutAndCerr) {
  const build_outcome outcome = build(request("../toolchains/debug_output.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.defined_launchers, std::vector<std::string>{"matmul_naive"});
  for (const auto& entry : outcome.forbidden_symbols) {
    ADD_FAILURE() << "forbidden: " << entry;
  }
}

TEST_P(ContractOnBothBackends, NamesTheIncludeWhenTheCallIsInLibraryCode) {
  const build_outcome outcome = build(request("forbidden_in_headers.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.forbidden_symbols, forbidden_in_headers);
}

TEST_P(ContractOnBothBackends, ADroppedParameterFailsTheBuildShowingBothSignatures) {
  const build_outcome outcome = build(request("signature_dropped_parameter.cu"));
  EXPECT_FALSE(outcome.ok);
  EXPECT_TRUE(outcome.library.empty());
  EXPECT_EQ(outcome.summary.substr(0, outcome.summary.find('\n')), dropped_parameter_error)
      << outcome.log;
  EXPECT_EQ(outcome.log.find("cugrade_contract"), std::string::npos) << outcome.log;
  EXPECT_EQ(outcome.warnings, 0u) << outcome.log;
}

TEST_P(ContractOnBothBackends, ADoublePointerFailsTheBuildShowingBothSignatures) {
  const build_outcome outcome = build(request("signature_double_pointer.cu"));
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.summary.substr(0, outcome.summary.find('\n')), double_pointer_error)
      << outcome.log;
  EXPECT_EQ(outcome.log.find("cugrade_contract"), std::string::npos) << outcome.log;
}

TEST_P(ContractOnBothBackends, VolatileAssignmentsWarnAsNvccDoes) {
  // C++20 deprecates a compound assignment to a volatile lvalue: nvcc (#3012-D) and g++
  // (-Wvolatile) warn once for each of lines 8-13, and nobody about the plain assignments after
  // them. Emulation gave 24 before: each twice, and "using value of simple assignment" for every
  // assignment, the rewrite's.
  const build_outcome outcome = build(request("volatile_compound_assignment.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.defined_launchers, matmul_launchers);
  EXPECT_EQ(outcome.warnings, 6u) << outcome.log;
  for (int line = 8; line <= 13; ++line) {
    EXPECT_NE(outcome.log.find("matmul.cu:" + std::to_string(line) + ": warning"),
              std::string::npos)
        << line << "\n" << outcome.log;
  }
  EXPECT_EQ(outcome.log.find("simple assignment"), std::string::npos) << outcome.log;
  for (int line = 17; line <= 22; ++line) { // the plain assignments
    EXPECT_EQ(outcome.log.find("matmul.cu:" + std::to_string(line) + ":"), std::string::npos)
        << line << "\n" << outcome.log;
  }
}

TEST_P(ContractOnBothBackends, AcceptsInputsDeclaredWithoutConst) {
  const build_outcome outcome = build(request("signature_inputs_not_const.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.defined_launchers, matmul_launchers);
  EXPECT_EQ(outcome.warnings, 0u) << outcome.log;
  EXPECT_EQ(outcome.log.find("cugrade_contract"), std::string::npos) << outcome.log;
}

TEST_P(ContractOnBothBackends, AcceptsInputsWithoutConstWhereTheCompilerRefusesThem) {
  build_request inputs = request("signature_inputs_not_const.cu");
  inputs.tools.cxx = strict_compiler();
  const build_outcome outcome = build(inputs);
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.defined_launchers, matmul_launchers);
  EXPECT_EQ(outcome.log.find("cugrade_contract"), std::string::npos) << outcome.log;
  // The same compiler still fails a real difference, with both signatures.
  build_request dropped = request("signature_dropped_parameter.cu");
  dropped.tools.cxx = strict_compiler();
  const build_outcome refused = build(dropped);
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.summary.substr(0, refused.summary.find('\n')), dropped_parameter_error)
      << refused.log;
}

INSTANTIATE_TEST_SUITE_P(Backends, ContractOnBothBackends,
                         ::testing::Values(backend::gpu, backend::emu),
                         [](const ::testing::TestParamInfo<backend>& param_info) {
                           return std::string(to_string(param_info.param));
                         });

TEST_P(ContractOnBothBackends, ALibraryIsForbiddenAtItsIncludeBeforeAnythingCompiles) {
  // With nvcc thrust compiles and its internals broke the policy in their own words (dynamic
  // loading, the environment, threads); the emulator has no thrust and said build_error.
  build_request request = this->request("uses_thrust.cu");
  request.launchers = {"matmul_naive"};
  const build_outcome outcome = build(request);
  EXPECT_FALSE(outcome.ok);
  EXPECT_TRUE(outcome.library.empty());
  EXPECT_TRUE(outcome.object.empty());
  EXPECT_EQ(outcome.forbidden_symbols, uses_thrust);
  EXPECT_NE(outcome.log.find("not compiled: `#include <thrust/device_ptr.h>` at matmul.cu:4"),
            std::string::npos)
      << outcome.log;
}

TEST_P(ContractOnBothBackends, TheHeadersStudentsIncludeByNameBuild) {
  // sm_20_atomic_functions.h, math_constants.h and the others: nvcc has them, and emulation said
  // "No such file or directory" before it had them too.
  build_request request = this->request("headers_students_name.cu");
  request.launchers = {"matmul_naive"};
  const build_outcome outcome = build(request);
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.warnings, 0u) << outcome.log;
  for (const auto& entry : outcome.forbidden_symbols) {
    ADD_FAILURE() << "forbidden: " << entry;
  }
}

TEST_P(ContractOnBothBackends, ProfilerCallsAreForbiddenAtTheirLines) {
  build_request request = this->request("profiler_calls.cu");
  request.launchers = {"matmul_naive"};
  const build_outcome outcome = build(request);
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.forbidden_symbols, profiler_calls);
}
