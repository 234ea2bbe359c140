#include "grader/process/detail/capped_output.h"

#include <gtest/gtest.h>

#include <string>

using cugrade::process::detail::capped_output;

namespace {

std::string alphabet_run(std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    text.push_back(static_cast<char>('a' + i % 26));
  }
  return text;
}

} // namespace

TEST(CappedOutput, KeepsEverythingUnderTheLimit) {
  capped_output output(16);
  output.append("hello ");
  output.append("world");
  EXPECT_EQ(output.text(), "hello world");
  EXPECT_FALSE(output.truncated());
}

TEST(CappedOutput, KeepsHeadAndTailAndCountsTheMiddle) {
  capped_output output(10);
  output.append(alphabet_run(26));
  EXPECT_TRUE(output.truncated());
  EXPECT_EQ(output.dropped(), 16u);
  EXPECT_EQ(output.text(), "abcde\n[... 16 bytes omitted ...]\nvwxyz");
}

TEST(CappedOutput, ManySmallAppendsMatchOneLargeAppend) {
  for (const std::size_t limit : {1u, 7u, 17u, 64u}) {
    const std::string input = alphabet_run(1000);
    capped_output whole(limit);
    whole.append(input);
    capped_output pieces(limit);
    for (std::size_t at = 0; at < input.size(); at += 3) {
      pieces.append(std::string_view(input).substr(at, 3));
    }
    EXPECT_EQ(pieces.text(), whole.text()) << "limit " << limit;
    EXPECT_EQ(pieces.dropped(), input.size() - limit) << "limit " << limit;
  }
}
