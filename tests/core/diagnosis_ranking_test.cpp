// The ranking rule of docs/hints.md over evidence alone, no grading run: the hint that explains
// the most failing cases first, then the more specific one, then the one that predicts the most
// passing cases; a cause that explains the faults around it outranks the faults.
#include "tests/core/core_test_support.h"

#include "grader/core/detail/diagnosis_evidence.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

namespace cugrade::grader {
namespace {

using namespace testing_support;
using detail::candidate;
using detail::specificity;
using reports::fault_kind;
using reports::hint_code;

candidate explaining(hint_code code, specificity rank, std::size_t failures, std::size_t passes) {
  candidate c{code, rank, "m", "", {"s"}, {}};
  c.failures_explained = failures;
  c.passes_predicted = passes;
  return c;
}

std::vector<hint_code> codes(const std::vector<reports::hint>& hints) {
  std::vector<hint_code> out;
  for (const auto& h : hints) {
    out.push_back(h.code);
  }
  return out;
}

TEST(HintRanking, MoreFailuresExplainedOutranksSpecificity) {
  const auto ranked = detail::rank({
      explaining(hint_code::out_of_bounds, specificity::cause, 1, 0),
      explaining(hint_code::boundary_check, specificity::pattern, 6, 0),
  });
  EXPECT_EQ(codes(ranked), (std::vector{hint_code::boundary_check, hint_code::out_of_bounds}));
}

TEST(HintRanking, EqualFailuresGoToTheMoreSpecificThenToMorePassesPredicted) {
  const auto ranked = detail::rank({
      explaining(hint_code::boundary_check, specificity::pattern, 3, 5),
      explaining(hint_code::size_threshold, specificity::pattern, 3, 9),
      explaining(hint_code{"partial_sum"}, specificity::cause, 3, 0),
  });
  EXPECT_EQ(codes(ranked), (std::vector{hint_code{"partial_sum"}, hint_code::size_threshold,
                                        hint_code::boundary_check}));
}

TEST(HintRanking, ExactTiesKeepTheRulesOrderAndContradictedHintsAreDropped) {
  auto contradicted = explaining(hint_code::race, specificity::cause, 9, 9);
  contradicted.contradictions.push_back("both runs agree");
  const auto ranked = detail::rank({
      explaining(hint_code::not_cleared, specificity::cause, 2, 0),
      contradicted,
      explaining(hint_code{"private_bins"}, specificity::cause, 2, 0),
  });
  EXPECT_EQ(codes(ranked), (std::vector{hint_code::not_cleared, hint_code{"private_bins"}}));
  EXPECT_FALSE(
      detail::ranks_before(explaining(hint_code::race, specificity::pattern, 2, 1),
                           explaining(hint_code{"lost_updates"}, specificity::pattern, 2, 1)));
}

// A square-only kernel (one Width, the launcher passes j): every square shape passes, every
// rectangle fails, some of them with a fault. The fault is a symptom of the square assumption.
TEST(HintRanking, SquareOnlyKernelIsWrongDimensionAboveItsFaultsWithTheirLine) {
  kernel_results k;
  k.kernel = "matmul_naive";
  for (const long n : {1, 16, 17, 33, 129}) {
    k.add(matmul_case(n, n, n), passed());
    k.add(matmul_case(n, n, n, "integer"), passed());
  }
  k.add(matmul_case(37, 41, 43), failed(100, 1591));
  k.add(matmul_case(53, 7, 101),
        fault(fault_kind::out_of_bounds, "kernel MatrixMulKernel, block (0,1,0), thread (4,2,0): "
                                         "read past the end of a 1484-byte device buffer at "
                                         "matmul.cu:18 (in MatrixMulKernel)"));
  auto canary = fault(fault_kind::out_of_bounds, "a store past the end of the output");
  canary.canary_overwritten = true;
  k.add(matmul_case(129, 65, 33), canary);
  k.add(matmul_case(3, 97, 5), failed(15, 15));
  const auto hints = k.hints();
  ASSERT_GE(hints.size(), 2u);
  EXPECT_EQ(hints[0].code, hint_code{"wrong_dimension"});
  EXPECT_EQ(hints[0].location, "matmul.cu:18");
  EXPECT_TRUE(has_code(hints, hint_code::out_of_bounds));
  EXPECT_FALSE(has_code(hints, hint_code::boundary_check)); // 16x16x16 passes, 37x41x43 fails
  EXPECT_NE(hints[0].message.find("right on every square one"), std::string::npos);
  k.add(matmul_case(48, 96, 64), failed(3072, 3072)); // squares off the tile still pass
  EXPECT_EQ(k.hints()[0].message.find("multiple of the tile"), std::string::npos);
}

// The lecture's first tiled kernel launched with Width = j: only square multiples of the tile
// pass; squares off the tile fault (no bounds checks) and so does the aligned rectangle 48x96x64,
// which no boundary check explains. Both assumptions are named, above the faults.
TEST(HintRanking, LectureKernelAssumingSquareMultiplesOfTheTileNamesBothAboveItsFaults) {
  kernel_results k;
  const auto oob = [] {
    return fault(fault_kind::out_of_bounds,
                 "kernel MatrixMulKernel, block (0,0,0), thread (1,0,0): "
                 "write just past the end of a 4-byte device buffer at "
                 "matmul.cu:18 (in MatrixMulKernel)");
  };
  k.add(matmul_case(1, 1, 1), oob());
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(17, 17, 17), oob());
  k.add(matmul_case(37, 41, 43), oob());
  k.add(matmul_case(48, 96, 64), failed(3072, 3072));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"wrong_dimension"});
  EXPECT_EQ(hints[0].location, "matmul.cu:18");
  EXPECT_NE(hints[0].message.find("48x96x64"), std::string::npos) << hints[0].message;
  EXPECT_NE(hints[0].message.find("multiple of the tile"), std::string::npos);
  EXPECT_TRUE(has_code(hints, hint_code::out_of_bounds));
  EXPECT_FALSE(has_code(hints, hint_code::boundary_check)); // 48x96x64 is aligned and fails
}

// A tiled kernel without its second barrier: single-phase shapes pass, multi-phase ones fail
// (48x96x64 included) and change between runs. That is the race, not the square assumption.
TEST(HintRanking, AnAlignedShapeThatChangesBetweenRunsIsARaceNotTheSquareAndTileForm) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(15, 15, 15), passed());
  auto racy = failed(100, 1000);
  racy.schedule_dependent = true;
  k.add(matmul_case(33, 33, 33), racy);
  k.add(matmul_case(48, 96, 64), racy);
  k.add(matmul_case(37, 41, 43), racy);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::race);
  EXPECT_FALSE(has_code(hints, hint_code{"wrong_dimension"}));
}

TEST(HintRanking, AnAlignedSquareFailingStillContradictsWrongDimension) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(32, 32, 32), failed());
  k.add(matmul_case(48, 96, 64), failed());
  EXPECT_FALSE(has_code(k.hints(), hint_code{"wrong_dimension"}));
}

// A two-level scan whose second level is one block: every size up to the limit passes, aligned
// or not, and every larger one fails. The threshold explains the passes boundary_check cannot.
TEST(HintRanking, SizeThresholdOutranksABoundaryCheckThatOnlyOneSizeFits) {
  kernel_results k;
  k.problem = problems::kind_named("scan");
  k.kernel = "scan_kogge_stone";
  for (const long n : {1L, 7L, 32L, 33L, 1024L, 1025L, 65537L, 131071L}) {
    k.add(n_case(k.problem, n, "real"), passed());
  }
  k.add(n_case(k.problem, 1048577, "real"), failed(786000, 1048577));
  k.add(n_case(k.problem, 1048577, "integer"), failed(786000, 1048577));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::size_threshold);
  EXPECT_NE(hints[0].message.find("up to n = 131,071"), std::string::npos) << hints[0].message;
  EXPECT_NE(hints[0].message.find("from n = 1,048,577"), std::string::npos);
  EXPECT_NE(hints[0].message.find("second level"), std::string::npos);
  EXPECT_EQ(hints[0].message.find("check the boundaries"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code::boundary_check)); // 131071 is off 16 and passes
}

TEST(HintRanking, NoThresholdWhenASmallSizeFailsOrOnlyTinySizesPass) {
  kernel_results k;
  k.problem = problems::kind_named("scan");
  k.kernel = "scan_kogge_stone";
  k.add(n_case(k.problem, 1, "real"), passed());
  k.add(n_case(k.problem, 7, "real"), passed());
  k.add(n_case(k.problem, 1025, "real"), failed());
  EXPECT_FALSE(has_code(k.hints(), hint_code::size_threshold)); // "right up to 7" says nothing
  k.add(n_case(k.problem, 4096, "real"), passed());
  EXPECT_FALSE(has_code(k.hints(), hint_code::size_threshold)); // 1025 fails below 4096
}

case_outcome bins_outcome(long n, std::size_t cleared) {
  auto o = failed(256, 256);
  o.evidence.expected.assign(256, 0.0);
  for (long i = 0; i < n; ++i) {
    o.evidence.expected[static_cast<std::size_t>((i * 37) % 256)] += 1;
  }
  o.evidence.got = o.evidence.expected;
  for (std::size_t b = cleared; b < 256; ++b) {
    o.evidence.got[b] += problems::output_poison_word;
  }
  o.comparison->total_expected = static_cast<double>(n);
  o.comparison->total_got = 1e12;
  return o;
}

// cudaMemset(bins, 0, 256) for 256 unsigned int bins: bins 0-63 right, bins 64-255 their count
// plus the poison they held. Not the private bins, which the kernel clears correctly.
TEST(HintRanking, BinsClearedByBytesNotCountersAreBytesForElements) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_privatized";
  k.add(n_case(k.problem, 1, "uniform"), bins_outcome(1, 64));
  k.add(n_case(k.problem, 1000, "uniform"), bins_outcome(1000, 64));
  k.add(n_case(k.problem, 100003, "uniform"), bins_outcome(100003, 64));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::bytes_for_elements);
  EXPECT_NE(hints[0].message.find("bins 0 to 63 are right"), std::string::npos) << hints[0].message;
  EXPECT_NE(hints[0].message.find("cudaMemset(bins, 0, 256 * sizeof(unsigned int))"),
            std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code::not_cleared)); // the private bins are fine
  EXPECT_FALSE(has_code(hints, hint_code{"private_bins"}));
  EXPECT_FALSE(has_code(hints, hint_code::poison_left));
}

TEST(HintRanking, PrivateBinsShortOfTheirCountsAreNotBytesForElements) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_privatized";
  auto o = bins_outcome(1024, 256);
  for (std::size_t b = 64; b < 256; ++b) {
    o.evidence.got[b] = 0; // never merged
  }
  o.comparison->total_got = 256;
  k.add(n_case(k.problem, 1024, "uniform"), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"private_bins"});
  EXPECT_FALSE(has_code(hints, hint_code::bytes_for_elements));
}

// A privatised kernel that clears only the first 128 of its shared bins but merges all 256: the
// global bins from 128 up hold their count plus shared garbage that differs from bin to bin.
TEST(HintRanking, SharedGarbageThatDiffersPerBinIsNotAShortMemset) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_privatized";
  auto o = bins_outcome(1000, 256);
  for (std::size_t b = 128; b < 256; ++b) {
    o.evidence.got[b] += 3e9 + static_cast<double>(b * 7919 % 1000);
  }
  k.add(n_case(k.problem, 1000, "uniform"), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_FALSE(has_code(hints, hint_code::bytes_for_elements));
  EXPECT_EQ(hints[0].code, hint_code::not_cleared);
}

case_outcome scan_outcome(std::size_t n, std::size_t right) {
  auto o = failed(n - right, n);
  for (std::size_t i = 0; i < n; ++i) {
    o.evidence.expected.push_back(static_cast<double>(i + 1));
    o.evidence.got.push_back(i < right ? static_cast<double>(i + 1) : -3.5);
  }
  return o;
}

TEST(HintRanking, AFloatOutputRightOnExactlyItsFirstQuarterIsACopyCountedInElements) {
  kernel_results k;
  k.problem = problems::kind_named("scan");
  k.kernel = "scan_brent_kung";
  k.add(n_case(k.problem, 1000, "real"), scan_outcome(1000, 250));
  k.add(n_case(k.problem, 4096, "real"), scan_outcome(4096, 1024));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::bytes_for_elements);
  EXPECT_NE(hints[0].message.find("n * sizeof(float)"), std::string::npos);
}

TEST(HintRanking, AnInfiniteElementIsWrongNotCloseToItsAnswer) {
  EXPECT_FALSE(detail::close_values(std::numeric_limits<double>::infinity(), 257.0));
  EXPECT_FALSE(detail::close_values(257.0, -std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(detail::close_values(std::nan(""), std::nan("")));
  EXPECT_TRUE(detail::close_values(1e6, 1e6 + 1));
  kernel_results k;
  k.problem = problems::kind_named("scan");
  k.kernel = "scan_kogge_stone";
  auto a = scan_outcome(1000, 250);
  auto b = scan_outcome(4096, 1024);
  for (auto* o : {&a, &b}) {
    for (std::size_t i = o->evidence.got.size() / 4; i < o->evidence.got.size(); ++i) {
      o->evidence.got[i] = std::numeric_limits<double>::infinity(); // a scan of poison overflows
    }
  }
  k.add(n_case(k.problem, 1000, "ones"), a);
  k.add(n_case(k.problem, 4096, "ones"), b);
  ASSERT_FALSE(k.hints().empty());
  EXPECT_EQ(k.hints()[0].code, hint_code::bytes_for_elements);
}

TEST(HintRanking, OneSectionOfAFixedLengthIsNoQuarter) {
  kernel_results k;
  k.problem = problems::kind_named("scan");
  k.kernel = "scan_brent_kung";
  k.add(n_case(k.problem, 4096, "real"), scan_outcome(4096, 1024)); // a quarter by chance
  k.add(n_case(k.problem, 2049, "real"), scan_outcome(2049, 1024));
  EXPECT_FALSE(has_code(k.hints(), hint_code::bytes_for_elements));
}

// The early return before the barriers: in emulation the sizes off the tile fault with barrier
// divergence. The barrier explains those failures as well as boundary_check does, and names the
// cause: it comes first.
TEST(HintRanking, BarrierDivergenceOutranksTheBoundaryPatternItProduces) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(48, 96, 64), passed());
  const std::string message = "kernel matrixMulShared, block (1,0,0), thread (5,0,0): exited while "
                              "200 thread(s) of its block wait at __syncthreads() at matmul.cu:33";
  k.add(matmul_case(17, 17, 17), fault(fault_kind::barrier_divergence, message));
  k.add(matmul_case(37, 41, 43), fault(fault_kind::barrier_divergence, message));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::barrier_divergence);
  EXPECT_EQ(hints[0].location, "matmul.cu:33");
  EXPECT_TRUE(has_code(hints, hint_code::boundary_check));
}

// The emulator's shared-array bounds name the array, the index and the size; so does the hint.
TEST(HintRanking, AWritePastASharedArrayNamesTheArrayAndTheIndex) {
  kernel_results k;
  k.problem = problems::kind_named("scan");
  k.kernel = "scan_brent_kung";
  k.add(n_case(k.problem, 1, "real"), passed());
  k.add(n_case(k.problem, 1025, "real"),
        fault(fault_kind::out_of_bounds, "kernel Brent_Kung_scan_kernel: XY[1024] written at "
                                         "scan.cu:31 by thread 511 of block 1; XY has 1024 "
                                         "elements"));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::out_of_bounds);
  EXPECT_EQ(hints[0].location, "scan.cu:31");
  EXPECT_NE(hints[0].message.find("XY[1024] is written by thread 511 of block 1"),
            std::string::npos)
      << hints[0].message;
  EXPECT_NE(hints[0].message.find("XY has 1024 elements"), std::string::npos);
  EXPECT_NE(hints[0].message.find("one element past its end"), std::string::npos);
  EXPECT_EQ(hints[0].message.find("device buffer"), std::string::npos);
}

// The emulator's words for a kernel handed a malloc'ed host array: the hint names the cause.
TEST(HintRanking, AKernelHandedHostMemorySaysToCudaMallocIt) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  k.add(n_case(k.problem, 1000, "real"),
        fault(fault_kind::out_of_bounds,
              "kernel blockSums: a write of 4 bytes at reduction.cu:23 by thread 0 of block 0 "
              "reaches host memory at 0x55d303dfc000, not device memory: ..."));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::out_of_bounds);
  EXPECT_EQ(hints[0].location, "reduction.cu:23");
  EXPECT_NE(hints[0].message.find("handed host memory"), std::string::npos) << hints[0].message;
  EXPECT_NE(hints[0].message.find("cudaMalloc a device buffer"), std::string::npos);
  EXPECT_EQ(hints[0].message.find("check the bounds"), std::string::npos);
}

TEST(HintRanking, SharedAccessWordsAreReadOnlyFromTheWholeForm) {
  const auto a = detail::shared_access_in(
      "T[-1] read at scan.cu:12 by thread 0 of block 7; T has 512 elements");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->array, "T");
  EXPECT_EQ(a->index, -1);
  EXPECT_EQ(a->access, "read");
  EXPECT_EQ(a->location, "scan.cu:12");
  EXPECT_EQ(a->block, "7");
  EXPECT_EQ(a->elements, 512);
  EXPECT_FALSE(detail::shared_access_in("T[3] written at scan.cu:12 by thread 0 of block 7; U "
                                        "has 2 elements")
                   .has_value());
  EXPECT_FALSE(detail::shared_access_in("read past the end of a 4-byte device buffer").has_value());
  const auto b = detail::shared_access_in(
      "XY[1024] written at scan.cu:31 by thread (511,0,0) of block (3,0,0); XY has 1024 elements");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->thread, "(511,0,0)");
  EXPECT_EQ(b->block, "(3,0,0)");
}

TEST(HintRanking, AnAtomicUpdatePastPrivateBinsNamesTheArray) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_privatized";
  k.add(n_case(k.problem, 1000, "uniform"),
        fault(fault_kind::out_of_bounds,
              "kernel histo_kernel: histo_s[256] updated by an atomic at histogram.cu:21 by "
              "thread 40 of block 0; histo_s has 256 elements (the index is past its end)"));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::out_of_bounds);
  EXPECT_EQ(hints[0].location, "histogram.cu:21");
  EXPECT_NE(hints[0].message.find("histo_s[256] is updated atomically by thread 40 of block 0"),
            std::string::npos)
      << hints[0].message;
  EXPECT_NE(hints[0].message.find("histo_s has 256 elements"), std::string::npos);
  EXPECT_EQ(detail::shared_access_in("T[3] updated at scan.cu:9 by thread 1 of block 0; T has 2 "
                                     "elements")
                ->access,
            "updated");
}

} // namespace
} // namespace cugrade::grader
