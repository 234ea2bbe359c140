// The starters and their READMEs state the same contract as the reference solutions.
#include "grader/spec/assignment_spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace cugrade::spec {
namespace {

const std::filesystem::path source_root = CUGRADE_SOURCE_DIR;

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The parameter list of `extern "C" void <launcher>(...)`, whitespace collapsed; "" if absent.
std::string launcher_parameters(const std::string& source, const std::string& launcher) {
  const std::regex declaration("extern \"C\" void " + launcher + "\\(([^)]*)\\)");
  std::smatch match;
  if (!std::regex_search(source, match, declaration))
    return {};
  return std::regex_replace(match[1].str(), std::regex("\\s+"), " ");
}

class Starter : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    auto loaded = load_assignment(GetParam(), source_root);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    m_spec = std::move(*loaded);
    m_folder = source_root / "assignments" / GetParam() / "starter";
  }
  assignment_spec m_spec;
  std::filesystem::path m_folder;
};

TEST_P(Starter, DefinesEveryLauncherWithTheReferenceSignature) {
  const std::string starter = read(m_folder / m_spec.source_file);
  const std::string reference = read(m_spec.reference_dir / m_spec.source_file);
  ASSERT_FALSE(starter.empty()) << m_folder / m_spec.source_file;
  for (const auto& kernel : m_spec.kernels) {
    const std::string expected = launcher_parameters(reference, kernel.name);
    ASSERT_FALSE(expected.empty()) << "reference lacks " << kernel.name;
    EXPECT_EQ(launcher_parameters(starter, kernel.name), expected) << kernel.name;
  }
}

TEST_P(Starter, ReadmeStatesTheSignaturesAndTheStatuses) {
  const std::string readme = read(m_folder / "README.md");
  const std::string reference = read(m_spec.reference_dir / m_spec.source_file);
  for (const auto& kernel : m_spec.kernels)
    EXPECT_EQ(launcher_parameters(readme, kernel.name), launcher_parameters(reference, kernel.name))
        << kernel.name;
  EXPECT_NE(readme.find("`" + m_spec.source_file + "`"), std::string::npos);
  EXPECT_NE(readme.find("cugrade check " + m_spec.name + " ."), std::string::npos);
  for (const char* status :
       {"passed", "failed", "error", "timeout", "missing", "build_error", "forbidden"})
    EXPECT_NE(readme.find(std::string("| `") + status + "` |"), std::string::npos) << status;
}

INSTANTIATE_TEST_SUITE_P(Assignments, Starter, ::testing::ValuesIn(known_assignments(source_root)));

} // namespace
} // namespace cugrade::spec
