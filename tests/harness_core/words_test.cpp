// The word helpers the build's readers, diagnosis's source reading and the fetch share: a word is
// found only where it stands alone, from a given offset on, and lowering touches A-Z alone.
#include "harness/core/words.h"

#include <gtest/gtest.h>
#include <string>

namespace cugrade {
namespace {

TEST(FindWord, FindsAWordOnlyWhereItStandsAlone) {
  EXPECT_EQ(find_word("returned; return x;", "return"), 10u);
  EXPECT_EQ(find_word("x_return = 1", "return"), std::string::npos);
  EXPECT_EQ(find_word("return", "return"), 0u);
}

TEST(FindWord, StartsItsSearchAtFrom) {
  const std::string code = "if (a) return; if (b) return;";
  const std::size_t first = find_word(code, "return");
  EXPECT_EQ(first, 7u);
  EXPECT_EQ(find_word(code, "return", first), first);
  EXPECT_EQ(find_word(code, "return", first + 1), 22u);
  EXPECT_EQ(find_word(code, "return", 23), std::string::npos);
  EXPECT_EQ(find_word(code, "return", code.size() + 5), std::string::npos);
}

TEST(AsciiLowercase, LowersOnlyAsciiLetters) {
  EXPECT_EQ(ascii_lowercase("Alice.JSON"), "alice.json");
  EXPECT_EQ(ascii_lowercase("\xC3\x89t\xC3\xA9-01"), "\xC3\x89t\xC3\xA9-01");
  EXPECT_EQ(ascii_lowercase("ABCDEF0123"), "abcdef0123");
}

} // namespace
} // namespace cugrade
