#include "grader/fetch/detail/source.h"

#include <gtest/gtest.h>

namespace cugrade::fetch::detail {
namespace {

TEST(LooksLikeUrl, RecognisesSchemesAndScpForm) {
  EXPECT_TRUE(looks_like_url("https://github.com/course/alice.git"));
  EXPECT_TRUE(looks_like_url("ssh://git@github.com/course/alice.git"));
  EXPECT_TRUE(looks_like_url("file:///srv/repos/alice"));
  EXPECT_TRUE(looks_like_url("git@github.com:course/alice.git"));
  EXPECT_FALSE(looks_like_url("submissions/alice"));
  EXPECT_FALSE(looks_like_url("/srv/a:b/alice")); // colon after a slash: a path
  EXPECT_FALSE(looks_like_url("C:"));
}

TEST(CacheEntryName, SanitisesTheLastComponentAndHashesTheWholeUrl) {
  const std::string https = cache_entry_name("https://github.com/course/alice-matmul.git");
  EXPECT_EQ(https.substr(0, https.size() - 13), "alice-matmul");
  EXPECT_EQ(https.size(), std::string("alice-matmul").size() + 13);
  EXPECT_EQ(cache_entry_name("git@host:course/bob.git").substr(0, 4), "bob-");
  EXPECT_EQ(cache_entry_name("/home/carol/my repo/.git").substr(0, 8), "my_repo-");
  EXPECT_EQ(cache_entry_name("https://host/").substr(0, 5), "host-");
  EXPECT_EQ(cache_entry_name("https://host/..").substr(0, 7), "repo..-");
  // Same last component, different owners: different entries.
  EXPECT_NE(cache_entry_name("https://github.com/a/hw.git"),
            cache_entry_name("https://github.com/b/hw.git"));
  EXPECT_EQ(cache_entry_name("https://github.com/a/hw.git"),
            cache_entry_name("https://github.com/a/hw.git"));
}

} // namespace
} // namespace cugrade::fetch::detail
