// The runner's timing protocol on a fake backend (host memory, scripted times and clocks):
// warm-up, stopping, throttled samples, fingerprints, saved outputs, input checks, fresh call.

#include "grader/process/temp_dir.h"
#include "harness/core/error.h"
#include "harness/core/file_io.h"
#include "harness/problems/rng.h"
#include "harness/protocol/timing.h"
#include "harness/runner/case_runner.h"
#include "harness/runner/device_buffer.h"
#include "harness/runner/timed_set.h"
#include "harness/runner/timing_runner.h"
#include "tests/perf/fake_backend.h"

#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <unistd.h>

namespace cugrade::runner {
namespace {

namespace fs = std::filesystem;
using testing::fake_backend;

constexpr std::uint64_t seed = 42;

void histogram_good(const unsigned char* in, long n, unsigned* bins) {
  std::fill(bins, bins + 256, 0u);
  for (long i = 0; i < n; ++i) {
    ++bins[in[i]];
  }
}

int lazy_calls = 0;
// Does the work for its first five calls only, then returns without touching the output.
void histogram_lazy(const unsigned char* in, long n, unsigned* bins) {
  if (lazy_calls++ < 5) {
    histogram_good(in, n, bins);
  }
}

void histogram_mutating(const unsigned char* in, long n, unsigned* bins) {
  histogram_good(in, n, bins);
  const_cast<unsigned char*>(in)[0] ^= 1;
}

std::map<const float*, float> cache;
// Caches the sum by input pointer: right on every set, stale on the fresh-contents call.
void reduce_cached(const float* in, long n, float* result) {
  if (auto it = cache.find(in); it != cache.end()) {
    *result = it->second;
    return;
  }
  double s = 0;
  for (long i = 0; i < n; ++i) {
    s += in[i];
  }
  *result = cache[in] = static_cast<float>(s);
}

std::set<const void*> seen_inputs, seen_outputs;
void histogram_noting_addresses(const unsigned char* in, long n, unsigned* bins) {
  seen_inputs.insert(in);
  seen_outputs.insert(bins);
  histogram_good(in, n, bins);
}

template <class F> void* address_of(F* f) {
  return reinterpret_cast<void*>(f);
}

protocol::timing_request quick() {
  protocol::timing_request t;
  t.enabled = true;
  t.warmup_seconds = 0;
  t.min_seconds = 0.005;
  t.max_seconds = 10;
  return t;
}

struct timed {
  bool device_usable = false;
  protocol::runner_log log;
  process::temp_dir tmp{"cugrade-timing-test"}; // the run's events and saved outputs
  fs::path dir = tmp.path();
  [[nodiscard]] const protocol::timing_record& rec() const { return log.timings.at(0); }
};

protocol::plan timing_plan(problems::kind k, const fs::path& dir,
                           const protocol::timing_request& t) {
  protocol::plan p;
  p.problem = k;
  p.launcher = "test";
  p.output_dir = dir;
  p.timing = t;
  return p;
}

timed run(problems::kind k, void* launcher, fake_backend& b, const protocol::timing_request& t,
          problems::shape dims, const std::string& distribution) {
  timed out;
  auto p = timing_plan(k, out.dir, t);
  p.cases.push_back({"bench", dims, distribution, seed});
  {
    protocol::event_writer events(out.dir / protocol::events_file_name);
    read_back_buffer read_back;
    out.device_usable = time_case(problems::get(k), p, 0, launcher, b, events, read_back);
  }
  out.log = protocol::read_events(out.dir / protocol::events_file_name);
  EXPECT_EQ(out.log.timings.size(), 1u);
  return out;
}

// A saved output's elements, the whole file; none when it cannot be read.
template <typename T> std::vector<T> read_elements(const fs::path& path) {
  const auto bytes = read_file(path);
  std::vector<T> out(bytes ? bytes->size() / sizeof(T) : 0);
  if (bytes) {
    std::memcpy(out.data(), bytes->data(), out.size() * sizeof(T));
  }
  return out;
}

std::vector<std::uint32_t> expected_bins(const problems::test_case& tc, int set, int sets) {
  const auto inputs = protocol::input_set_inputs(problems::get(tc.problem), tc, set, sets);
  std::vector<std::uint32_t> bins(256, 0);
  for (const auto byte : inputs[0].bytes) {
    ++bins[std::to_integer<unsigned>(byte)];
  }
  return bins;
}

const problems::shape small{.n = 4099};

TEST(TimingRunner, StopsOnceTheSpreadIsSmallEnough) {
  fake_backend b;
  const auto r = run(problems::kind_named("histogram"), address_of(histogram_good), b, quick(),
                     small, "uniform");
  EXPECT_EQ(r.rec().stop_reason, "rsd");
  EXPECT_EQ(r.rec().event_ms.size(), 20u); // min_samples, each 1 ms >= min_seconds
  EXPECT_EQ(r.rec().host_ms.size(), r.rec().event_ms.size());
  EXPECT_GE(r.rec().warmup_calls, 3);
  EXPECT_GE(b.flushes, 20);
  EXPECT_GT(r.rec().sampling_seconds, 0.0);
  EXPECT_GE(r.rec().case_seconds, r.rec().sampling_seconds);
}

TEST(TimingRunner, StopsAtTheSampleCapWhenTimesStayNoisy) {
  fake_backend b;
  b.event_ms = [](int i) { return i % 2 == 0 ? 1.0 : 2.0; };
  auto t = quick();
  t.max_samples = 40;
  t.target_rse = 1e-9;
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  EXPECT_EQ(r.rec().stop_reason, "max_samples");
  EXPECT_EQ(r.rec().event_ms.size(), 40u);
}

TEST(TimingRunner, DropsSamplesTakenAtAThrottledClock) {
  fake_backend b;
  b.clock_mhz = [](int i) { return i % 4 == 3 ? 1500.0 : 1980.0; };
  auto t = quick();
  t.min_samples = 30;
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  EXPECT_GT(r.rec().dropped_throttled, 0);
  EXPECT_EQ(r.rec().max_sm_clock_mhz, 1980.0);
  for (const double c : r.rec().sm_clock_mhz) {
    EXPECT_EQ(c, 1980.0);
  }
  // Every sample is fingerprinted, kept or dropped, then each set's last call and the fresh call.
  EXPECT_EQ(r.rec().checks.size(), r.rec().event_ms.size() +
                                       static_cast<std::size_t>(r.rec().dropped_throttled) +
                                       static_cast<std::size_t>(t.input_sets) + 1);
}

TEST(TimingRunner, DropsASampleWhoseClockFellDuringTheCall) {
  fake_backend b;
  // Two reads per sample, before and after; only the read after sample 5 is low.
  b.clock_mhz = [](int i) { return i == 11 ? 1200.0 : 1980.0; };
  auto t = quick();
  t.min_samples = 20;
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  EXPECT_EQ(r.rec().dropped_throttled, 1);
  // The calls after sampling (each set's last, the fresh one) read no clock.
  EXPECT_EQ(b.clock_reads, 2 * static_cast<int>(r.rec().checks.size() - 1 -
                                                static_cast<std::size_t>(t.input_sets)));
}

TEST(TimingRunner, GatesEveryCallAndRecordsEachSamplesInputSet) {
  fake_backend b;
  auto t = quick();
  t.min_samples = 9;
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  EXPECT_TRUE(r.rec().gated);
  EXPECT_EQ(b.gated_calls, b.timed_calls - 1); // the first warm-up call loads the kernels
  EXPECT_EQ(r.rec().sample_sets, (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3, 0}));
}

TEST(TimingRunner, TimesUngatedWhenThePlanSaysSo) {
  fake_backend b;
  auto t = quick();
  t.gate_launches = false;
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  EXPECT_FALSE(r.rec().gated);
  EXPECT_EQ(b.gated_calls, 0);
  EXPECT_EQ(r.rec().stop_reason, "rsd");
}

TEST(TimingRunner, GoesOnUngatedWhenTheLauncherWaitsOnTheDevice) {
  fake_backend b;
  b.waits_on_device = [](int) { return true; };            // a launcher that synchronises inside
  b.event_ms = [](int i) { return i == 0 ? 100.0 : 1.0; }; // the expired gate's wait
  const auto r = run(problems::kind_named("histogram"), address_of(histogram_good), b, quick(),
                     small, "uniform");
  EXPECT_EQ(b.gated_calls, 1); // the second warm-up call only (the first is never gated)
  EXPECT_FALSE(r.rec().gated);
  EXPECT_NE(r.rec().note.find("waits on the device"), std::string::npos) << r.rec().note;
  EXPECT_EQ(r.rec().stop_reason, "rsd");
  for (const double ms : r.rec().event_ms) {
    EXPECT_EQ(ms, 1.0);
  }
}

TEST(TimingRunner, DoesNotKeepTheSampleWhoseGateExpired) {
  fake_backend b;
  int first_sample = -1;
  b.waits_on_device = [&](int i) { return i == first_sample; };
  b.event_ms = [&](int i) { return i == first_sample ? 100.0 : 1.0; };
  auto t = quick();
  t.warmup_calls = 3;
  first_sample = 3; // warm-up is calls 0-2 (warmup_seconds is 0)
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  EXPECT_FALSE(r.rec().gated);
  EXPECT_EQ(b.gated_calls, 3); // warm-up calls 1 and 2, then the first sample
  // Every call is fingerprinted (plus each set's last call and the fresh call); the expired
  // one's time is not kept.
  EXPECT_EQ(r.rec().checks.size(),
            r.rec().event_ms.size() + 2 + static_cast<std::size_t>(t.input_sets));
  EXPECT_EQ(r.rec().sample_sets.front(), 1);
  for (const double ms : r.rec().event_ms) {
    EXPECT_EQ(ms, 1.0);
  }
}

TEST(TimingRunner, RotatesInputsButKeepsOneOutputAddress) {
  fake_backend b;
  seen_inputs.clear();
  seen_outputs.clear();
  const auto r = run(problems::kind_named("histogram"), address_of(histogram_noting_addresses), b,
                     quick(), small, "uniform");
  EXPECT_EQ(seen_inputs.size(), 4u); // one per input set
  EXPECT_EQ(seen_outputs.size(), 1u);
  EXPECT_TRUE(r.device_usable);
}

TEST(TimingRunner, SavesTheFirstAndLastOutputOfEachSetAndTheFreshCall) {
  fake_backend b;
  const auto t = quick();
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  const problems::test_case tc{"bench", problems::kind_named("histogram"), small, "uniform", seed};
  std::map<std::string, int> roles;
  for (const auto& s : r.rec().saved) {
    ++roles[s.role];
    const int sets = t.input_sets;
    EXPECT_EQ(read_elements<std::uint32_t>(r.dir / s.file), expected_bins(tc, s.set, sets))
        << s.file;
  }
  EXPECT_EQ(roles["first"], t.input_sets);
  EXPECT_EQ(roles["last"], t.input_sets);
  EXPECT_EQ(roles["fresh"], 1);
  EXPECT_FALSE(r.rec().input_modified);
  EXPECT_EQ(b.plain_calls, t.input_sets + 1); // each set's last call, then the fresh call
}

// A last output equal to the set's first is compared on the device and names the first's file:
// no read-back and no file of its own. Every call is still fingerprinted.
TEST(TimingRunner, ALastOutputEqualToTheFirstNamesTheFirstsFileAndWritesNone) {
  fake_backend b;
  const auto t = quick();
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  int lasts = 0;
  for (const auto& s : r.rec().saved) {
    if (s.role == "last") {
      ++lasts;
      EXPECT_EQ(s.file, protocol::timed_output_file_name(0, s.set, protocol::output_role::first));
    }
  }
  EXPECT_EQ(lasts, t.input_sets);
  for (const auto& entry : fs::directory_iterator(r.dir)) {
    EXPECT_EQ(entry.path().filename().string().find("-last"), std::string::npos) << entry.path();
  }
  EXPECT_EQ(r.rec().checks.size(), r.rec().event_ms.size() +
                                       static_cast<std::size_t>(r.rec().dropped_throttled) +
                                       static_cast<std::size_t>(t.input_sets) + 1);
}

int drifting_calls = 0;
// Right, except that bin 0 also counts the calls made so far: no two calls agree.
void histogram_drifting(const unsigned char* in, long n, unsigned* bins) {
  histogram_good(in, n, bins);
  bins[0] += static_cast<unsigned>(drifting_calls++);
}

TEST(TimingRunner, ALastOutputThatDiffersFromTheFirstIsReadBackIntoItsOwnFile) {
  fake_backend b;
  drifting_calls = 0;
  const auto t = quick();
  const auto r = run(problems::kind_named("histogram"), address_of(histogram_drifting), b, t, small,
                     "uniform");
  const problems::test_case tc{"bench", problems::kind_named("histogram"), small, "uniform", seed};
  int lasts = 0;
  for (const auto& s : r.rec().saved) {
    if (s.role != "last") {
      continue;
    }
    ++lasts;
    EXPECT_EQ(s.file, protocol::timed_output_file_name(0, s.set, protocol::output_role::last));
    const auto words = read_elements<std::uint32_t>(r.dir / s.file);
    auto expected = expected_bins(tc, s.set, t.input_sets);
    ASSERT_EQ(words.size(), expected.size()) << s.file;
    EXPECT_GT(words[0], expected[0]) << s.file; // what the last call wrote, drift and all
    expected[0] = words[0];
    EXPECT_EQ(words, expected) << s.file;
  }
  EXPECT_EQ(lasts, t.input_sets);
}

void matmul_good(const float* m, const float* n, float* p, int j, int k, int l) {
  for (int i = 0; i < j; ++i) {
    for (int c = 0; c < l; ++c) {
      double acc = 0;
      for (int x = 0; x < k; ++x) {
        acc += static_cast<double>(m[i * k + x]) * n[x * l + c];
      }
      p[i * l + c] = static_cast<float>(acc);
    }
  }
}

// A runner's cases share one read-back buffer (timing_runner.h); a smaller case after a larger
// one must save its own outputs only, whole and exact, with nothing of the larger case's left.
TEST(TimingRunner, CasesSharingOneReadBackBufferEachSaveOnlyTheirOwnOutputs) {
  fake_backend b;
  const auto t = quick();
  const process::temp_dir tmp("cugrade-timing-test");
  const auto& dir = tmp.path();
  auto p = timing_plan(problems::kind_named("matmul"), dir, t);
  p.cases.push_back({"large", {.j = 33, .k = 9, .l = 29}, "integer", seed});
  p.cases.push_back({"small", {.j = 5, .k = 7, .l = 3}, "integer", seed + 1});
  read_back_buffer read_back;
  {
    protocol::event_writer events(dir / protocol::events_file_name);
    for (std::size_t i = 0; i < p.cases.size(); ++i) {
      EXPECT_TRUE(
          time_case(problems::get(p.problem), p, i, address_of(matmul_good), b, events, read_back));
    }
  }
  EXPECT_GE(read_back.capacity(), 33u * 29u * sizeof(float)); // grown once, kept
  const auto log = protocol::read_events(dir / protocol::events_file_name);
  ASSERT_EQ(log.timings.size(), 2u);
  const auto& small_case = p.cases[1];
  const problems::test_case tc{small_case.name, p.problem, small_case.dims, small_case.distribution,
                               small_case.seed};
  const auto& problem = problems::get(p.problem);
  ASSERT_EQ(log.timings[1].saved.size(), 2u * static_cast<std::size_t>(t.input_sets) + 1);
  for (const auto& saved : log.timings[1].saved) {
    const auto inputs = protocol::input_set_inputs(problem, tc, saved.set, t.input_sets);
    const auto expected = problem.reference(tc, inputs);
    const auto got = read_elements<float>(dir / saved.file);
    ASSERT_EQ(got.size(), expected.size()) << saved.file; // 5 x 3, not 33 x 29
    for (std::size_t e = 0; e < got.size(); ++e) {
      EXPECT_EQ(got[e], static_cast<float>(expected[e])) << saved.file << " element " << e;
    }
  }
}

// A matmul case's input sets are made "on the device" from recipes, the fresh set's first input
// negated; a histogram's (bytes, not a float fill) go up from the host.
TEST(TimingRunner, MakesMatmulInputSetsFromRecipesOnTheDevice) {
  fake_backend b;
  const auto t = quick();
  const problems::shape dims{.j = 33, .k = 9, .l = 29};
  const auto r = run(problems::kind_named("matmul"), address_of(matmul_good), b, t, dims, "real");
  ASSERT_EQ(b.generated.size(), 2u * static_cast<std::size_t>(t.input_sets + 1));
  const problems::test_case tc{"bench", problems::kind_named("matmul"), dims, "real", seed};
  for (int set = 0; set <= t.input_sets; ++set) {
    const auto& m = b.generated[2 * static_cast<std::size_t>(set)];
    const auto& n = b.generated[2 * static_cast<std::size_t>(set) + 1];
    EXPECT_EQ(m.count, 33u * 9u);
    EXPECT_EQ(n.count, 9u * 29u);
    EXPECT_EQ(m.negate, set == t.input_sets) << "set " << set;
    EXPECT_FALSE(n.negate);
    EXPECT_EQ(m.seed, problems::derive_seed(protocol::input_set_seed(seed, set), 0));
  }
  // Every saved output is the product of the inputs the grader makes on the host.
  const auto& problem = problems::get(problems::kind_named("matmul"));
  for (const auto& saved : r.rec().saved) {
    const auto inputs = protocol::input_set_inputs(problem, tc, saved.set, t.input_sets);
    const auto expected = problem.reference(tc, inputs);
    const auto got = read_elements<float>(r.dir / saved.file);
    ASSERT_EQ(got.size(), expected.size()) << saved.file;
    for (std::size_t e = 0; e < got.size(); ++e) {
      ASSERT_EQ(got[e], static_cast<float>(expected[e])) << saved.file << " element " << e;
    }
  }
  fake_backend h;
  (void)run(problems::kind_named("histogram"), address_of(histogram_good), h, t, small, "uniform");
  EXPECT_TRUE(h.generated.empty());
}

// A set's buffers are sized from the problem's input specs; contents of another size are refused
// before anything is written to the device.
TEST(TimedSet, RefusesInputsThatDoNotFillTheirBuffers) {
  fake_backend b;
  const problems::buffer_spec out_spec{"P", problems::element_type::f32, 4};
  auto output = std::make_shared<device_buffer>(b, 16);
  timed_set s(b, {16}, out_spec, output);
  problems::buffer short_input{problems::element_type::f32, std::vector<std::byte>(12)};
  EXPECT_THROW((void)s.upload({short_input}), error);
  EXPECT_THROW((void)s.generate({{problems::float_fill::symmetric_unit, 1, 5}}), error);
  problems::buffer right{problems::element_type::f32, std::vector<std::byte>(16)};
  EXPECT_TRUE(s.upload({right}));
  EXPECT_TRUE(s.generate({{problems::float_fill::symmetric_unit, 1, 4}}));
}

TEST(TimingRunner, FingerprintsEveryCallSoUnsavedSkippedCallsShow) {
  fake_backend b;
  lazy_calls = 0;
  const auto r = run(problems::kind_named("histogram"), address_of(histogram_lazy), b, quick(),
                     small, "uniform");
  // Three warm-up calls and two samples are honest; every later call leaves the poison.
  const auto& checks = r.rec().checks;
  ASSERT_GT(checks.size(), 2u);
  for (std::size_t i = 0; i < checks.size(); ++i) {
    EXPECT_EQ(checks[i].poison_words > 0, i >= 2) << "call " << i;
    if (i < 2) {
      EXPECT_EQ(checks[i].sum, static_cast<double>(small.n));
    }
  }
}

TEST(TimingRunner, NoticesALauncherThatModifiesItsInputs) {
  fake_backend b;
  const auto r = run(problems::kind_named("histogram"), address_of(histogram_mutating), b, quick(),
                     small, "uniform");
  EXPECT_TRUE(r.rec().input_modified);
}

TEST(TimingRunner, AControlRoundSavesNothingYetFingerprintsEveryCallAndWatchesTheInputs) {
  fake_backend b;
  auto t = quick();
  t.save_outputs = false;
  const auto r =
      run(problems::kind_named("histogram"), address_of(histogram_good), b, t, small, "uniform");
  EXPECT_TRUE(r.rec().saved.empty());
  EXPECT_EQ(b.plain_calls, 0); // no last calls, no fresh call
  EXPECT_EQ(r.rec().checks.size(),
            r.rec().event_ms.size() + static_cast<std::size_t>(r.rec().dropped_throttled));
  EXPECT_FALSE(r.rec().input_modified);
  fake_backend other;
  const auto mutated = run(problems::kind_named("histogram"), address_of(histogram_mutating), other,
                           t, small, "uniform");
  EXPECT_TRUE(mutated.rec().input_modified);
}

TEST(TimingRunner, FreshContentsCatchAResultCachedByPointer) {
  fake_backend b;
  cache.clear();
  const problems::shape dims{.n = 5000};
  const auto r = run(problems::kind_named("reduction"), address_of(reduce_cached), b, quick(), dims,
                     "real_offset");
  const auto& fresh = r.rec().checks.back();
  const auto& first = r.rec().checks.front();
  EXPECT_EQ(fresh.set, quick().input_sets);
  EXPECT_GT(fresh.sum, 0); // stale: the fresh inputs are negated, so the true sum is negative
  EXPECT_EQ(fresh.sum, first.sum);
}

TEST(TimingRunner, RecordsAFaultAndStops) {
  fake_backend b;
  b.fault = [](int i) { return i == 6 ? std::string("illegal_address") : std::string(); };
  const auto r = run(problems::kind_named("histogram"), address_of(histogram_good), b, quick(),
                     small, "uniform");
  EXPECT_FALSE(r.device_usable); // the scripted fault is sticky
  EXPECT_EQ(r.rec().stop_reason, "fault");
  EXPECT_NE(r.rec().note.find("illegal_address"), std::string::npos);
  EXPECT_LT(r.rec().event_ms.size(), 10u);
}

// A faulting call's record carries the backend's host memory, less the ranges that hold the
// case's own buffers (here the fake's "device" memory is the heap), so memcheck's address of a
// host variable can be told from a missed device buffer.
TEST(CaseRunner, AFaultingCallRecordsTheHostMemoryButNotTheCasesBuffers) {
  fake_backend b;
  b.plain_fault = [](int) { return std::string("illegal_address"); };
  protocol::plan p;
  p.problem = problems::kind_named("histogram");
  p.output_dir = fs::temp_directory_path();
  p.runs = 1;
  p.cases.push_back({"c", small, "uniform", seed});
  const auto log =
      fs::temp_directory_path() / ("cugrade-host-memory-" + std::to_string(::getpid()) + ".jsonl");
  {
    protocol::event_writer events(log);
    runner::kernel_output output;
    // The "device" buffers are host allocations: the range around them is not reported.
    b.host = {{0x1000, 0x2000}, {0x10000, ~std::uint64_t{0}}};
    EXPECT_FALSE(
        run_case(problems::get(p.problem), p, 0, address_of(histogram_good), b, events, output));
  }
  const auto read = protocol::read_events(log);
  fs::remove(log);
  ASSERT_EQ(read.runs.size(), 1u);
  EXPECT_EQ(read.runs[0].error_kind, cugrade::fault_kind::illegal_address);
  EXPECT_EQ(read.runs[0].host_memory, (std::vector<protocol::address_range>{{0x1000, 0x2000}}));
}

TEST(CaseRunner, ExactBuffersHaveNoGuardRegion) {
  for (const bool exact : {false, true}) {
    fake_backend b;
    protocol::plan p;
    p.problem = problems::kind_named("histogram");
    p.output_dir = fs::temp_directory_path();
    p.runs = 1;
    p.cases.push_back({"c", small, "uniform", seed});
    exact_buffers() = exact;
    const auto log =
        fs::temp_directory_path() / ("cugrade-exact-" + std::to_string(::getpid()) + ".jsonl");
    {
      protocol::event_writer events(log);
      runner::kernel_output output;
      EXPECT_TRUE(
          run_case(problems::get(p.problem), p, 0, address_of(histogram_good), b, events, output));
    }
    fs::remove(log);
    exact_buffers() = false;
    ASSERT_EQ(b.allocations.size(), 2u);
    EXPECT_EQ(b.allocations[0] == static_cast<std::size_t>(small.n), exact);
    EXPECT_EQ(b.allocations[1] == 256 * 4, exact);
  }
}

} // namespace
} // namespace cugrade::runner
