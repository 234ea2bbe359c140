// The contract's buffer names in a fault's words (grader/core/buffer_names.h): what the emulator
// reports by size, the grader says by name and element, for matrices and 1-D buffers alike.
#include "grader/core/buffer_names.h"
#include "harness/problems/buffer_words.h"

#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

const problems::problem& kind(problems::kind k) {
  return problems::get(k);
}

TEST(BufferNames, AStoreJustPastTheOutputMatrixNamesPAndTheRowPastItsEnd) {
  const problems::shape dims{.j = 17, .k = 33, .l = 9};
  const std::string message = "kernel mm, thread (0,0,0): write just past the end of a 612-byte "
                              "device buffer at matmul.cu:12";
  EXPECT_EQ(with_buffer_names(message, kind(problems::kind_named("matmul")), dims),
            "kernel mm, thread (0,0,0): write just past the end of P (a 612-byte device buffer: "
            "17 x 9 floats), at P[17][0] at matmul.cu:12");
}

TEST(BufferNames, AReadFurtherPastNamesTheElementItReached) {
  const problems::shape dims{.j = 17, .k = 33, .l = 9};
  // M is 17 x 33 (2244 bytes): 40 bytes past its end is element 571, row 17, column 10.
  EXPECT_EQ(with_buffer_names("read 40 bytes past the end of a 2244-byte device buffer",
                              kind(problems::kind_named("matmul")), dims),
            "read 40 bytes past the end of M (a 2244-byte device buffer: 17 x 33 floats), at "
            "M[17][10]");
}

TEST(BufferNames, SquareMatricesOfOneSizeAreAllNamed) {
  const problems::shape dims{.j = 16, .k = 16, .l = 16};
  EXPECT_EQ(with_buffer_names("read just past the end of a 1024-byte device buffer",
                              kind(problems::kind_named("matmul")), dims),
            "read just past the end of M, N or P (a 1024-byte device buffer: 16 x 16 floats), at "
            "M[16][0], N[16][0] or P[16][0]");
}

// The emulator adds the buffer's address; the runner said which buffer it put there, so one
// square matrix is named, not all three of its size.
TEST(BufferNames, TheRunnersPlacesNameTheOneSquareMatrixAtTheFaultsAddress) {
  const problems::shape dims{.j = 16, .k = 16, .l = 16};
  const std::vector<protocol::buffer_place> places{
      {"M", 0x7000, 1024}, {"N", 0x8000, 1024}, {"P", 0x9000, 1024}};
  EXPECT_EQ(with_buffer_names("write just past the end of a 1024-byte device buffer at 0x9000 "
                              "at matmul.cu:12",
                              kind(problems::kind_named("matmul")), dims, places),
            "write just past the end of P (a 1024-byte device buffer: 16 x 16 floats), at "
            "P[16][0] at matmul.cu:12");
  EXPECT_EQ(with_buffer_names("read 4 bytes before the start of a 1024-byte device buffer at "
                              "0x7000",
                              kind(problems::kind_named("matmul")), dims, places),
            "read 4 bytes before the start of M (a 1024-byte device buffer: 16 x 16 floats), at "
            "M[-1]");
}

TEST(BufferNames, AnAddressNoPlaceHoldsFallsBackToTheSize) {
  const problems::shape dims{.j = 16, .k = 16, .l = 16};
  const std::vector<protocol::buffer_place> places{{"P", 0x9000, 1024}};
  EXPECT_EQ(with_buffer_names("read just past the end of a 1024-byte device buffer at 0x5000",
                              kind(problems::kind_named("matmul")), dims, places),
            "read just past the end of M, N or P (a 1024-byte device buffer: 16 x 16 floats), at "
            "M[16][0], N[16][0] or P[16][0]");
}

// Host code that dereferenced a device pointer (the emulator's host guard): a buffer the runner
// placed is named with its element; one the launcher allocated loses its address, so the same
// mistake reads the same on every case.
TEST(BufferNames, AHostDereferenceNamesThePlacedElementOrTheLaunchersOwnBuffer) {
  const problems::shape dims{.j = 16, .k = 16, .l = 16};
  const std::vector<protocol::buffer_place> places{
      {"M", 0x7000, 1024}, {"N", 0x8000, 1024}, {"P", 0x9000, 1024}};
  EXPECT_EQ(with_buffer_names("host code: read of byte 68 of a 1024-byte device buffer at 0x8000: "
                              "a device pointer dereferenced in host code",
                              kind(problems::kind_named("matmul")), dims, places),
            "host code: read of N[1][1] (byte 68 of N, a 1024-byte device buffer: 16 x 16 "
            "floats): a device pointer dereferenced in host code");
  EXPECT_EQ(with_buffer_names("host code: read of byte 8 of a 64-byte device buffer at 0x5000: "
                              "a device pointer dereferenced in host code",
                              kind(problems::kind_named("matmul")), dims, places),
            "host code: read of byte 8 of a 64-byte device buffer the launcher allocated: a "
            "device pointer dereferenced in host code");
}

TEST(BufferNames, TheArticleIsTheOneTheSizeIsReadWith) {
  EXPECT_EQ(problems::sized_buffer_words(8), "an 8-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(4), "a 4-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(11), "an 11-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(18), "an 18-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(110), "a 110-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(80), "an 80-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(800), "an 800-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(8192), "an 8192-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(11000), "an 11000-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(1800), "a 1800-byte device buffer");
  EXPECT_EQ(problems::sized_buffer_words(4099), "a 4099-byte device buffer");
  const problems::shape dims{.j = 16, .k = 16, .l = 16};
  EXPECT_EQ(with_buffer_names("host code: read of byte 0 of a 8-byte device buffer at 0x5000: x",
                              kind(problems::kind_named("matmul")), dims, {}),
            "host code: read of byte 0 of an 8-byte device buffer the launcher allocated: x");
}

TEST(BufferNames, AnUnderflowNamesANegativeIndex) {
  const problems::shape dims{.n = 1000};
  EXPECT_EQ(with_buffer_names("4 bytes before the start of a 4000-byte device buffer",
                              kind(problems::kind_named("scan")), dims),
            "4 bytes before the start of input or output (a 4000-byte device buffer: 1000 "
            "floats), at input[-1] or output[-1]");
  EXPECT_EQ(with_buffer_names("write just past the end of a 4-byte device buffer",
                              kind(problems::kind_named("reduction")), problems::shape{.n = 1000}),
            "write just past the end of result (a 4-byte device buffer: 1 float), at result[1]");
}

TEST(BufferNames, ASizeNoBufferHasIsLeftAsItWas) {
  const std::string message = "read just past the end of a 64-byte device buffer";
  EXPECT_EQ(
      with_buffer_names(message, kind(problems::kind_named("histogram")), problems::shape{.n = 99}),
      message);
}

TEST(BufferNames, TheOutputIsNamedWithItsShape) {
  EXPECT_EQ(output_words(kind(problems::kind_named("histogram")), problems::shape{.n = 5}),
            "bins (the output, 256 unsigned ints)");
}

} // namespace
} // namespace cugrade::grader
