#include "tests/core/core_test_support.h"

#include "reports/redact.h"

#include <cmath>
#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

using namespace testing_support;
using reports::fault_kind;
using reports::hint_code;

TEST(Diagnosis, PassingKernelGetsNoHints) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16), passed());
  EXPECT_TRUE(k.hints().empty());
}

TEST(Diagnosis, BoundaryCheckWhenOnlySizesOffTheTileFail) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(17, 17, 17), failed());
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::boundary_check);
  EXPECT_NE(hints[0].message.find("tile"), std::string::npos);
  EXPECT_FALSE(hints[0].evidence.empty());
}

TEST(Diagnosis, FailureOnAMultipleOfTheTileContradictsBoundaryAndNamesTheTileLoop) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16), failed());
  k.add(matmul_case(17, 17, 17), failed());
  k.add(matmul_case(48, 96, 64), failed());
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"tile_arithmetic"});
  EXPECT_NE(hints[0].message.find("Mds[ty][e]"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code::boundary_check));
}

TEST(Diagnosis, NaiveKernelArithmeticSpeaksOfTheInnerProductNotTiles) {
  kernel_results k;
  k.kernel = "matmul_naive";
  k.add(matmul_case(16, 16, 16), failed());
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"tile_arithmetic"});
  EXPECT_NE(hints[0].message.find("inner product"), std::string::npos);
}

TEST(Diagnosis, ExactOnIntegersIsPrecisionNotTileArithmetic) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16, "integer"), passed());
  auto o = failed();
  o.comparison->max_rel_error = 3e-4;
  k.add(matmul_case(16, 16, 16, "real"), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::wrong_result);
  EXPECT_NE(hints[0].message.find("precise"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code{"tile_arithmetic"}));
}

TEST(Diagnosis, NoBoundaryCheckWhenFailuresFollowTheData) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_sectioned";
  k.add(n_case(k.problem, 16, "uniform"), passed());
  k.add(n_case(k.problem, 17, "uniform"), passed());
  k.add(n_case(k.problem, 17, "single"), failed());
  EXPECT_FALSE(has_code(k.hints(), hint_code::boundary_check));
}

TEST(Diagnosis, NoRaceWhenBothRunsAgree) {
  kernel_results k;
  k.add(matmul_case(1, 1, 1), failed());
  EXPECT_FALSE(has_code(k.hints(), hint_code::race));
  auto racy = failed();
  racy.schedule_dependent = true;
  k.add(matmul_case(2, 2, 2), racy);
  EXPECT_TRUE(has_code(k.hints(), hint_code::race));
}

case_outcome histogram_failure(std::vector<double> expected, std::vector<double> got) {
  auto o = failed(256, 256);
  double total_expected = 0;
  double total_got = 0;
  for (std::size_t b = 0; b < got.size(); ++b) {
    total_expected += expected[b];
    const bool poison = static_cast<std::uint32_t>(got[b]) == problems::output_poison_word;
    o.comparison->poison_count += poison ? 1 : 0;
    total_got += poison ? 0 : got[b];
  }
  o.comparison->total_expected = total_expected;
  o.comparison->total_got = total_got;
  o.evidence.expected = std::move(expected);
  o.evidence.got = std::move(got);
  return o;
}

TEST(Diagnosis, BinsNotClearedComeFirstAndUnwrittenBinsAreNotBlamedOnTheGrid) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_interleaved";
  std::vector<double> expected(256, 0.0);
  expected[65] = 1;
  std::vector<double> got(256, static_cast<double>(problems::output_poison_word));
  got[65] += 1;
  k.add(n_case(k.problem, 1, "text"), histogram_failure(expected, got));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::not_cleared);
  EXPECT_NE(hints[0].message.find("cudaMemset"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code::poison_left));
  EXPECT_FALSE(has_code(hints, hint_code::race));
  EXPECT_EQ(hints[0].message.find("tile"), std::string::npos);
}

TEST(Diagnosis, PrivatisedBinsWrongFromBlockDimUpNameTheStridingLoops) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_privatized";
  std::vector<double> expected(256, 3.0);
  std::vector<double> got = expected;
  for (std::size_t b = 128; b < 256; ++b) {
    got[b] = 0;
  }
  k.add(n_case(k.problem, 768, "uniform"), histogram_failure(expected, got));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"private_bins"});
  EXPECT_NE(hints[0].message.find("128"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code{"lost_updates"})); // the kernel's atomics are fine
}

// One byte value in all n bytes, of which the kernel counted only `counted`, differently from run
// to run (a race).
case_outcome racing_single_bin(double n, double counted) {
  std::vector<double> expected(256, 0.0);
  expected[7] = n;
  std::vector<double> got = expected;
  got[7] = counted;
  auto o = histogram_failure(expected, got);
  o.schedule_dependent = true;
  return o;
}

kernel_results sectioned_histogram() {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_sectioned";
  return k;
}

TEST(Diagnosis, LostUpdatesInAPlainHistogram) {
  kernel_results k = sectioned_histogram();
  k.add(n_case(k.problem, 4096, "uniform"), passed());
  k.add(n_case(k.problem, 4096, "single"), racing_single_bin(4096, 4000));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"lost_updates"});
  EXPECT_FALSE(has_code(hints, hint_code::boundary_check));
  EXPECT_EQ(hints[0].evidence.size(), 2u); // the totals and the contention
}

// The leak: a hint built from a hidden case's totals ("the bins total 999, but n = 1000")
// names the hidden size. It keeps its kind of mistake and nothing of the hidden case.
TEST(Diagnosis, LostUpdatesSeenOnlyOnAHiddenCaseNameNothingOfIt) {
  kernel_results k = sectioned_histogram();
  k.add(n_case(k.problem, 4096, "single"), passed());
  k.add(n_case(k.problem, 1000, "single"), racing_single_bin(1000, 999), true);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"lost_updates"});
  // The histogram's own code says its mistake in its own words (diagnosis_histogram.cpp).
  EXPECT_EQ(hints[0].message, reports::hidden_hint_message(hints[0].code));
  EXPECT_EQ(hints[0].message.rfind("updates are lost (increments that are not atomic) on hidden "
                                   "tests",
                                   0),
            0u)
      << hints[0].message;
  for (const auto& h : hints) {
    for (const std::string& text : h.evidence) {
      EXPECT_EQ(text.find("1000"), std::string::npos) << text;
      EXPECT_EQ(text.find("999"), std::string::npos) << text;
    }
  }
}

TEST(Diagnosis, AHintSeenOnVisibleCasesTooSpeaksOfThemAlone) {
  kernel_results k = sectioned_histogram();
  k.add(n_case(k.problem, 1000, "single"), racing_single_bin(1000, 999), true);
  k.add(n_case(k.problem, 4096, "single"), racing_single_bin(4096, 4000));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"lost_updates"});
  EXPECT_NE(hints[0].message.find("the bins total 4000, but n = 4096"), std::string::npos)
      << hints[0].message;
  EXPECT_EQ(hints[0].message.find("1000"), std::string::npos) << hints[0].message;
}

// The hints for reduce_convergent failing one case of n ones with `got`, matched as `match`.
std::vector<reports::hint> one_reduction_case(long n, double got, partial_sum_match match) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  auto o = failed();
  o.evidence.expected = {static_cast<double>(n)};
  o.evidence.got = {got};
  o.evidence.partial_sum = match;
  k.add(n_case(k.problem, n, "ones"), o);
  return k.hints();
}

TEST(Diagnosis, ReductionOfOnlySomeBlocksIsAPartialSum) {
  const auto hints = one_reduction_case(1000, 512, partial_sum_match{0, 512, 32, true});
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"partial_sum"});
  EXPECT_NE(hints[0].message.find("first 512 elements"), std::string::npos);
}

// Blocks adding into *result without atomicAdd lose sums in any order: an input of ones shows
// only how many elements were summed, and the last block's sum alone is named as such.
TEST(Diagnosis, LostBlocksAndTheLastBlockAloneAreNamedForWhatTheyAre) {
  auto hints = one_reduction_case(10007, 3863, partial_sum_match{0, 3863, 1024, false, true});
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"partial_sum"});
  EXPECT_NE(hints[0].message.find("the sum of 3863 of its n = 10007 elements (some whole blocks "
                                  "and the last, partial one)"),
            std::string::npos)
      << hints[0].message;
  hints = one_reduction_case(1025, 1, partial_sum_match{1024, 1, 32, false});
  ASSERT_FALSE(hints.empty());
  EXPECT_NE(hints[0].message.find("its last element alone (element 1024, the last block's)"),
            std::string::npos)
      << hints[0].message;
}

TEST(Diagnosis, NaNOnEverySizeIsAResultNeverCleared) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_interleaved";
  for (const long n : {1L, 16L, 4096L}) {
    auto o = failed();
    o.comparison->nan_count = 1;
    o.evidence.expected = {static_cast<double>(n)};
    o.evidence.got = {std::nan("")};
    k.add(n_case(k.problem, n, "ones"), o);
  }
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::not_cleared);
  EXPECT_FALSE(has_code(hints, hint_code::wrong_result)); // not "a read past the end"
}

// A launcher that never writes *result leaves the poison there on every size: that is NaN too,
// but no kernel added into it, so the first hint is the unwritten output, not a missing memset.
TEST(Diagnosis, AResultStillHoldingThePoisonWasNeverWrittenNotNeverCleared) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  for (const long n : {1L, 16L, 4096L}) {
    auto o = failed();
    o.comparison->poison_count = 1;
    o.evidence.expected = {static_cast<double>(n)};
    o.evidence.got = {std::nan("")};
    k.add(n_case(k.problem, n, "ones"), o);
  }
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::poison_left);
  EXPECT_NE(hints[0].message.find("did not run the kernel"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code::not_cleared));
}

// A host loop over per-block sums that dereferences the device pointer crashes only once there
// is a second block: the crash, at its line, is the cause, not the size threshold it draws.
TEST(Diagnosis, ACrashInTheLaunchersHostCodeOutranksTheSizeItStartsAt) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  for (const long n : {1L, 16L, 1000L, 1024L}) {
    k.add(n_case(k.problem, n, "ones"), passed());
  }
  for (const long n : {1025L, 4096L, 1L << 20}) {
    k.add(n_case(k.problem, n, "ones"),
          fault(fault_kind::crash, "host code: read of byte 4 of a 8-byte device buffer the "
                                   "launcher allocated: a device pointer dereferenced in host "
                                   "code at reduction.cu:56 (in reduce_convergent)"));
  }
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::wrong_result);
  EXPECT_EQ(hints[0].location, "reduction.cu:56");
  EXPECT_NE(hints[0].message.find("dereferenced in host code"), std::string::npos);
}

// A launcher's failed CUDA call: the emulator names it; a GPU keeps only the error, so the hint
// says which calls give that error instead of blaming the launch configuration alone.
TEST(Diagnosis, AFailedCallInTheLauncherIsNamedWhereKnownAndNarrowedByItsErrorOnTheGpu) {
  const auto first_hint = [](const std::string& message) {
    kernel_results k;
    k.problem = problems::kind_named("reduction");
    k.kernel = "reduce_convergent";
    k.add(n_case(k.problem, 1000, "ones"), fault(fault_kind::launch_failure, message));
    const auto hints = k.hints();
    EXPECT_FALSE(hints.empty()) << message;
    return hints.empty() ? std::string() : hints[0].code.word() + ": " + hints[0].message;
  };
  const std::string emulated = first_hint(
      "cudaErrorInvalidValue from cudaMemcpy in the launcher (invalid argument): with "
      "cudaMemcpyDeviceToHost, the source must be device memory (from cudaMalloc), and it is "
      "host memory");
  EXPECT_EQ(emulated.rfind("launch_failure: a CUDA call in the launcher failed: "
                           "cudaErrorInvalidValue from cudaMemcpy",
                           0),
            0u)
      << emulated;
  EXPECT_EQ(emulated.find("The GPU's runtime does not say"), std::string::npos) << emulated;

  const std::string on_gpu = first_hint("cudaErrorInvalidValue at launch: invalid argument");
  EXPECT_NE(on_gpu.find("a CUDA call in the launcher failed"), std::string::npos) << on_gpu;
  EXPECT_NE(on_gpu.find("more than 1024 threads"), std::string::npos) << on_gpu;
  EXPECT_NE(on_gpu.find("cudaMemcpyDeviceToHost out of it"), std::string::npos) << on_gpu;

  const std::string direction =
      first_hint("cudaErrorInvalidMemcpyDirection at launch: invalid copy direction for memcpy");
  EXPECT_NE(direction.find("does not say which call"), std::string::npos) << direction;
  EXPECT_EQ(direction.find("1024 threads"), std::string::npos) << direction;

  const std::string configuration =
      first_hint("cudaErrorInvalidConfiguration at launch: invalid configuration argument");
  EXPECT_EQ(configuration.rfind("launch_failure: the kernel launch failed: ", 0), 0u)
      << configuration;
  EXPECT_EQ(configuration.find("cudaMemcpy"), std::string::npos) << configuration;
}

// On a GPU the launcher's own error check, where it printed the call, says which call failed.
TEST(Diagnosis, TheLaunchersPrintedCheckNamesTheCallAGpuDoesNot) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  auto o = fault(fault_kind::launch_failure, "cudaErrorInvalidValue at launch: invalid argument");
  o.output =
      "CUDA error at /tmp/w/reduction.cu:61 code=1(cudaErrorInvalidValue) \"cudaMemcpy(result, "
      "&sum, sizeof(float), cudaMemcpyDeviceToHost)\"\n";
  k.add(n_case(k.problem, 1000, "ones"), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::launch_failure);
  EXPECT_EQ(hints[0].location, "reduction.cu:61");
  EXPECT_NE(hints[0].message.find("so it was cudaMemcpy at reduction.cu:61"), std::string::npos)
      << hints[0].message;
  EXPECT_NE(hints[0].message.find("cudaMemcpyDeviceToHost out of it"), std::string::npos);
  EXPECT_EQ(hints[0].message.find("does not say which"), std::string::npos) << hints[0].message;

  // A launch's own error leaves the printed line out: the check names no runtime call there.
  kernel_results launch;
  launch.problem = k.problem;
  launch.kernel = k.kernel;
  auto refused = fault(fault_kind::launch_failure,
                       "cudaErrorInvalidConfiguration at launch: invalid configuration argument");
  refused.output = "cudaMemcpy(d_in, in, n): invalid configuration argument\n";
  launch.add(n_case(launch.problem, 1000, "ones"), refused);
  const auto launch_hints = launch.hints();
  ASSERT_FALSE(launch_hints.empty());
  EXPECT_EQ(launch_hints[0].message.rfind("the kernel launch failed: ", 0), 0u);
}

// gpuErrchk prints only the file and line of the check: the source's call on that line is named.
TEST(Diagnosis, AGpuErrchkLineNamesTheCallOnTheSourceLineItPrinted) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  k.source.runtime_calls = runtime_call_sites(
      "\n\n\n  gpuErrchk(cudaMemcpy(result, &sum, sizeof(float), cudaMemcpyDeviceToHost));\n");
  auto o = fault(fault_kind::launch_failure, "cudaErrorInvalidValue at launch: invalid argument");
  o.output = "GPUassert: invalid argument /tmp/build/matmul.cu 4\n";
  k.add(n_case(k.problem, 1000, "ones"), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].location, "matmul.cu:4");
  EXPECT_NE(
      hints[0].message.find("printed the error with matmul.cu:4, which reads "
                            "`gpuErrchk(cudaMemcpy(result, &sum, sizeof(float), "
                            "cudaMemcpyDeviceToHost));`, so it was cudaMemcpy at matmul.cu:4"),
      std::string::npos)
      << hints[0].message;

  // A line of another file, or one with no runtime call, names nothing: the generic words stay.
  for (const char* elsewhere : {"GPUassert: invalid argument /tmp/build/helpers.cuh 4\n",
                                "GPUassert: invalid argument /tmp/build/matmul.cu 2\n"}) {
    kernel_results other = k;
    other.outcomes[0].output = elsewhere;
    const auto other_hints = other.hints();
    ASSERT_FALSE(other_hints.empty());
    EXPECT_NE(other_hints[0].message.find("does not say which"), std::string::npos) << elsewhere;
  }
}

TEST(Diagnosis, AnEarlierCallsAnswerIsAStaleResult) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  auto first = passed();
  first.evidence.expected = {17};
  auto second = failed();
  second.evidence.expected = {33};
  second.evidence.got = {17};
  auto third = second;
  third.evidence.expected = {65};
  k.add(n_case(k.problem, 17, "ones"), first);
  k.add(n_case(k.problem, 33, "ones"), second);
  k.add(n_case(k.problem, 65, "ones"), third);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::stale_result);
  EXPECT_NE(hints[0].message.find("n=17/ones"), std::string::npos);
}

TEST(Diagnosis, WrongDimensionRanksAboveTheOutOfBoundsFaultItCausesAndKeepsItsLine) {
  kernel_results k;
  k.kernel = "matmul_naive";
  k.add(matmul_case(17, 17, 17), passed());
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(19, 23, 29),
        fault(fault_kind::out_of_bounds, "kernel naive, block (1,0,0), thread (3,0,0): read "
                                         "just past the end of a 1748-byte device buffer at "
                                         "matmul.cu:30 (in naive)"));
  const auto hints = k.hints();
  ASSERT_GE(hints.size(), 2u);
  EXPECT_EQ(hints[0].code, hint_code{"wrong_dimension"});
  EXPECT_EQ(hints[0].location, "matmul.cu:30");
  EXPECT_NE(hints[0].message.find("matmul.cu:30"), std::string::npos);
  EXPECT_EQ(hints[1].code, hint_code::out_of_bounds);
}

TEST(Diagnosis, BarrierDivergenceSpeaksOfBinsInAHistogramAndNamesItsLine) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_privatized";
  k.add(n_case(k.problem, 17, "uniform"),
        fault(fault_kind::barrier_divergence,
              "kernel privatized, block (0,0,0), thread (17,0,0): exited while 17 thread(s) of "
              "its block wait at __syncthreads() at histogram.cu:15"));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::barrier_divergence);
  EXPECT_EQ(hints[0].location, "histogram.cu:15");
  EXPECT_NE(hints[0].message.find("bins"), std::string::npos);
  EXPECT_EQ(hints[0].message.find("stride"), std::string::npos);
  EXPECT_EQ(hints[0].message.find("tile"), std::string::npos);
}

// A failed device assert names the assertion and its line, in the emulator's words and in those
// case_evaluation gives what a GPU printed; it is the cause, never a "wrong result".
TEST(Diagnosis, AFailedAssertNamesItsConditionAndLineOnBothBackends) {
  for (const std::string& message :
       {std::string("kernel sum, block (0,0,0), thread (2,0,0): assertion `i < n` failed at "
                    "reduction.cu:22"),
        std::string("cudaErrorAssert while running: device-side assert triggered: assertion `i "
                    "< n` failed at reduction.cu:22 by thread (224,0,0) of block (0,0,0)")}) {
    kernel_results k;
    k.problem = problems::kind_named("reduction");
    k.kernel = "reduce_convergent";
    k.add(n_case(k.problem, 1000, "ones"), passed());
    k.add(n_case(k.problem, 1001, "ones"), fault(fault_kind::device_assert, message));
    const auto hints = k.hints();
    ASSERT_FALSE(hints.empty()) << message;
    EXPECT_EQ(hints[0].code, hint_code::device_assert);
    EXPECT_EQ(hints[0].location, "reduction.cu:22");
    EXPECT_EQ(hints[0].message.rfind("the assertion `i < n` at reduction.cu:22 failed", 0), 0u)
        << hints[0].message;
    EXPECT_FALSE(has_code(hints, hint_code::wrong_result)) << message;
  }
}

TEST(Diagnosis, AMisalignedAccessIsItsOwnCauseNotAnOutOfBoundsAccess) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  k.add(n_case(k.problem, 16, "ones"),
        fault(fault_kind::misaligned_address,
              "kernel vecSum, block (0,0,0), thread (0,0,0): a 16-byte access at byte 4 of a "
              "64-byte device buffer, which is not a multiple of 16"));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::misaligned_address);
  EXPECT_NE(hints[0].message.find("multiple of 16 bytes"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code::out_of_bounds));
}

TEST(Diagnosis, CanaryFlagNotMessageWordsDecidesTheStorePastTheEnd) {
  kernel_results k;
  auto o = fault(fault_kind::out_of_bounds, "reworded: anything at all");
  o.canary_overwritten = true;
  k.add(matmul_case(17, 17, 17), o);
  auto plain = k;
  plain.outcomes[0].canary_overwritten = false;
  plain.outcomes[0].message = "a store past the end of the output overwrote the guard words";
  EXPECT_TRUE(has_code(k.hints(), hint_code::canary_overwritten));
  EXPECT_FALSE(has_code(plain.hints(), hint_code::canary_overwritten));
  EXPECT_TRUE(has_code(plain.hints(), hint_code::out_of_bounds));
}

TEST(Diagnosis, GridTooSmallIsNotABoundaryCheck) {
  kernel_results k;
  k.kernel = "matmul_naive";
  k.add(matmul_case(16, 16, 16), passed());
  auto o = failed(33, 289);
  o.comparison->poison_count = 33;
  k.add(matmul_case(17, 17, 17), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::poison_left);
  EXPECT_FALSE(has_code(hints, hint_code::boundary_check));
}

TEST(Diagnosis, SameOutcomesGiveTheSameHintsInTheSameOrder) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_sectioned";
  std::vector<double> expected(256, 1.0);
  std::vector<double> got = expected;
  got[3] = 0;
  auto o = histogram_failure(expected, got);
  o.schedule_dependent = true;
  k.add(n_case(k.problem, 256, "uniform"), o);
  k.add(n_case(k.problem, 17, "uniform"), failed());
  const auto first = k.hints();
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(k.hints(), first);
  }
  ASSERT_GE(first.size(), 2u);
  EXPECT_EQ(first[0].code, hint_code{"lost_updates"});
  EXPECT_EQ(first[1].code, hint_code::race);
}

TEST(Diagnosis, FallbackNamesTheFirstWrongValue) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  k.add(n_case(k.problem, 7, "real_offset"), failed());
  const auto hints = k.hints();
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].code, hint_code::wrong_result);
  EXPECT_NE(hints[0].message.find("n=7/real_offset"), std::string::npos);
}

TEST(Diagnosis, MultiplesOfTheTile) {
  EXPECT_TRUE(all_multiples_of(problems::kind_named("matmul"), {.j = 16, .k = 32, .l = 48}, 16));
  EXPECT_FALSE(all_multiples_of(problems::kind_named("matmul"), {.j = 16, .k = 33, .l = 48}, 16));
  EXPECT_TRUE(all_multiples_of(problems::kind_named("reduction"), {.n = 4096}, 16));
}
} // namespace
} // namespace cugrade::grader

namespace cugrade::grader {
namespace {

using namespace testing_support;
using reports::hint_code;

TEST(Diagnosis, OneChanceRepeatOfAnEarlierAnswerIsNoStaleResult) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_interleaved";
  auto first = passed();
  first.evidence.expected = {2};
  k.add(n_case(k.problem, 1, "integer"), first);
  for (const long n : {33L, 65L, 129L}) {
    auto o = failed();
    o.schedule_dependent = n != 33;
    o.evidence.expected = {static_cast<double>(n)};
    o.evidence.got = {n == 33 ? 2.0 : 5.0};
    k.add(n_case(k.problem, n, "ones"), o);
  }
  EXPECT_FALSE(has_code(k.hints(), hint_code::stale_result));
}

TEST(Diagnosis, EdgeOnlyRunToRunChangesInMatmulAreABoundaryNotARace) {
  kernel_results k;
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(48, 96, 64), passed());
  auto o = failed();
  o.schedule_dependent = true;
  k.add(matmul_case(17, 17, 17), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::boundary_check);
  EXPECT_FALSE(has_code(hints, hint_code::race));
}

TEST(Diagnosis, BytesCountedTwiceAreNotGarbage) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_interleaved";
  auto o = failed(256, 256);
  o.evidence.expected = std::vector<double>(256, 0.0);
  o.evidence.expected[193] = 257;
  o.evidence.got = o.evidence.expected;
  o.evidence.got[193] = 514;
  o.comparison->total_expected = 257;
  o.comparison->total_got = 514;
  k.add(n_case(k.problem, 257, "single"), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::wrong_result);
  EXPECT_NE(hints[0].message.find("counted twice"), std::string::npos);
  EXPECT_FALSE(has_code(hints, hint_code::not_cleared));
}

TEST(Diagnosis, ABinAboveNIsGarbageInPrivateBins) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_privatized";
  auto o = failed(256, 256);
  o.schedule_dependent = true;
  o.evidence.expected = std::vector<double>(256, 1.0);
  o.evidence.got = o.evidence.expected;
  o.evidence.got[9] = 3e9;
  o.evidence.got[10] = 7;
  k.add(n_case(k.problem, 256, "uniform"), o);
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::not_cleared);
  EXPECT_NE(hints[0].message.find("shared memory"), std::string::npos);
}

// A return before a barrier, as the source shows it (early_exits.h): the kernel computes wrong
// values on sizes off the tile, on both backends. The hint names the return and the barrier.
early_exit tiled_return() {
  return {"matrixMulShared", 20, 33, "Row >= j || Col >= l"};
}

TEST(Diagnosis, AReturnBeforeTheBarrierOutranksTheBoundaryPatternItProduces) {
  kernel_results k;
  k.source.early_exits = {tiled_return()};
  k.add(matmul_case(16, 16, 16), passed());
  k.add(matmul_case(17, 17, 17), failed());
  k.add(matmul_case(33, 31, 17), failed());
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::barrier_divergence);
  EXPECT_EQ(hints[0].location, "matmul.cu:33");
  EXPECT_NE(hints[0].message.find("return at matmul.cu:20"), std::string::npos) << hints[0].message;
  EXPECT_NE(hints[0].message.find("Row >= j || Col >= l"), std::string::npos);
  EXPECT_TRUE(has_code(hints, hint_code::boundary_check)) << "the pattern is still evidence";
}

// Threads return only where the grid overhangs the data: failures on multiples of the block are
// some other mistake's, and the rule that explains them all comes first.
TEST(Diagnosis, AReturnBeforeTheBarrierDoesNotExplainFailuresOnMultiplesOfTheBlock) {
  kernel_results k;
  k.source.early_exits = {tiled_return()};
  k.add(matmul_case(16, 16, 16), failed());
  k.add(matmul_case(32, 32, 32), failed());
  k.add(matmul_case(17, 17, 17), failed());
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"tile_arithmetic"});
  EXPECT_TRUE(has_code(hints, hint_code::barrier_divergence)) << "it still explains 17x17x17";
}

TEST(Diagnosis, AReturnBeforeTheBarrierDoesNotExplainAMemoryFault) {
  kernel_results k;
  k.source.early_exits = {tiled_return()};
  k.add(matmul_case(17, 17, 17),
        fault(fault_kind::out_of_bounds, "a read past the end of M at matmul.cu:27"));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_FALSE(has_code(hints, hint_code::barrier_divergence));
}

// The unrolled last warp without volatile or __syncwarp (warp_steps.h): a GPU sums wrongly (here
// 4 of 7 ones, which also reads as a partial sum), the emulator's sums change with the schedule.
// Both name the steps as the cause, at their first line.
TEST(Diagnosis, ALastWarpWithoutVolatileIsTheCauseOnBothBackends) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  k.source.warp_steps = {{"warpReduce", "sdata", 8, 13, 6, "sdata[tid] += sdata[tid + 32]"}};
  auto gpu_like = failed();
  gpu_like.evidence.expected = {7};
  gpu_like.evidence.got = {4};
  gpu_like.evidence.partial_sum = partial_sum_match{0, 4, 4, true};
  k.add(n_case(k.problem, 7, "ones"), gpu_like);
  auto emu_like = failed();
  emu_like.schedule_dependent = true;
  emu_like.evidence.expected = {1000.5};
  emu_like.evidence.got = {998.25};
  k.add(n_case(k.problem, 1000, "real"), emu_like);
  k.add(n_case(k.problem, 1, "ones"), passed());
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code::race);
  EXPECT_EQ(hints[0].location, "matmul.cu:8");
  EXPECT_NE(hints[0].message.find("matmul.cu:8-13 (`sdata[tid] += sdata[tid + 32]` and 5 more steps)"),
            std::string::npos)
      << hints[0].message;
  EXPECT_NE(hints[0].message.find("__syncwarp()"), std::string::npos);
}

TEST(Diagnosis, ALastWarpWithoutVolatileDoesNotExplainAFaultOrAPass) {
  kernel_results k;
  k.problem = problems::kind_named("reduction");
  k.kernel = "reduce_convergent";
  k.source.warp_steps = {{"warpReduce", "sdata", 8, 13, 6, "sdata[tid] += sdata[tid + 32]"}};
  k.add(n_case(k.problem, 1000, "real"),
        fault(fault_kind::out_of_bounds, "a read past the end of input at matmul.cu:20"));
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_NE(hints[0].code, hint_code::race);
}

// A byte read as a signed char indexes the bins (signed_bytes.h). On a GPU the counts of bytes
// 128..255 go missing (the bins total less than n: lost updates, by the values) and memcheck
// may name whatever lies before the bins; the source names the one cause on both backends.
TEST(Diagnosis, BinsIndexedByASignedCharAreTheCauseOverLostCountsAndTheFault) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_interleaved";
  k.source.signed_bytes = {{"histo_kernel", "histo", "buffer", 15, "histo[buffer[i]]"}};
  std::vector<double> expected(256, 4.0);
  std::vector<double> got = expected;
  for (std::size_t b = 128; b < 256; ++b) {
    got[b] = 0;
  }
  auto o = histogram_failure(expected, got);
  k.add(n_case(k.problem, 1024, "uniform"), o);
  k.add(n_case(k.problem, 4096, "uniform"),
        fault(fault_kind::out_of_bounds, "an atomic add 3000 bytes past the end of input"));
  k.add(n_case(k.problem, 100, "text"), passed());
  const auto hints = k.hints();
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints[0].code, hint_code{"signed_bytes"});
  EXPECT_EQ(hints[0].location, "matmul.cu:15");
  EXPECT_NE(hints[0].message.find("(unsigned char)buffer[i]"), std::string::npos)
      << hints[0].message;
  // On a GPU, memcheck's findings are placed after the hints that cause memory faults: the
  // cause stays first there too.
  EXPECT_TRUE(hints[0].code.causes_memory_faults());
}

TEST(Diagnosis, ASignedCharIndexIsNoHintWhenEveryCasePasses) {
  kernel_results k;
  k.problem = problems::kind_named("histogram");
  k.kernel = "histogram_interleaved";
  k.source.signed_bytes = {{"histo_kernel", "histo", "buffer", 15, "histo[buffer[i]]"}};
  k.add(n_case(k.problem, 100, "text"), passed());
  EXPECT_TRUE(k.hints().empty());
}

} // namespace
} // namespace cugrade::grader
