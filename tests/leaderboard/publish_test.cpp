// `cugrade leaderboard`'s library over a batch folder of fixture reports: ranks, bands, unranked
// reasons, the schema, anonymity of everything published, the private CSV, and the Gradescope
// entries agreeing with leaderboard.json.

#include "grader/leaderboard/leaderboard_json.h"
#include "grader/leaderboard/pseudonym.h"
#include "grader/leaderboard/publish.h"
#include "grader/process/temp_dir.h"
#include "reports/leaderboard_standing.h"
#include "reports/redact.h"
#include "reports/writers.h"
#include "tests/leaderboard/fixture_batch.h"

#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace cugrade::leaderboard {
namespace {

namespace fs = std::filesystem;
using testing::fixture_students;

constexpr const char* salt = "cs149-fall-secret";

class PublishTest : public ::testing::Test {
protected:
  void SetUp() override {
    roster = testing::write_fixture_batch(root / "batch");
    options = {root / "batch",        root / "site", salt, "CS149 matmul", roster, "", {},
               "2026-11-23T12:00:00Z"};
  }

  published publish() {
    auto p = publish_leaderboard(options);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error());
    return p.ok() ? *p : published{};
  }

  process::temp_dir m_tmp{"cugrade-leaderboard"};
  fs::path root = m_tmp.path(), roster;
  publish_options options;
};

const board& board_named(const leaderboard& l, const std::string& name) {
  for (const auto& b : l.boards) {
    if (b.name == name) {
      return b;
    }
  }
  throw std::runtime_error("no board " + name);
}

struct ranked_row {
  std::string name;
  int rank, band;
  bool operator==(const ranked_row&) const = default;
  friend void PrintTo(const ranked_row& r, std::ostream* os) {
    *os << r.name << " #" << r.rank << " band " << r.band;
  }
};

std::vector<ranked_row> rows(const board& b) {
  std::vector<ranked_row> out;
  for (const auto& e : b.ranked) {
    out.push_back({e.name, *e.rank, *e.band});
  }
  return out;
}

std::string reason_of(const board& b, const std::string& name) {
  for (const auto& e : b.unranked) {
    if (e.name == name) {
      return e.where.reason;
    }
  }
  return "(not unranked)";
}

const std::string bob = "<script>alert(\"x\")</script> & 'Bobby'";

TEST_F(PublishTest, RanksBandsAndReasons) {
  const auto p = publish();
  const auto carol = pseudonym(salt, "s9003-carol");
  const auto heidi = pseudonym(salt, "s9008-heidi");
  ASSERT_EQ(p.board.boards.size(), 3U); // tiled, dynamic, overall; naive is not timed
  EXPECT_EQ(p.board.boards[0].name, "matmul_tiled");
  EXPECT_EQ(p.board.boards[2].name, "overall");

  // judy 3.0 alone; bob 2.1 and alice 2.098 overlap; carol 1.0; heidi 0.5.
  EXPECT_EQ(rows(board_named(p.board, "matmul_tiled")),
            (std::vector<ranked_row>{
                {"Judy", 1, 1}, {bob, 2, 2}, {"Speedy", 2, 2}, {carol, 4, 3}, {heidi, 5, 4}}));
  // bob [1.55, 1.65] and alice [1.45, 1.55] touch: one band. Dave and Erin are fine here.
  EXPECT_EQ(rows(board_named(p.board, "matmul_dynamic")),
            (std::vector<ranked_row>{{bob, 1, 1},
                                     {"Speedy", 1, 1},
                                     {"Dave", 3, 2},
                                     {"Noisy Erin", 3, 2},
                                     {carol, 3, 2},
                                     {heidi, 6, 3}}));
  EXPECT_EQ(rows(board_named(p.board, "overall")),
            (std::vector<ranked_row>{{bob, 1, 1}, {"Speedy", 1, 1}, {carol, 3, 2}, {heidi, 4, 3}}));

  const auto& tiled = board_named(p.board, "matmul_tiled");
  EXPECT_EQ(reason_of(tiled, "Dave"), "did not pass every correctness test (status failed)");
  EXPECT_EQ(reason_of(tiled, "Noisy Erin"),
            "timing too noisy to rank (1 of 2 benchmark shapes); a regrade on a quiet GPU "
            "measures it");
  EXPECT_EQ(reason_of(tiled, "Frank"), "graded in emulation: no GPU timing");
  EXPECT_EQ(reason_of(tiled, "Grace"),
            "not gradable (the grading itself failed; a regrade fixes it)");
  EXPECT_EQ(reason_of(tiled, "Ivan"), "no report: not graded by this batch");
  EXPECT_EQ(reason_of(board_named(p.board, "matmul_dynamic"), "Judy"),
            "timing implausible (1 of 2 benchmark shapes): see the report's performance notes");
  EXPECT_EQ(reason_of(board_named(p.board, "overall"), "Judy"),
            "not ranked on matmul_dynamic: timing implausible (1 of 2 benchmark shapes): see the "
            "report's performance notes");
  EXPECT_EQ(reason_of(board_named(p.board, "overall"), "Grace"),
            "not gradable (the grading itself failed; a regrade fixes it)");
  EXPECT_EQ(reason_of(board_named(p.board, "overall"), "Dave"),
            "not ranked on matmul_tiled: did not pass every correctness test (status failed)");
  EXPECT_EQ(p.board.devices, (std::vector<std::string>{"NVIDIA H100 80GB HBM3"}));
  // Alice's dynamic kernel says why it is slower: the kinds, costliest first, known ones only.
  for (const auto& e : board_named(p.board, "matmul_dynamic").ranked) {
    EXPECT_EQ(e.insights, e.name == "Speedy"
                              ? (std::vector<std::string>{"bank_conflicts", "low_occupancy"})
                              : std::vector<std::string>{})
        << e.name;
  }
  ASSERT_EQ(p.warnings.size(), 1U); // heidi's nickname holds her id
  EXPECT_NE(p.warnings[0].find("s9008-heidi"), std::string::npos);
}

TEST_F(PublishTest, JsonFollowsTheSchemaAndTheSchemaCatchesMistakes) {
  const auto p = publish();
  const auto doc = nlohmann::json::parse(testing::read_text(p.json_file));
  EXPECT_EQ(doc["schema"], "cugrade.leaderboard/1");
  const auto problems = validate_leaderboard(doc);
  EXPECT_TRUE(problems.empty()) << problems.front();

  auto broken = doc;
  broken["boards"][0]["ranked"][0]["rank"] = 0;
  broken["boards"][0]["ranked"][0]["student"] = "s9001-alice";
  broken["boards"][0]["unranked"][0].erase("reason");
  const auto found = validate_leaderboard(broken);
  std::string all;
  for (const auto& m : found) {
    all += m + "\n";
  }
  EXPECT_NE(all.find("/boards/0/ranked/0/rank"), std::string::npos) << all;
  EXPECT_NE(all.find("student"), std::string::npos) << all;
  EXPECT_NE(all.find("/boards/0/unranked/0"), std::string::npos) << all;
}

TEST_F(PublishTest, NothingPublishedNamesAStudentRepositoryOrCommit) {
  const auto p = publish();
  std::size_t files = 0;
  for (const auto& f : fs::recursive_directory_iterator(options.out_dir)) {
    const auto text = testing::read_text(f.path());
    ++files;
    for (const auto& s : fixture_students()) {
      for (const auto& secret : {s.id, s.repository, s.commit}) {
        EXPECT_EQ(text.find(secret), std::string::npos) << f.path() << " holds " << secret;
      }
    }
    EXPECT_EQ(text.find("gpu-node-7"), std::string::npos) << f.path() << " names the host";
    EXPECT_EQ(text.find("cannot fetch"), std::string::npos) << f.path() << " copies report text";
  }
  EXPECT_EQ(files, 2U); // leaderboard.json and index.html, nothing else
  const auto html = testing::read_text(p.html_file);
  const auto json = testing::read_text(p.json_file);
  for (const auto* text : {&html, &json}) { // an insight's kind, never its words
    EXPECT_EQ(text->find("Mds[tx]"), std::string::npos) << "an insight's words were published";
    EXPECT_EQ(text->find("matmul.cu:27"), std::string::npos) << "an insight's line was published";
  }
  EXPECT_NE(json.find("\"insights\": [\n"), std::string::npos);
  // Each kind links to its meaning at the end of the page.
  EXPECT_NE(html.find("<a class=\"insight\" href=\"#insight-bank_conflicts\">bank conflicts</a>"),
            std::string::npos);
  EXPECT_NE(html.find("<dt id=\"insight-bank_conflicts\">"), std::string::npos);
  EXPECT_NE(html.find("<dt id=\"insight-low_occupancy\">"), std::string::npos);
  EXPECT_EQ(html.find("insight-idle_lanes"), std::string::npos) << "a kind no entry has";
  EXPECT_EQ(html.find("<script"), std::string::npos) << "a hostile nickname became markup";
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Bobby&#39;"),
            std::string::npos);
}

TEST_F(PublishTest, PrivateCsvMapsEveryNameOutsideThePublishedFolder) {
  const auto p = publish();
  EXPECT_EQ(p.identities_file, options.batch_dir / "leaderboard-identities.csv");
  const auto csv = testing::read_text(p.identities_file);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "public_name,source,student,repository,commit");
  EXPECT_NE(csv.find(pseudonym(salt, "s9003-carol") +
                     ",pseudonym,s9003-carol,"
                     "https://git.example.edu/cs149/matmul-s9003-carol," +
                     testing::commit_of(3)),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("Speedy,nickname,s9001-alice,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("Ivan,nickname,s9009-ivan,https://git.example.edu/cs149/matmul-s9009-ivan,\n"),
            std::string::npos)
      << csv;
  const auto perms = fs::status(p.identities_file).permissions();
  EXPECT_EQ(perms & (fs::perms::group_all | fs::perms::others_all), fs::perms::none);
}

TEST_F(PublishTest, RefusesPrivateFilesInsideThePublishedFolder) {
  options.identities_file = options.out_dir / "who.csv";
  auto p = publish_leaderboard(options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.why().kind, failure_kind::usage);
  EXPECT_NE(p.error().find("keep the private CSV outside"), std::string::npos) << p.error();
  EXPECT_FALSE(fs::exists(options.out_dir));

  options.identities_file.clear();
  options.out_dir = root;
  p = publish_leaderboard(options);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("holds the batch folder"), std::string::npos) << p.error();
  options.out_dir = options.batch_dir / "reports" / "site";
  p = publish_leaderboard(options);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("lies among its reports"), std::string::npos) << p.error();
}

TEST_F(PublishTest, ClearErrorsForAMissingBatchOrSalt) {
  options.salt.clear();
  auto p = publish_leaderboard(options);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("s9003-carol has no usable nickname"), std::string::npos) << p.error();
  options.batch_dir = root / "nowhere";
  p = publish_leaderboard(options);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("nowhere/reports: no such folder"), std::string::npos) << p.error();
}

TEST_F(PublishTest, AnUnreadableReportIsListedUnrankedNotFatal) {
  testing::write_text(options.batch_dir / "reports" / "s9003-carol.json",
                      "{\"schema\": \"cugrade.report/1\", \"kernels\": 5}\n");
  const auto p = publish();
  const auto carol = pseudonym(salt, "s9003-carol");
  for (const auto& b : p.board.boards) {
    EXPECT_EQ(reason_of(b, carol),
              "report unreadable (the instructor can see which file in the batch folder)")
        << b.name;
  }
  EXPECT_EQ(board_named(p.board, "matmul_tiled").ranked.size(), 4U);
}

TEST_F(PublishTest, WithoutARosterEveryoneIsAPseudonym) {
  options.roster_file.clear();
  const auto p = publish();
  const auto& tiled = board_named(p.board, "matmul_tiled");
  EXPECT_EQ(tiled.ranked.front().name, pseudonym(salt, "s9010-judy"));
  EXPECT_EQ(tiled.ranked.size() + tiled.unranked.size(), 9U); // ivan is known only to the roster
}

// The Gradescope leaderboard of each submission gives the numbers leaderboard.json publishes for
// it, and the Gradescope writer of reports/ agrees on every kernel it lists.
TEST_F(PublishTest, GradescopeEntriesAgreeWithTheJson) {
  const auto p = publish();
  const auto doc = nlohmann::json::parse(testing::read_text(p.json_file));
  std::map<std::string, std::string> name_of;
  for (const auto& id : p.identities) {
    name_of[id.student] = id.public_name;
  }
  std::size_t compared = 0;
  for (const auto& [student, report] : testing::fixture_reports()) {
    std::map<std::string, double> published;
    for (const auto& b : doc["boards"]) {
      for (const auto& e : b["ranked"]) {
        if (e["name"] == name_of.at(student)) {
          published[b["name"].get<std::string>() + " speedup"] = e["speedup"].get<double>();
        }
      }
    }
    const auto entries = reports::gradescope_leaderboard(report);
    std::map<std::string, double> graded;
    for (const auto& e : entries) {
      EXPECT_EQ(e["order"], "desc");
      graded[e["name"].get<std::string>()] = e["value"].get<double>();
    }
    EXPECT_EQ(graded, published) << student;
    const auto gradescope = reports::gradescope_json(reports::redact(report));
    EXPECT_EQ(gradescope.value("leaderboard", nlohmann::ordered_json::array()), entries) << student;
    for (const auto& e : gradescope.value("leaderboard", nlohmann::ordered_json::array())) {
      const auto name = e["name"].get<std::string>();
      ASSERT_TRUE(published.contains(name)) << student << " " << name;
      EXPECT_DOUBLE_EQ(e["value"].get<double>(), published.at(name)) << student << " " << name;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0U);
}

} // namespace
} // namespace cugrade::leaderboard
