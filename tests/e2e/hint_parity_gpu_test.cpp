// The same bug gives the same first hint on both backends (label gpu): every diagnosis fixture
// (tests/fixtures/diag_*) is graded on the GPU, and each kernel's first hint code is compared
// with the one emulation gives, as recorded in the fixture's verdicts.emu.json (which the
// emulation suite keeps true). A kernel whose backends must differ is named in expect.json's
// "parity": {"<kernel>": "why"}; kernels emulation does not record (several statuses allowed)
// are skipped with a note. Without a usable GPU each test reports SKIPPED.

#include "tests/e2e/e2e_support.h"

#include <gtest/gtest.h>

namespace cugrade::e2e {
namespace {

using nlohmann::json;

std::vector<std::string> diagnosis_fixtures() {
  std::vector<std::string> out;
  for (const auto& name : fixture_names()) {
    if (name.rfind("diag_", 0) == 0) {
      out.push_back(name);
    }
  }
  return out;
}

std::string first_code(const json& kernel) {
  const json hints = kernel.value("diagnosis", json::array());
  return hints.empty() ? std::string("(none)") : hints[0].value("code", "");
}

class HintParity : public testing::TestWithParam<std::string> {};

TEST_P(HintParity, FirstHintCodeIsTheSameOnTheGpuAsInEmulation) {
  if (const auto why = gpu_unavailable_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const std::string fixture = GetParam();
  const auto dir = fixtures_dir() / fixture;
  const json expect = read_json(dir / "expect.json");
  const json emulated = read_json(dir / "verdicts.emu.json");
  ASSERT_TRUE(emulated.is_object()) << fixture << " has no verdicts.emu.json: record it with "
                                    << "CUGRADE_RECORD_VERDICTS=1 e2e_grade_emu_test";
  const auto out = fresh_dir("parity-" + fixture);
  const auto r = run_cugrade({"grade", expect.at("assignment"), dir.string(), "--backend", "gpu",
                              "--out", out.string(), "--student", fixture, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = read_json(out / (fixture + ".json"));
  ASSERT_TRUE(report.is_object()) << r.err;
  const json differs = expect.value("parity", json::object());
  for (const auto& [name, emu] : emulated.items()) {
    if (emu.value("status", "") == "missing") {
      continue;
    }
    SCOPED_TRACE(fixture + ": " + name);
    const json gpu = kernel_named(report, name);
    ASSERT_FALSE(gpu.is_null()) << "no kernel " << name << " in the GPU report";
    const std::string emu_first =
        emu.value("hints", json::array()).empty() ? "(none)" : emu["hints"][0].value("code", "");
    std::cout << "[ PARITY   ] " << fixture << " " << name << ": emu " << emu_first << ", gpu "
              << first_code(gpu) << " (" << gpu.value("status", "") << ")\n";
    if (differs.contains(name)) {
      std::cout << "[ NOTE     ] backends may differ: " << differs.at(name).get<std::string>()
                << "\n";
      continue;
    }
    EXPECT_EQ(first_code(gpu), emu_first) << gpu.value("diagnosis", json()).dump(2);
  }
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HintParity, testing::ValuesIn(diagnosis_fixtures()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

} // namespace
} // namespace cugrade::e2e
