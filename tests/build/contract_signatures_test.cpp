// The contract's launcher signatures have one source, the problem definitions
// (problem::launcher_parameters(), spelled from the function type the runner calls): the build
// checks submissions against it, and every starter, its README and the reference solutions
// declare each launcher exactly so.

#include "harness/problems/problem.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

const std::filesystem::path source_dir = CUGRADE_SOURCE_DIR;

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST(ContractSignatures, EveryKindSpellsItsParametersAsTheContractDoes) {
  using cugrade::problems::get;
  using cugrade::problems::kind_named;
  EXPECT_EQ(get(kind_named("matmul")).launcher_parameters(),
            "const float* M, const float* N, float* P, int j, int k, int l");
  EXPECT_EQ(get(kind_named("histogram")).launcher_parameters(),
            "const unsigned char* input, long n, unsigned int* bins");
  EXPECT_EQ(get(kind_named("reduction")).launcher_parameters(),
            "const float* input, long n, float* result");
  EXPECT_EQ(get(kind_named("scan")).launcher_parameters(),
            "const float* input, long n, float* output");
}

TEST(ContractSignatures, StartersTheirReadmesAndTheReferencesDeclareThem) {
  for (const auto* problem : cugrade::problems::all()) {
    const std::string name(problem->name());
    const std::vector<std::filesystem::path> files{
        source_dir / "assignments" / name / "starter" / "README.md",
        source_dir / "assignments" / name / "starter" / (name + ".cu"),
        source_dir / "reference" / (name + ".cu")};
    for (const auto& file : files) {
      const std::string text = text_of(file);
      ASSERT_FALSE(text.empty()) << file << " is missing";
      for (const std::string& launcher : problem->launchers()) {
        const std::string declaration =
            "extern \"C\" void " + launcher + "(" + problem->launcher_parameters() + ")";
        EXPECT_NE(text.find(declaration), std::string::npos) << file << " lacks " << declaration;
      }
    }
  }
}
