// The closing measure of docs/hints.md: seed-style buggy submissions under tests/fresh that the
// diagnosis rules were NOT tuned to, graded in emulation. Prints a table (kernel, the real cause,
// the first hint, match) and requires that at least 90% of them get a first hint naming the cause.

#include "tests/e2e/e2e_support.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace cugrade::e2e {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct row {
  std::string name, kernel, cause, first, message;
  bool match = false;
};

row grade_fresh(const fs::path& dir) {
  const json expect = read_json(dir / "expect.json");
  row r{dir.filename().string(), expect.at("kernel"), expect.at("cause"), "-", "", false};
  const auto out = fresh_dir(r.name);
  const auto run = run_cugrade({"grade", expect.at("assignment"), dir.string(), "--backend", "emu",
                                "--out", out.string(), "--student", r.name, "--format", "json"});
  const json report = read_json(out / (r.name + ".json"));
  std::filesystem::remove_all(out);
  if (run.exit_code != 0 || !report.is_object()) {
    r.first = "(no report: " + run.err.substr(0, 200) + ")";
    return r;
  }
  for (const auto& k : report.at("kernels")) {
    if (k.at("name") == r.kernel && !k.at("diagnosis").empty()) {
      r.first = k.at("diagnosis")[0].at("code");
      r.message = k.at("diagnosis")[0].at("message");
    }
  }
  r.match =
      r.first == r.cause && r.message.find(expect.value("cause_contains", "")) != std::string::npos;
  return r;
}

TEST(FreshBugs, FirstHintNamesTheRealCauseInAtLeastNinetyPercent) {
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(source_root() / "tests" / "fresh")) {
    if (e.is_directory()) {
      dirs.push_back(e.path());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  ASSERT_GE(dirs.size(), 10u);
  std::size_t matched = 0;
  std::string table = fmt::format("{:<34} {:<22} {:<16} {:<16} {}\n", "submission", "kernel",
                                  "real cause", "first hint", "match");
  for (const auto& dir : dirs) {
    const row r = grade_fresh(dir);
    matched += r.match ? 1 : 0;
    table += fmt::format("{:<34} {:<22} {:<16} {:<16} {}\n", r.name, r.kernel, r.cause, r.first,
                         r.match ? "yes" : "NO");
    if (!r.match) {
      table += "    first hint: " + r.message.substr(0, 300) + "\n";
    }
  }
  const double percent = 100.0 * static_cast<double>(matched) / static_cast<double>(dirs.size());
  table += fmt::format("{} of {} first hints name the real cause ({:.0f}%)\n", matched, dirs.size(),
                       percent);
  std::cout << table;
  EXPECT_GE(percent, 90.0) << table;
}

} // namespace
} // namespace cugrade::e2e
