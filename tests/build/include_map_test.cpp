#include "grader/build/include_map.h"

#include <gtest/gtest.h>

using namespace cugrade::build;

namespace {

// The shape of `g++ -E` (and `nvcc -E`) output for a source that includes <cstdio> on line 2 and
// <thread> on line 5, after a header forced in with -include.
const std::string preprocessed = R"(# 0 "/sub/scan.cu"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "/work/cugrade_contract.h" 1
namespace cugrade_contract {}
# 0 "<command-line>" 2
# 1 "/sub/scan.cu"
// a comment
# 1 "/usr/include/c++/12/cstdio" 1 3
# 1 "/usr/include/stdio.h" 1 3 4
int printf(const char*, ...);
# 2 "/usr/include/c++/12/cstdio" 2 3
# 3 "/sub/scan.cu" 2


# 1 "/usr/include/c++/12/thread" 1 3
# 1 "/usr/include/c++/12/bits/std_thread.h" 1 3
# 1 "/usr/include/stdio.h" 1 3 4
# 2 "/usr/include/c++/12/thread" 2 3
# 6 "/sub/scan.cu" 2
int main() {}
)";

} // namespace

TEST(IncludeMap, EachHeaderBelongsToTheStudentsIncludeThatFirstBroughtItIn) {
  const auto includes = includes_by_header(preprocessed, "scan.cu");
  EXPECT_EQ(includes, (std::map<std::string, int>{
                          {"/usr/include/c++/12/cstdio", 2},
                          {"/usr/include/stdio.h", 2},
                          {"/usr/include/c++/12/thread", 5},
                          {"/usr/include/c++/12/bits/std_thread.h", 5},
                      }));
}

TEST(IncludeMap, HeadersForcedInAndOtherFilesAreNotTheStudents) {
  EXPECT_TRUE(includes_by_header(preprocessed, "other.cu").empty());
  EXPECT_TRUE(includes_by_header("", "scan.cu").empty());
  EXPECT_TRUE(includes_by_header("# not a marker\n#pragma once\n", "scan.cu").empty());
}
