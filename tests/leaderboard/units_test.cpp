// The leaderboard's parts: the keyed hash, names, standings and their reasons, bands, escaping.

#include "grader/leaderboard/bands.h"
#include "grader/leaderboard/html_text.h"
#include "grader/leaderboard/name_folding.h"
#include "grader/leaderboard/pseudonym.h"
#include "grader/leaderboard/public_names.h"
#include "reports/leaderboard_standing.h"
#include "tests/leaderboard/fixture_batch.h"

#include <cmath>
#include <gtest/gtest.h>

namespace cugrade::leaderboard {
namespace {

TEST(Pseudonym, HmacSha256MatchesRfc4231) {
  // RFC 4231, test case 2.
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Pseudonym, StableUnderOneSaltDifferentUnderAnother) {
  EXPECT_EQ(pseudonym("course-secret", "s9001-alice"), pseudonym("course-secret", "s9001-alice"));
  EXPECT_NE(pseudonym("course-secret", "s9001-alice"), pseudonym("other-secret", "s9001-alice"));
  EXPECT_NE(pseudonym("course-secret", "s9001-alice"), pseudonym("course-secret", "s9002-bob"));
  EXPECT_EQ(pseudonym("k", "s").rfind("entrant-", 0), 0U);
  EXPECT_EQ(pseudonym("k", "s").size(), std::string("entrant-").size() + 10);
}

TEST(PublicNames, NicknameUnlessItCarriesASecretOrHasNoneNeedsSalt) {
  naming n{"salt",
           {{"s1-amy", "Amy"}, {"s2-ben", ""}, {"s3-cat", "S3-CAT the great"}, {"s4-dan", "Amy"}},
           {"s1-amy", "s2-ben", "s3-cat", "s4-dan", "https://h/r"}};
  const auto named = name_students(n);
  ASSERT_TRUE(named.ok()) << named.error();
  EXPECT_EQ(named->by_student.at("s1-amy").name, "Amy");
  EXPECT_TRUE(named->by_student.at("s1-amy").from_nickname);
  EXPECT_EQ(named->by_student.at("s2-ben").name, pseudonym("salt", "s2-ben"));
  EXPECT_EQ(named->by_student.at("s3-cat").name, pseudonym("salt", "s3-cat"));
  EXPECT_EQ(named->by_student.at("s4-dan").name, "Amy (2)");
  ASSERT_EQ(named->warnings.size(), 1U);
  EXPECT_NE(named->warnings[0].find("s3-cat"), std::string::npos);

  n.salt.clear();
  const auto unsalted = name_students(n);
  ASSERT_FALSE(unsalted.ok());
  EXPECT_EQ(unsalted.why().kind, failure_kind::usage);
  EXPECT_NE(unsalted.error().find("--salt"), std::string::npos);
}

TEST(NameFolding, ZeroWidthFullwidthCaseAndMarksFoldAway) {
  EXPECT_EQ(folded_for_matching("s2001-\u200Bbob"), "s2001-bob");       // zero-width space
  EXPECT_EQ(folded_for_matching("S2001\u00AD-BO\u200FB"), "s2001-bob"); // soft hyphen, RLM
  EXPECT_EQ(folded_for_matching("\uFF53\uFF12\uFF10\uFF10\uFF11-\uFF42\uFF4F\uFF42"),
            "s2001-bob");                                         // fullwidth
  EXPECT_EQ(folded_for_matching("b\u2060o\uFEFFb\u200D"), "bob"); // word joiner, BOM, ZWJ
  EXPECT_EQ(folded_for_matching("Stra\u00DFe"), "strasse");       // full case folding
  EXPECT_EQ(folded_for_matching("caf\u00E9"), folded_for_matching("cafe\u0301")); // composed
  EXPECT_EQ(folded_for_matching("a\xFF"
                                "b"),
            "a\uFFFDb");
}

TEST(PublicNames, NicknameHidingAnIdBehindInvisibleOrFullwidthCharactersIsRefused) {
  naming n{"salt",
           {{"s1-amy", "fan of s2-b\u200Ben"},
            {"s2-ben", "Ben"},
            {"s3-cat", "\uFF53\uFF12-\uFF42\uFF45\uFF4E"},
            {"s4-dan", "Dan\u202Enimda"},
            {"s5-eve", "\u00C9ve \U0001F469\u200D\U0001F4BB"}},
           {"s1-amy", "s2-ben", "s3-cat", "s4-dan", "s5-eve"}};
  const auto named = name_students(n);
  ASSERT_TRUE(named.ok()) << named.error();
  EXPECT_EQ(named->by_student.at("s1-amy").name, pseudonym("salt", "s1-amy"));
  EXPECT_EQ(named->by_student.at("s3-cat").name, pseudonym("salt", "s3-cat"));
  // A right-to-left override would reorder the page: refused too.
  EXPECT_EQ(named->by_student.at("s4-dan").name, pseudonym("salt", "s4-dan"));
  // Accents and an emoji with its joiner are a nickname like any other.
  EXPECT_EQ(named->by_student.at("s5-eve").name, "\u00C9ve \U0001F469\u200D\U0001F4BB");
  ASSERT_EQ(named->warnings.size(), 3U);
  EXPECT_NE(named->warnings[0].find("the nickname of s1-amy contains a student id"),
            std::string::npos)
      << named->warnings[0];
  EXPECT_NE(named->warnings[1].find("the nickname of s3-cat contains a student id"),
            std::string::npos)
      << named->warnings[1];
  EXPECT_NE(named->warnings[2].find("the nickname of s4-dan holds a control character, a "
                                    "bidirectional formatting character"),
            std::string::npos)
      << named->warnings[2];
}

entry ranked_entry(std::string name, double metric, double low, double high) {
  entry e;
  e.name = std::move(name);
  e.where = {metric, low, high, ""};
  return e;
}

TEST(Bands, OverlapChainsShareABandAndRanksSkip) {
  std::vector<entry> es{ranked_entry("c", 1.90, 1.85, 1.95), ranked_entry("a", 2.00, 1.94, 2.06),
                        ranked_entry("d", 1.50, 1.45, 1.55), ranked_entry("b", 1.80, 1.70, 1.86),
                        ranked_entry("e", 1.40, 1.35, 1.45)};
  assign_bands(es);
  // a overlaps c, c overlaps b (a and b do not overlap: the chain joins them); d is clear of b;
  // e's high touches d's low: touching counts as overlap.
  std::vector<std::string> names;
  std::vector<int> bands, ranks;
  for (const auto& e : es) {
    names.push_back(e.name);
    bands.push_back(*e.band);
    ranks.push_back(*e.rank);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "c", "b", "d", "e"}));
  EXPECT_EQ(bands, (std::vector<int>{1, 1, 1, 2, 2}));
  EXPECT_EQ(ranks, (std::vector<int>{1, 1, 1, 4, 4}));
}

TEST(Bands, DisjointIntervalsRankInOrderEqualMetricsByName) {
  std::vector<entry> es{ranked_entry("z", 1.0, 0.99, 1.01), ranked_entry("y", 3.0, 2.9, 3.1),
                        ranked_entry("x", 1.0, 0.99, 1.01)};
  assign_bands(es);
  EXPECT_EQ(es[0].name, "y");
  EXPECT_EQ(*es[0].rank, 1);
  EXPECT_EQ(es[1].name, "x");
  EXPECT_EQ(es[2].name, "z");
  EXPECT_EQ(*es[1].band, 2);
  EXPECT_EQ(*es[2].band, 2);
  EXPECT_EQ(*es[2].rank, 2);
}

TEST(Standing, GeometricMeanAndIntervalOfTheShapes) {
  const auto r = testing::fixture_reports()[0].second; // alice
  const auto s = reports::standing_of(r, "matmul_tiled");
  ASSERT_TRUE(s.where.ranked()) << s.where.reason;
  EXPECT_NEAR(*s.where.metric, std::sqrt(2.0 * 2.2), 1e-12);
  EXPECT_NEAR(s.where.low, std::sqrt(1.95 * 2.15), 1e-12);
  EXPECT_NEAR(s.where.high, std::sqrt(2.05 * 2.25), 1e-12);
  ASSERT_EQ(s.cases.size(), 2U);
  EXPECT_EQ(s.cases[0].unit, "GFLOP/s");
  EXPECT_NEAR(*s.cases[0].rate, 16000, 1e-6);
  EXPECT_NEAR(*s.cases[0].roof, 66900, 1e-6);
  EXPECT_NEAR(*s.cases[0].library_rate, 16000 * 1.0 / 0.35, 1e-6);
}

TEST(Standing, EveryReasonToStayUnranked) {
  auto r = testing::fixture_reports()[0].second;
  const auto reason = [&](const reports::report& x) {
    return reports::standing_of(x, "matmul_tiled").where.reason;
  };
  EXPECT_EQ(reason(r), "");
  auto x = r;
  x.kernels[1].status = reports::kernel_status::error;
  x.kernels[1].error_kind = reports::fault_kind::out_of_bounds;
  EXPECT_EQ(reason(x), "did not pass every correctness test (status error: out_of_bounds)");
  x = r;
  x.kernels[1].performance[0].noisy = true;
  EXPECT_EQ(reason(x), "timing too noisy to rank (1 of 2 benchmark shapes); a regrade on a quiet "
                       "GPU measures it");
  x = r;
  x.kernels[1].performance[1].suspicious = true;
  EXPECT_EQ(reason(x), "timing implausible (1 of 2 benchmark shapes): see the report's "
                       "performance notes");
  x = r;
  x.kernels[1].performance[0].speedup.reset();
  EXPECT_EQ(reason(x), "timing not verified, no speedup (1 of 2 benchmark shapes)");
  x = r;
  x.kernels[1].performance[0].reference_source.clear();
  EXPECT_EQ(reason(x), "no reference time to compare with (1 of 2 benchmark shapes)");
  x = r;
  x.kernels[1].performance[0].speedup_ci_low.reset();
  EXPECT_EQ(reason(x), "no usable confidence interval for the speedup (1 of 2 benchmark shapes)");
  x = r;
  x.kernels[1].performance.clear();
  EXPECT_EQ(reason(x), "not timed (no performance measurement in the report)");
  x = r;
  x.environment.backend = reports::backend_kind::emu;
  EXPECT_EQ(reason(x), "graded in emulation: no GPU timing");
  x = r;
  reports::mark_ungradable(x, "no GPU");
  EXPECT_EQ(reason(x), "not gradable (the grading itself failed; a regrade fixes it)");
  EXPECT_EQ(reports::standing_of(r, "matmul_other").where.reason,
            "no result for this kernel in the report");
}

TEST(Standing, KernelsWithPointsTimingOrANoteAreOnTheBoard) {
  reports::kernel_report k;
  EXPECT_FALSE(reports::is_timed_kernel(k));
  k.performance_note = "not measured in emulation (needs a GPU)"; // emulation: points read 0
  EXPECT_TRUE(reports::is_timed_kernel(k));
  k.performance_note.clear();
  k.performance_max = 2;
  EXPECT_TRUE(reports::is_timed_kernel(k));
}

TEST(Standing, OverallNeedsEveryKernel) {
  auto r = testing::fixture_reports()[0].second;
  const auto kernels = reports::timed_kernels(r);
  EXPECT_EQ(kernels, (std::vector<std::string>{"matmul_tiled", "matmul_dynamic"}));
  std::vector<reports::kernel_standing> all;
  for (const auto& k : kernels) {
    all.push_back(reports::standing_of(r, k));
  }
  const auto overall = reports::overall_standing(all);
  ASSERT_TRUE(overall.ranked());
  EXPECT_NEAR(*overall.metric, std::sqrt(std::sqrt(2.0 * 2.2) * 1.5), 1e-12);
  r.kernels[2].status = reports::kernel_status::timeout;
  all[1] = reports::standing_of(r, "matmul_dynamic");
  EXPECT_EQ(reports::overall_standing(all).reason,
            "not ranked on matmul_dynamic: did not pass every correctness test (status timeout)");
}

TEST(HtmlText, EscapesMarkupAndShowsControlsEscaped) {
  EXPECT_EQ(html_escape("<script>alert(\"x\")</script> & 'b'\x01"),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;b&#39;\\x01");
  EXPECT_EQ(html_escape("\x1b]52;c;aGk=\x07\xC2\x9B"
                        "2J\u202Eevil\x7f\xFF"),
            "\\x1b]52;c;aGk=\\x07\\x9b2J\\u202eevil\\x7f\uFFFD");
  EXPECT_EQ(html_escape("caf\u00E9 \u65E5\u672C \U0001F680\tok\n"),
            "caf\u00E9 \u65E5\u672C \U0001F680\tok\n");
}

} // namespace
} // namespace cugrade::leaderboard
