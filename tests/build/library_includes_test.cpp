// CUDA's libraries named at the student's #include, as both backends read them.
#include "grader/build/library_includes.h"

#include <gtest/gtest.h>

using cugrade::build::library_includes;
using cugrade::build::library_of_header;

namespace {

std::string entry(const std::string& header, int line, const std::string& library) {
  return "`#include " + header + "` at scan.cu:" + std::to_string(line) + " (" + library +
         " is a library: the contract asks for your own kernels)";
}

} // namespace

TEST(LibraryIncludes, NamesEachLibraryHeaderAtItsLine) {
  const std::string source = "#include <cuda_runtime.h>\n"
                             "#include <thrust/scan.h>\n"
                             "  #  include \"cub/cub.cuh\"\n"
                             "#include <cublas_v2.h>\n"
                             "#include <curand_kernel.h>\n";
  const std::vector<std::string> expected{
      entry("<thrust/scan.h>", 2, "thrust"), entry("\"cub/cub.cuh\"", 3, "CUB"),
      entry("<cublas_v2.h>", 4, "cuBLAS"), entry("<curand_kernel.h>", 5, "cuRAND")};
  EXPECT_EQ(library_includes(source, "scan.cu"), expected);
}

TEST(LibraryIncludes, WhatTheCourseUsesIsNoLibrary) {
  for (const char* header : {"cuda_runtime.h", "cuda.h", "cooperative_groups.h",
                             "cooperative_groups/reduce.h", "device_launch_parameters.h",
                             "cuda_fp16.h", "iostream", "cstdio", "math.h", "my/thrust.h"}) {
    EXPECT_EQ(library_of_header(header), "") << header;
  }
  EXPECT_EQ(library_of_header("cuda/std/atomic"), "libcu++");
}

TEST(LibraryIncludes, CommentsAndIfZeroBlocksAreNotIncludes) {
  const std::string source = "// #include <thrust/reduce.h>\n"
                             "/* an older try:\n"
                             "#include <thrust/reduce.h>\n"
                             "*/\n"
                             "#if 0\n"
                             "#include <cub/block/block_reduce.cuh>\n"
                             "#ifdef NESTED\n"
                             "#endif\n"
                             "#include <thrust/sort.h>\n"
                             "#else\n"
                             "#include <thrust/fill.h>\n"
                             "#endif\n"
                             "#include <cuda_runtime.h> /* not <thrust/x.h> */\n";
  EXPECT_EQ(library_includes(source, "scan.cu"),
            std::vector<std::string>{entry("<thrust/fill.h>", 11, "thrust")});
}

TEST(LibraryIncludes, ACommentOpenerInAStringHidesNoInclude) {
  const std::string source = "static const char* opener = \"/*\";\n"
                             "#include <thrust/scan.h>\n";
  EXPECT_EQ(library_includes(source, "scan.cu"),
            std::vector<std::string>{entry("<thrust/scan.h>", 2, "thrust")});
}

TEST(LibraryIncludes, AnIncludeUnderAnyOtherConditionCounts) {
  // The condition is not evaluated: the message names the line to delete.
  const std::string source = "#ifdef USE_THRUST\n#include <thrust/reduce.h>\n#endif\n";
  EXPECT_EQ(library_includes(source, "scan.cu"),
            std::vector<std::string>{entry("<thrust/reduce.h>", 2, "thrust")});
}
