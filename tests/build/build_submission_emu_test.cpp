// Building for the CPU emulator: the same policy checks through the emulator's source rewrite.
// Skipped, with the reason, while this build of cugrade has no rewriter.

#include "grader/build/detail/build_plan.h"
#include "grader/build/launcher_signatures.h"
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
    return request_for(source_name, backend::emu);
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

// A region form (harness/emu/detail/region_plan.h) the compiler refuses never fails a kernel
// that compiles: the source is compiled again without the forms.
TEST_F(BuildSubmissionEmu, ARegionFormThatDoesNotCompileLeavesTheKernelItsFibers) {
  build_request request = emu_request("matmul_region_fallback.cu");
  request.launchers = {"matmul_tiled"};
  const build_outcome outcome = build(request);
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.log.find("error"), std::string::npos) << outcome.log;
}

TEST_F(BuildSubmissionEmu, AnErrorInAKernelWithARegionFormIsReportedOnce) {
  build_request request = emu_request("matmul_region_error.cu");
  request.launchers = {"matmul_tiled"};
  const build_outcome outcome = build(request);
  EXPECT_FALSE(outcome.ok);
  const std::size_t first = outcome.log.find("matmul.cu:19");
  ASSERT_NE(first, std::string::npos) << outcome.log;
  const std::size_t error = outcome.log.find("was not declared");
  ASSERT_NE(error, std::string::npos) << outcome.log;
  EXPECT_EQ(outcome.log.find("was not declared", error + 1), std::string::npos) << outcome.log;
}

TEST_F(BuildSubmissionEmu, ReportsMissingLaunchersAndCxxLinkage) {
  const build_outcome outcome = build(emu_request("matmul_linkage.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.missing_launchers,
            (std::vector<std::string>{"matmul_tiled", "matmul_dynamic"}));
  EXPECT_TRUE(has_entry_starting(outcome.notes, "matmul_tiled is defined with C++ linkage"));
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

TEST_F(BuildSubmissionEmu, TheStrictCompilerRefusesWhatGccOnlyWarnsAbout) {
  // The stand-in for clang below must really fail where g++ warns, or its test proves nothing.
  const auto header = write_contract_header(
      scratch(), matmul_launchers,
      cugrade::problems::get(cugrade::problems::kind_named("matmul")).launcher_parameters());
  ASSERT_TRUE(header.ok()) << header.error();
  const auto source = scratch() / "inputs.cpp";
  std::ofstream(source)
      << "extern \"C\" void matmul_naive(float*, float*, float*, int, int, int) {}\n";
  const auto compiles = [&](const std::filesystem::path& compiler) {
    cugrade::process::spawn_options options;
    options.argv = std::vector<std::string>{compiler.string(), "-fsyntax-only", "-include",
                                            header->string(), source.string()};
    const auto run = cugrade::process::run_process(options);
    return run && run->succeeded();
  };
  EXPECT_TRUE(compiles("g++"));
  EXPECT_FALSE(compiles(strict_compiler()));
}
