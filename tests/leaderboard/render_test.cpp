// The real `cugrade leaderboard` over a fixture batch, then its page rendered by headless
// Chromium (Debian `chromium`): the DOM holds every entry, the bands and no student id, and a
// screenshot is kept as a test artifact at CUGRADE_LEADERBOARD_ARTIFACT (printed below).

#include "grader/leaderboard/pseudonym.h"
#include "grader/process/temp_dir.h"
#include "tests/leaderboard/fixture_batch.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <unistd.h>

namespace cugrade::leaderboard {
namespace {

namespace fs = std::filesystem;

struct ran {
  int status = -1;
  std::string output;
};

// Runs `command` through the shell with stderr joined to stdout.
ran run(const std::string& command) {
  ran r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    return r;
  }
  char buffer[4096];
  while (const auto n = std::fread(buffer, 1, sizeof buffer, pipe)) {
    r.output.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string shell_quoted(const std::string& p) {
  return "'" + p + "'";
}

std::string chromium_path() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (::access(candidate, X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

class RenderTest : public ::testing::Test {
protected:
  void SetUp() override { roster = testing::write_fixture_batch(root / "batch"); }

  ran leaderboard(const std::string& extra) {
    return run(std::string(CUGRADE_BIN) + " leaderboard " + shell_quoted((root / "batch").string()) + " --out " +
               shell_quoted((root / "site").string()) + " " + extra);
  }

  process::temp_dir m_tmp{"cugrade-leaderboard-render"};
  fs::path root = m_tmp.path(), roster;
};

TEST_F(RenderTest, CommandPublishesAndSaysWhatIsPrivate) {
  const auto r = leaderboard("--salt s3cret --title 'CS149 matmul' --roster " + shell_quoted(roster.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("matmul_tiled: 5 ranked, 5 unranked"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("private (do not publish): " + (root / "batch").string() +
                          "/leaderboard-identities.csv"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("the nickname of s9008-heidi contains a student id"), std::string::npos)
      << r.output;

  const auto unsalted = leaderboard("");
  EXPECT_EQ(unsalted.status, 2) << unsalted.output;
  EXPECT_NE(unsalted.output.find("--salt"), std::string::npos) << unsalted.output;
  const auto help = run(std::string(CUGRADE_BIN) + " leaderboard --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("--identities"), std::string::npos) << help.output;
}

TEST_F(RenderTest, ChromiumRendersThePageWithEntriesBandsAndNoStudentIds) {
  const auto chromium = chromium_path();
  if (chromium.empty()) {
    GTEST_SKIP() << "chromium is not installed (Debian package `chromium`; scripts/setup installs "
                    "it): the page was not rendered";
  }
  const auto r = leaderboard("--salt s3cret --title 'CS149 matmul' --roster " + shell_quoted(roster.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  const auto page = "file://" + (root / "site" / "index.html").string();
  const std::string flags = " --headless --no-sandbox --disable-gpu --user-data-dir=" +
                            shell_quoted((root / "chromium-profile").string()) + " ";
  const auto dom = run(chromium + flags + "--dump-dom " + shell_quoted(page) + " 2>/dev/null");
  ASSERT_EQ(dom.status, 0) << dom.output;
  const auto& html = dom.output;

  // Every entry of the tiled board, in rank order, with its band; every unranked reason.
  const std::regex row(R"re(<tr class="entry band[01]" data-band="(\d+)"><td class="num">(\d+)</td>)re");
  std::vector<std::string> rank_band;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), row); it != std::sregex_iterator();
       ++it) {
    rank_band.push_back((*it)[2].str() + "/" + (*it)[1].str());
  }
  // rank/band on tiled, dynamic and overall (publish_test.cpp says who is where).
  EXPECT_EQ(rank_band,
            (std::vector<std::string>{"1/1", "2/2", "2/2", "4/3", "5/4",          // tiled
                                      "1/1", "1/1", "3/2", "3/2", "3/2", "6/3", // dynamic
                                      "1/1", "1/1", "3/2", "4/3"}));            // overall
  for (const auto* name : {"Judy", "Speedy", "Dave", "Noisy Erin", "Frank", "Grace", "Ivan"}) {
    EXPECT_NE(html.find(name), std::string::npos) << name;
  }
  EXPECT_NE(html.find(pseudonym("s3cret", "s9003-carol")), std::string::npos);
  EXPECT_NE(html.find("timing too noisy to rank"), std::string::npos);
  EXPECT_NE(html.find("share a band"), std::string::npos) << "the page states the band rule";
  EXPECT_NE(html.find("NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(html.find("cuBLAS"), std::string::npos) << "the roofline view names the library";
  EXPECT_NE(html.find("device roof"), std::string::npos);
  // The hostile nickname stayed text: no script element exists in the rendered DOM.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert"), std::string::npos);
  for (const auto& s : testing::fixture_students()) {
    EXPECT_EQ(html.find(s.id), std::string::npos) << s.id;
    EXPECT_EQ(html.find(s.repository), std::string::npos) << s.repository;
  }

  const fs::path artifact = CUGRADE_LEADERBOARD_ARTIFACT;
  fs::create_directories(artifact.parent_path());
  fs::remove(artifact);
  const auto shot = run(chromium + flags + "--hide-scrollbars --window-size=900,2400 --screenshot=" +
                        shell_quoted(artifact.string()) + " " + shell_quoted(page));
  ASSERT_EQ(shot.status, 0) << shot.output;
  const auto png = testing::read_text(artifact);
  ASSERT_GT(png.size(), 10000U) << "the screenshot is nearly empty";
  EXPECT_EQ(png.substr(1, 3), "PNG");
  std::cout << "leaderboard screenshot: " << artifact.string() << "\n";
  RecordProperty("screenshot", artifact.string());
}

} // namespace
} // namespace cugrade::leaderboard
