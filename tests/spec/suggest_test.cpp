#include "grader/spec/suggest.h"

#include <gtest/gtest.h>

namespace cugrade::spec {
namespace {

const std::vector<std::string> launchers = {"matmul_naive", "matmul_tiled", "matmul_dynamic"};

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("same", "same"), 0u);
  EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
}

TEST(EditDistance, IgnoresCase) {
  EXPECT_EQ(edit_distance("MatMul", "matmul"), 0u);
}

TEST(ClosestMatch, FindsOneLetterSlip) {
  EXPECT_EQ(closest_match("matmul_tiles", launchers), "matmul_tiled");
  EXPECT_EQ(closest_match("kernals", {"kernels", "tests", "name"}), "kernels");
}

TEST(ClosestMatch, FindsTransposedLetters) {
  EXPECT_EQ(closest_match("hiddne", {"visible", "hidden"}), "hidden");
}

TEST(ClosestMatch, RefusesFarFetchedGuesses) {
  EXPECT_EQ(closest_match("xyzzy", launchers), std::nullopt);
  EXPECT_EQ(closest_match("m", {"j", "k", "l"}), std::nullopt); // a guess, not a slip
  EXPECT_EQ(closest_match("J", {"j", "k", "l"}), "j");
  EXPECT_EQ(closest_match("qq", {"jkl"}), std::nullopt);
}

TEST(ClosestMatch, PrefersTheNearestAndTheEarlierOnTies) {
  EXPECT_EQ(closest_match("matmul_nave", launchers), "matmul_naive");
  EXPECT_EQ(closest_match("abcd", {"abxd", "abyd"}), "abxd");
}

TEST(ClosestMatch, OffersACandidateThatStartsWithTheWord) {
  EXPECT_EQ(closest_match("late", {"deadline", "late_policy"}), "late_policy");
  EXPECT_EQ(closest_match("la", {"late_policy"}), std::nullopt);
}

TEST(ClosestMatch, EmptyCandidatesGiveNothing) {
  EXPECT_EQ(closest_match("x", {}), std::nullopt);
}

TEST(ExpectedOneOf, ListsAndSuggests) {
  EXPECT_EQ(expected_one_of("matmul_tiles", launchers),
            "(expected one of: matmul_naive, matmul_tiled, matmul_dynamic); did you mean "
            "\"matmul_tiled\"?");
  EXPECT_EQ(expected_one_of("zzz", {"a", "b"}), "(expected one of: a, b)");
}

} // namespace
} // namespace cugrade::spec
