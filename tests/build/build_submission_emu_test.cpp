// Building for the CPU emulator: the same policy checks through the emulator's source rewrite.
// Skipped, with the reason, while this build of cugrade has no rewriter.

#include "grader/build/detail/build_plan.h"
#include "tests/build/build_fixture.h"

using namespace cugrade::build;
using namespace cugrade::build::testing;

namespace {

class BuildSubmissionEmu : public build_test {
protected:
  void SetUp() override {
    if (!detail::emu_rewriter_available()) {
      GTEST_SKIP() << "emulator rewriter not built yet (harness/emu target cugrade_emu_rewrite)";
    }
  }

  build_request emu_request(const std::string& source_name) {
    build_request request = request_for(source_name, backend::emu);
    request.tools.emu_include_dir = CUGRADE_TEST_EMU_INCLUDE_DIR;
    request.tools.emu_lib_dir = CUGRADE_TEST_EMU_LIB_DIR;
    return request;
  }
};

} // namespace

TEST_F(BuildSubmissionEmu, CompilesACorrectSubmissionWithEveryLauncher) {
  const build_outcome outcome = build(emu_request("matmul_ok.cu"));
  ASSERT_TRUE(outcome.ok) << outcome.log;
  EXPECT_TRUE(std::filesystem::is_regular_file(outcome.library));
  EXPECT_EQ(outcome.defined_launchers, matmul_launchers);
  EXPECT_TRUE(outcome.forbidden_symbols.empty()) << outcome.forbidden_symbols.front();
}

TEST_F(BuildSubmissionEmu, CompileErrorPointsAtTheStudentsFile) {
  const build_outcome outcome = build(emu_request("matmul_compile_error.cu"));
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.log.find("matmul.cu:8"), std::string::npos) << outcome.log;
  EXPECT_EQ(outcome.log.find(scratch().string()), std::string::npos) << outcome.log;
}

TEST_F(BuildSubmissionEmu, ReportsMissingLaunchersAndCxxLinkage) {
  const build_outcome outcome = build(emu_request("matmul_linkage.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.missing_launchers,
            (std::vector<std::string>{"matmul_tiled", "matmul_dynamic"}));
  EXPECT_TRUE(has_entry_starting(outcome.notes, "matmul_tiled is defined with C++ linkage"));
}

TEST_F(BuildSubmissionEmu, ReportsForbiddenCallsByName) {
  const build_outcome outcome = build(emu_request("forbidden_host_calls.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.forbidden_symbols, forbidden_host_calls);
}

TEST_F(BuildSubmissionEmu, ReportsRedefinedRuntimeNames) {
  build_request request = emu_request("defines_runtime_names.cu");
  request.launchers = {"matmul_naive"};
  const build_outcome outcome = build(request);
  EXPECT_EQ(outcome.forbidden_symbols, runtime_name_definitions);
}

TEST_F(BuildSubmissionEmu, AllowsEverythingTheContractAllows) {
  build_request request = emu_request("allowed_extras.cu");
  request.launchers = {"matmul_naive"};
  const build_outcome outcome = build(request);
  EXPECT_TRUE(outcome.ok) << outcome.log;
  for (const auto& entry : outcome.forbidden_symbols) {
    ADD_FAILURE() << "forbidden: " << entry;
  }
}

TEST_F(BuildSubmissionEmu, AllowsDebugOutputThroughPrintfCoutAndCerr) {
  const build_outcome outcome = build(emu_request("../toolchains/debug_output.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.defined_launchers, std::vector<std::string>{"matmul_naive"});
  EXPECT_TRUE(outcome.forbidden_symbols.empty()) << outcome.forbidden_symbols.front();
}

TEST_F(BuildSubmissionEmu, NamesTheIncludeWhenTheCallIsInLibraryCode) {
  const build_outcome outcome = build(emu_request("forbidden_in_headers.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.forbidden_symbols, forbidden_in_headers);
}

TEST_F(BuildSubmissionEmu, ADroppedParameterFailsTheBuildShowingBothSignatures) {
  const build_outcome outcome = build(emu_request("signature_dropped_parameter.cu"));
  EXPECT_FALSE(outcome.ok);
  EXPECT_TRUE(outcome.library.empty());
  EXPECT_EQ(outcome.summary.substr(0, outcome.summary.find('\n')), dropped_parameter_error)
      << outcome.log;
  EXPECT_EQ(outcome.log.find("cugrade_contract"), std::string::npos) << outcome.log;
  EXPECT_EQ(outcome.warnings, 0u) << outcome.log;
}

TEST_F(BuildSubmissionEmu, ADoublePointerFailsTheBuildShowingBothSignatures) {
  const build_outcome outcome = build(emu_request("signature_double_pointer.cu"));
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.summary.substr(0, outcome.summary.find('\n')), double_pointer_error)
      << outcome.log;
  EXPECT_EQ(outcome.log.find("cugrade_contract"), std::string::npos) << outcome.log;
}

TEST_F(BuildSubmissionEmu, AcceptsInputsDeclaredWithoutConst) {
  const build_outcome outcome = build(emu_request("signature_inputs_not_const.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.defined_launchers, matmul_launchers);
  EXPECT_EQ(outcome.warnings, 0u) << outcome.log;
  EXPECT_EQ(outcome.log.find("cugrade_contract"), std::string::npos) << outcome.log;
}
