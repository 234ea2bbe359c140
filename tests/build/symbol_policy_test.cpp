#include "grader/build/symbol_policy.h"

#include <gtest/gtest.h>

using namespace cugrade::build;

namespace {

const std::vector<std::string> policy_launchers{"matmul_naive", "matmul_tiled", "matmul_dynamic"};

std::vector<std::string> described(const policy_verdict& verdict) {
  std::vector<std::string> out;
  for (const policy_violation& v : verdict.violations) {
    out.push_back(unlocated_description(v));
  }
  return out;
}

} // namespace

TEST(SymbolPolicy, SortsLaunchersIntoDefinedAndMissing) {
  const std::vector<symbol> symbols{{"matmul_naive", 'T'},
                                    {"_Z12matmul_tiledPKfS0_Pfiii", 'T'},
                                    {"matmul_dynamic", 'U'}}; // referenced, not defined
  const auto verdict = check_symbol_policy(symbols, policy_launchers, backend::gpu, {});
  EXPECT_EQ(verdict.defined_launchers, std::vector<std::string>{"matmul_naive"});
  EXPECT_EQ(verdict.missing_launchers,
            (std::vector<std::string>{"matmul_tiled", "matmul_dynamic"}));
  ASSERT_EQ(verdict.notes.size(), 1u);
  EXPECT_NE(
      verdict.notes[0].find("matmul_tiled(float const*, float const*, float*, int, int, int)"),
      std::string::npos)
      << verdict.notes[0];
  EXPECT_NE(verdict.notes[0].find("extern \"C\""), std::string::npos) << verdict.notes[0];
}

TEST(SymbolPolicy, ALongerNameIsNotALauncherWithCxxLinkage) {
  const std::vector<symbol> symbols{{"_Z13matmul_tiled2v", 'T'}};
  const auto verdict = check_symbol_policy(symbols, policy_launchers, backend::gpu, {});
  EXPECT_TRUE(verdict.notes.empty());
}

TEST(SymbolPolicy, ReportsDefinitionsThatCollideWithTheRuntime) {
  const name_set runtime{"malloc", "free", "_ZNSt6vectorIfSaIfEE17_M_realloc_insertEv", "_Znwm"};
  const std::vector<symbol> symbols{
      {"malloc", 'T'},
      {"free", 'W'},                                      // weak, but a C name
      {"_ZNSt6vectorIfSaIfEE17_M_realloc_insertEv", 'W'}, // the compiler's template copy
      {"_Znwm", 'T'},                                     // a strong operator new
      {"main", 'T'},
      {"helper", 't'}}; // local: nobody else sees it
  const auto verdict = check_symbol_policy(symbols, {}, backend::gpu, runtime);
  EXPECT_EQ(verdict.violations,
            (std::vector<policy_violation>{{"_Znwm", true, "which the runtime already defines"},
                                           {"free", true, "which the runtime already defines"},
                                           {"main", true, "which the grader owns"},
                                           {"malloc", true, "which the runtime already defines"}}));
  EXPECT_EQ(described(verdict)[0],
            "defines operator new(unsigned long), which the runtime already defines");
}

TEST(SymbolPolicy, HeaderTemplateCopiesMayUseReservedNamespaces) {
  const std::vector<symbol> symbols{
      {"_ZN7cugrade3emu6detail10shared_keyIA16_A16_fLi0EE3tagE", 'u'}, // emulator header template
      {"_ZN7cugrade4hackEv", 'T'},                                     // a strong definition
      {"main", 'W'}};                                                  // weak, but still main
  const auto verdict = check_symbol_policy(symbols, {}, backend::emu, {});
  EXPECT_EQ(described(verdict),
            (std::vector<std::string>{"defines cugrade::hack(), a name reserved for the grader",
                                      "defines main, which the grader owns"}));
}

TEST(SymbolPolicy, ReportsForbiddenCallsOnceEachWithTheirReason) {
  const std::vector<symbol> symbols{
      {"fopen", 'U'},
      {"fopen", 'U'},
      {"cudaMalloc", 'U'},
      {"_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE",
       'U'},
      {"pthread_create", 'w'}};
  const auto verdict = check_symbol_policy(symbols, {}, backend::gpu, {});
  EXPECT_EQ(verdict.violations,
            (std::vector<policy_violation>{
                {"_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_"
                 "EEPFvvE",
                 false, "threads are not allowed"},
                {"fopen", false, "files are not allowed"},
                {"pthread_create", false, "threads are not allowed"}}));
  EXPECT_EQ(described(verdict)[1], "fopen (files are not allowed)");
}
