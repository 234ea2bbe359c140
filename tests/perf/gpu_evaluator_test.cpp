// The grader's GPU evaluation end to end, without a GPU: the real runner program over a fake
// backend (host memory, host-clock timing) runs host launchers that spin for their "work", a
// script stands in for cugrade-roofline, and the reference library is placed in the reference
// cache. Everything the grader does is real: plans, A B B A rounds, verification, entries, hints
// and points.

#include "grader/perf/gpu_evaluation.h"
#include "grader/perf/reference_build.h"
#include "grader/process/device_lock.h"
#include "grader/process/temp_dir.h"
#include "harness/core/file_io.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <future>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace cugrade::perf {
namespace {

namespace fs = std::filesystem;

const fs::path fakes = CUGRADE_PERF_FAKES_DIR; // perf_fake_runner and libperf_fake_*.so

spec::assignment_spec small_histogram_spec() {
  const fs::path root = CUGRADE_SOURCE_DIR;
  std::ifstream in(root / "assignments" / "histogram" / "assignment.json");
  auto doc = nlohmann::json::parse(in);
  doc["benchmark"]["cases"] =
      nlohmann::json::parse(R"([{"shape": {"n": 20000}, "distribution": "uniform"}])");
  auto spec = spec::parse_assignment(doc.dump(),
                                     root / "assignments" / "histogram" / "assignment.json", root);
  EXPECT_TRUE(spec.ok()) << spec.error();
  return *spec;
}

class GpuEvaluator : public ::testing::Test {
protected:
  void SetUp() override {
    fs::create_directories(m_dir / "bin");
    m_layout.root = CUGRADE_SOURCE_DIR;
    m_layout.bin_dir = m_dir / "bin";
    m_layout.cache_dir = m_dir / "cache";
    fs::create_symlink(fakes / "perf_fake_runner", m_dir / "bin" / "cugrade-runner-gpu");
    write_roofline(3000);
    const auto ref_dir = reference_build_dir(m_spec, m_nvcc, m_layout.cache_dir);
    fs::create_directories(ref_dir);
    fs::copy_file(fakes / "libperf_fake_reference.so", ref_dir / "libhistogram.so");
    m_options.time_unscored_kernels = true;
    m_options.sanitizer = false; // the fake runner is no CUDA program (sanitizer_check_test)
    m_options.request.warmup_seconds = 0;
    m_options.request.min_seconds = 0.01;
    m_options.request.max_seconds = 0.3;
    m_options.request.target_rsd = 0.05;
    m_options.control = m_options.request;
    m_options.control.save_outputs = false; // as default_control_request()
    m_options.control.min_samples = 10;
    // Host-clock spins on a busy 2-core machine can spread far more than a GPU kernel: the noise
    // rule and the drift limit are off here, and on in the tests about them.
    m_options.noise.max_rsd = 1e9;
    m_options.drift_limit = 1e9;
    ::setenv("CUGRADE_LOCK_DIR", (m_dir / "locks").c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("CUGRADE_LOCK_DIR");
    fs::remove_all(m_dir);
  }

  // The cached reference times of this test's GPU (one file per case).
  std::vector<fs::path> cached_reference_files() const {
    std::vector<fs::path> files;
    const auto dir = m_layout.cache_dir / "reference-timings";
    if (fs::exists(dir)) {
      for (const auto& f : fs::directory_iterator(dir)) {
        files.push_back(f.path());
      }
    }
    return files;
  }

  // Multiplies every cached reference sample by `factor` (the GPU "changed" since it was timed).
  void scale_cached_reference(double factor) const {
    for (const auto& f : cached_reference_files()) {
      std::ifstream in(f);
      auto j = nlohmann::json::parse(in);
      in.close();
      for (auto& x : j["event_ms"]) {
        x = x.get<double>() * factor;
      }
      std::ofstream(f) << j.dump();
    }
  }

  // A stand-in for cugrade-roofline reporting `gbps` of bandwidth and a library figure.
  void write_roofline(double gbps) {
    const auto program = m_dir / "bin" / "cugrade-roofline";
    std::ofstream(program) << "#!/bin/sh\nprintf '{\"schema\": \"cugrade.roofline/1\", "
                              "\"device\": \"Fake GPU\", \"copy_bandwidth_gbps\": "
                           << gbps << ", \"datasheet_bandwidth_gbps\": " << gbps
                           << ", \"fp32_peak_gflops\": 1000, \"libraries\": [{\"case\": "
                              "\"%s\", \"library\": \"fake CUB\", \"median_ms\": 0.25}]}' \"$2\"\n";
    fs::permissions(program, fs::perms::owner_all);
  }

  reports::kernel_report evaluate(const std::string& library,
                                  reports::kernel_status status = reports::kernel_status::passed) {
    reports::kernel_report k;
    k.name = "histogram_privatized";
    k.status = status;
    k.score = 15;
    k.max_score = 20;
    k.performance_max = 5;
    gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
    const auto r = e.evaluate(k, fakes / library);
    EXPECT_TRUE(r.ok()) << r.error();
    return k;
  }

  static bool has_hint(const reports::kernel_report& k, reports::hint_code code,
                       const std::string& words) {
    for (const auto& h : k.diagnosis) {
      if (h.code == code && h.message.find(words) != std::string::npos) {
        return true;
      }
    }
    return false;
  }

  spec::assignment_spec m_spec = small_histogram_spec();
  fs::path m_nvcc = "/opt/no-such-cuda/bin/nvcc";
  protocol::device_identity m_device{"gpu", "Fake GPU", "580.0", "13.0", "GPU-fake-0001", ""};
  grader::layout m_layout;
  gpu_evaluation_options m_options;
  process::temp_dir m_tmp{"cugrade-evaluator"};
  fs::path m_dir = m_tmp.path();
};

TEST_F(GpuEvaluator, AFasterCorrectKernelEarnsFullPerformancePoints) {
  const auto k = evaluate("libperf_fake_fast.so"); // 400 us against the reference's 1000 us
  ASSERT_EQ(k.performance.size(), 1u);
  const auto& e = k.performance[0];
  ASSERT_TRUE(e.speedup.has_value()) << e.note;
  EXPECT_GT(*e.speedup, 1.5);
  EXPECT_LT(*e.speedup, 3.5);
  EXPECT_LE(*e.speedup_ci_low, *e.speedup);
  EXPECT_GE(*e.speedup_ci_high, *e.speedup);
  EXPECT_GE(e.samples, 20u); // one round of at least twenty
  EXPECT_EQ(e.library_name, "fake CUB");
  EXPECT_EQ(e.library_ms, 0.25);
  EXPECT_TRUE(e.gbps.has_value());
  EXPECT_FALSE(e.suspicious) << e.note;
  EXPECT_EQ(k.performance_score, 5);
  EXPECT_EQ(k.score, 20);
  EXPECT_TRUE(fs::exists(m_layout.cache_dir / "roofline" / "Fake_GPU.json"));
}

TEST_F(GpuEvaluator, ASlowerKernelEarnsAlongTheCurve) {
  const auto k = evaluate("libperf_fake_slow.so"); // 2500 us: speedup 0.4, below zero_speedup
  ASSERT_EQ(k.performance.size(), 1u);
  ASSERT_TRUE(k.speedup_geomean.has_value());
  EXPECT_LT(*k.speedup_geomean, 0.5);
  EXPECT_EQ(k.performance_score, 0);
  EXPECT_EQ(k.score, 15);
}

TEST_F(GpuEvaluator, AKernelThatStopsWritingGetsNoPointsAndAHint) {
  const auto k = evaluate("libperf_fake_lazy.so");
  EXPECT_EQ(k.status, reports::kernel_status::passed); // the status is correctness's
  EXPECT_FALSE(k.speedup_geomean.has_value());
  EXPECT_EQ(k.performance_score, 0);
  EXPECT_TRUE(has_hint(k, reports::hint_code::wrong_result, "never written"));
  for (const auto& e : k.performance) {
    EXPECT_FALSE(e.speedup.has_value());
  }
}

TEST_F(GpuEvaluator, AResultCachedByPointerFailsTheFreshContentsCall) {
  const auto k = evaluate("libperf_fake_cached.so");
  EXPECT_EQ(k.performance_score, 0);
  EXPECT_TRUE(has_hint(k, reports::hint_code::wrong_result, "fresh-contents call"))
      << (k.diagnosis.empty() ? "" : k.diagnosis.back().message);
}

TEST_F(GpuEvaluator, AKernelThatModifiesItsInputIsCaught) {
  const auto k = evaluate("libperf_fake_mutating.so");
  EXPECT_EQ(k.performance_score, 0);
  EXPECT_TRUE(has_hint(k, reports::hint_code::input_modified, "input"));
}

TEST_F(GpuEvaluator, ATimeBelowThePhysicalFloorEarnsNothing) {
  write_roofline(0.01); // 20 kB at 10 MB/s: a 2 ms floor under the kernel's 0.4 ms
  const auto k = evaluate("libperf_fake_fast.so");
  ASSERT_EQ(k.performance.size(), 1u);
  EXPECT_TRUE(k.performance[0].suspicious);
  EXPECT_NE(k.performance[0].note.find("physical floor"), std::string::npos);
  EXPECT_FALSE(k.performance[0].speedup.has_value());
  EXPECT_EQ(k.performance_score, 0);
}

TEST_F(GpuEvaluator, LeavesKernelsWithoutPerformancePointsUntimedByDefault) {
  m_options = gpu_evaluation_options{};
  m_options.sanitizer = false;
  reports::kernel_report k;
  k.name = "histogram_sectioned"; // 0 performance points in the shipped spec
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
  ASSERT_TRUE(e.evaluate(k, fakes / "libperf_fake_fast.so").ok());
  EXPECT_TRUE(k.performance.empty());
}

TEST_F(GpuEvaluator, DoesNotTimeAKernelThatFailed) {
  const auto k = evaluate("libperf_fake_fast.so", reports::kernel_status::failed);
  EXPECT_TRUE(k.performance.empty());
  EXPECT_EQ(k.score, 15);
}

TEST_F(GpuEvaluator, ABrokenReferenceIsAnInfrastructureFailure) {
  const auto ref_dir = reference_build_dir(m_spec, m_nvcc, m_layout.cache_dir);
  fs::copy_file(fakes / "libperf_fake_lazy.so", ref_dir / "libhistogram.so",
                fs::copy_options::overwrite_existing);
  reports::kernel_report k;
  k.name = "histogram_privatized";
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
  const auto r = e.evaluate(k, fakes / "libperf_fake_fast.so");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("reference"), std::string::npos) << r.error();
}

TEST_F(GpuEvaluator, TimesTheReferenceOnceThenUsesTheCacheWithAControl) {
  const auto first = evaluate("libperf_fake_fast.so");
  ASSERT_EQ(first.performance.size(), 1u);
  EXPECT_EQ(first.performance[0].reference_source, "measured"); // nothing cached yet
  EXPECT_FALSE(first.performance[0].control_ratio.has_value());
  ASSERT_EQ(cached_reference_files().size(), 1u); // one case
  const auto second = evaluate("libperf_fake_fast.so");
  ASSERT_EQ(second.performance.size(), 1u);
  const auto& e = second.performance[0];
  EXPECT_EQ(e.reference_source, "cache");
  ASSERT_TRUE(e.control_ratio.has_value());
  EXPECT_GT(*e.control_ratio, 0.0);
  EXPECT_EQ(e.reference_ms, first.performance[0].reference_ms); // the cached samples themselves
  EXPECT_EQ(second.performance_score, 5);
}

TEST_F(GpuEvaluator, RetimesTheReferenceWhenTheControlMoved) {
  m_options.drift_limit = 0.01;
  (void)evaluate("libperf_fake_fast.so");
  scale_cached_reference(0.5); // the cache now says 500 us; the control measures 1000 us
  const auto k = evaluate("libperf_fake_fast.so");
  ASSERT_EQ(k.performance.size(), 1u);
  const auto& e = k.performance[0];
  EXPECT_EQ(e.reference_source, "measured");
  ASSERT_TRUE(e.control_ratio.has_value());
  EXPECT_GT(*e.control_ratio, 1.5);
  ASSERT_TRUE(e.reference_ms.has_value());
  EXPECT_GT(*e.reference_ms, 0.8); // timed again: 1000 us, not the scaled 500 us
  // ...and the cache holds the new time.
  const auto again = evaluate("libperf_fake_fast.so");
  EXPECT_GT(*again.performance[0].reference_ms, 0.8);
}

TEST_F(GpuEvaluator, ACacheOfAnotherGpuOrReferenceIsNotUsed) {
  (void)evaluate("libperf_fake_fast.so");
  m_device.uuid = "GPU-fake-0002";
  const auto k = evaluate("libperf_fake_fast.so");
  EXPECT_EQ(k.performance.at(0).reference_source, "measured");
  EXPECT_EQ(cached_reference_files().size(), 2u);
}

TEST_F(GpuEvaluator, NoisyTimingIsMarkedAndItsPointsAreNotMeasured) {
  m_options.noise.max_rsd = 0.02;
  m_options.noise.retries = 1;
  const auto k = evaluate("libperf_fake_noisy.so"); // spins 100 to 150% of 1000 us at random
  ASSERT_EQ(k.performance.size(), 1u);
  const auto& e = k.performance[0];
  EXPECT_TRUE(e.noisy) << e.note;
  EXPECT_GT(e.rel_stddev, 0.02);
  EXPECT_FALSE(e.speedup.has_value());
  EXPECT_NE(e.note.find("noisy"), std::string::npos) << e.note;
  EXPECT_FALSE(k.speedup_geomean.has_value());
  EXPECT_EQ(k.performance_score, 0);
  EXPECT_EQ(k.score, 15); // correctness points only: no low performance score either
  EXPECT_NE(k.performance_note.find("not a low score"), std::string::npos) << k.performance_note;
}

TEST_F(GpuEvaluator, PreciseTimesTheReferenceBesideTheStudentInABBARounds) {
  m_options.precise = true;
  const auto k = evaluate("libperf_fake_fast.so");
  ASSERT_EQ(k.performance.size(), 1u);
  EXPECT_EQ(k.performance[0].reference_source, "abba");
  EXPECT_GE(k.performance[0].samples, 40u); // two student rounds of at least twenty
  EXPECT_TRUE(cached_reference_files().empty());
  EXPECT_EQ(k.performance_score, 5);
}

// A stand-in for compute-sanitizer beside a stand-in nvcc: `--tool T --xml --save FILE RUNNER...`
// runs `body` with the runner's command line in "$@", the tool in $tool and the report's path in
// $file.
class GpuEvaluatorSanitizer : public GpuEvaluator {
protected:
  void use_sanitizer(const std::string& body) {
    const auto bin = m_dir / "cuda" / "bin";
    fs::create_directories(bin);
    std::ofstream(bin / "nvcc") << "#!/bin/sh\nexit 1\n";
    const auto tool = bin / "compute-sanitizer";
    std::ofstream(tool) << "#!/bin/sh\ntool=$2 file=$5\nshift 5\n" << body << "\n";
    fs::permissions(tool, fs::perms::owner_all);
    m_nvcc = bin / "nvcc";
    m_options.sanitizer = true;
    m_options.timing = false;
    m_spec.sanitizer.enabled = true;
    m_spec.sanitizer.tools = {"memcheck"};
  }

  result<void> sanitize(reports::kernel_report& k) {
    k.name = "histogram_privatized";
    k.status = reports::kernel_status::passed;
    k.score = 15;
    gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
    return e.sanitize(k, fakes / "libperf_fake_fast.so");
  }
};

// The stand-in's body for sanitize_all(): runs the runner, then writes a report with one memcheck
// out-of-bounds finding in `buggy` when the tool is memcheck and the plan names `buggy` as a
// launcher, else an empty report.
std::string report_finding_in(const std::string& buggy) {
  return "\"$@\" || exit $?\n"
         "echo '<?xml version=\"1.0\"?><ComputeSanitizerOutput>' > \"$file\"\n"
         "if [ \"$tool\" = memcheck ] && grep -q '\"" + buggy + "\"' \"$3\"; then\n"
         "  echo '<record><kind>Precise</kind><level>Error</level><what><text>Invalid __global__ "
         "write of size 4 bytes</text><error>out of bounds</error></what><where><func>" + buggy +
         "_kernel</func></where></record>' >> \"$file\"\n"
         "fi\n"
         "echo '</ComputeSanitizerOutput>' >> \"$file\"\n";
}

class GpuEvaluatorSanitizerPass : public GpuEvaluatorSanitizer {
protected:
  // Both launchers of the fake library, passed, checked by sanitize_all() under `tools`.
  result<std::vector<reports::stage_timing>> sanitize_both(const std::vector<std::string>& tools) {
    m_spec.sanitizer.tools = tools;
    for (auto* k : {&m_private, &m_interleaved}) {
      k->status = reports::kernel_status::passed;
      k->score = 15;
    }
    m_private.name = "histogram_privatized";
    m_interleaved.name = "histogram_interleaved";
    gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
    return e.sanitize_all({&m_private, &m_interleaved}, fakes / "libperf_fake_fast.so");
  }
  // The runs' folders under the sanitizer's work folder, sorted.
  std::vector<std::string> runs() const {
    std::vector<std::string> names;
    for (const auto& d : fs::directory_iterator(m_dir / "work" / "sanitizer")) {
      names.push_back(d.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  reports::kernel_report m_private;
  reports::kernel_report m_interleaved;
};

TEST_F(GpuEvaluatorSanitizerPass, OneRunOfEachToolChecksEveryKernelWhenItFindsNothing) {
  use_sanitizer(report_finding_in("no_such_launcher"));
  const auto stages = sanitize_both({"memcheck", "racecheck"});
  ASSERT_TRUE(stages.ok()) << stages.error();
  EXPECT_EQ(runs(), (std::vector<std::string>{"every-kernel.sanitizer-memcheck",
                                              "every-kernel.sanitizer-racecheck"}));
  // The one runner ran both launchers' cases, numbered on.
  const auto log = protocol::read_events(m_dir / "work" / "sanitizer" /
                                         "every-kernel.sanitizer-memcheck" / "events.jsonl");
  const auto plan = protocol::plan_from_json_text(
      *read_file(m_dir / "work" / "sanitizer" / "every-kernel.sanitizer-memcheck" / "plan.json"));
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_EQ(protocol::plan_launchers(*plan),
            (std::vector<std::string>{"histogram_privatized", "histogram_interleaved"}));
  ASSERT_FALSE(plan->cases.empty());
  EXPECT_EQ(log.runs.size(), 2 * plan->cases.size() * plan->runs);
  EXPECT_EQ(log.runs.back().case_index, 2 * plan->cases.size() - 1);
  EXPECT_TRUE(log.finished);
  EXPECT_EQ(m_private.status, reports::kernel_status::passed);
  EXPECT_EQ(m_interleaved.status, reports::kernel_status::passed);
  ASSERT_EQ(stages->size(), 1u);
  EXPECT_EQ((*stages)[0].stage, "sanitizer");
  EXPECT_EQ((*stages)[0].kernel, ""); // the pass is every kernel's
}

TEST_F(GpuEvaluatorSanitizerPass, AToolThatFindsSomethingChecksKernelByKernelAndNamesTheRightOne) {
  use_sanitizer(report_finding_in("histogram_interleaved"));
  const auto stages = sanitize_both({"memcheck", "racecheck"});
  ASSERT_TRUE(stages.ok()) << stages.error();
  // racecheck's pass was clean: only memcheck runs again, once per kernel.
  EXPECT_EQ(runs(), (std::vector<std::string>{
                        "every-kernel.sanitizer-memcheck", "every-kernel.sanitizer-racecheck",
                        "histogram_interleaved-sanitizer-memcheck",
                        "histogram_privatized-sanitizer-memcheck"}));
  EXPECT_EQ(m_private.status, reports::kernel_status::passed);
  EXPECT_TRUE(m_private.diagnosis.empty());
  EXPECT_EQ(m_interleaved.status, reports::kernel_status::error);
  ASSERT_TRUE(m_interleaved.error_kind.has_value());
  EXPECT_EQ(*m_interleaved.error_kind, reports::fault_kind::out_of_bounds);
  EXPECT_NE(m_interleaved.message.find("histogram_interleaved_kernel"), std::string::npos)
      << m_interleaved.message;
  ASSERT_EQ(stages->size(), 3u);
  EXPECT_EQ((*stages)[0].kernel, "");
  EXPECT_EQ((*stages)[1].kernel, "histogram_privatized");
  EXPECT_EQ((*stages)[2].kernel, "histogram_interleaved");
}

TEST_F(GpuEvaluatorSanitizerPass, APassThatDidNotFinishChecksKernelByKernel) {
  // The pass's runner is killed (a launcher that signals its tool): nothing in it is believed;
  // kernel by kernel the tool is killed again, and each kernel gets the verdict it would alone.
  use_sanitizer("\"$@\"\nkill -9 $$");
  const auto stages = sanitize_both({"memcheck"});
  ASSERT_TRUE(stages.ok()) << stages.error();
  EXPECT_EQ(runs().size(), 3u);
  for (const auto* k : {&m_private, &m_interleaved}) {
    EXPECT_EQ(k->status, reports::kernel_status::error) << k->name;
    ASSERT_TRUE(k->error_kind.has_value());
    EXPECT_EQ(*k->error_kind, reports::fault_kind::tampering);
  }
}

TEST_F(GpuEvaluatorSanitizerPass, OneKernelIsCheckedAloneWithoutAPass) {
  use_sanitizer(report_finding_in("histogram_privatized"));
  m_interleaved.status = reports::kernel_status::missing; // checks() leaves it out
  m_spec.sanitizer.tools = {"memcheck"};
  m_private.name = "histogram_privatized";
  m_private.status = reports::kernel_status::passed;
  m_interleaved.name = "histogram_interleaved";
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
  const auto stages = e.sanitize_all({&m_private, &m_interleaved}, fakes / "libperf_fake_fast.so");
  ASSERT_TRUE(stages.ok()) << stages.error();
  EXPECT_EQ(runs(), (std::vector<std::string>{"histogram_privatized-sanitizer-memcheck"}));
  EXPECT_EQ(m_private.status, reports::kernel_status::error);
  EXPECT_EQ(m_interleaved.status, reports::kernel_status::missing);
  ASSERT_EQ(stages->size(), 1u);
  EXPECT_EQ((*stages)[0].kernel, "histogram_privatized");
}

TEST_F(GpuEvaluatorSanitizer, AToolKilledWhileTheSubmissionRanIsTheSubmissionsDoing) {
  // The runner starts (the submission's code is loaded), then the tool dies of SIGKILL, as when a
  // launcher does kill(getppid(), SIGKILL): the kernel is an error, never "not gradable".
  use_sanitizer("\"$@\"\nkill -9 $$");
  reports::kernel_report k;
  const auto r = sanitize(k);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(k.status, reports::kernel_status::error);
  ASSERT_TRUE(k.error_kind.has_value());
  EXPECT_EQ(*k.error_kind, reports::fault_kind::tampering);
  EXPECT_NE(k.message.find("compute-sanitizer memcheck was killed"), std::string::npos)
      << k.message;
  EXPECT_EQ(k.score, 15); // correctness points already earned stay
}

TEST_F(GpuEvaluatorSanitizer, AToolThatCouldNotLaunchTheRunnerIsTheMachinesFault) {
  use_sanitizer("echo '========= Error: Error launching target app' >&2\nexit 13");
  reports::kernel_report k;
  const auto r = sanitize(k);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("the grading machine is at fault"), std::string::npos) << r.error();
  EXPECT_EQ(k.status, reports::kernel_status::passed);
}

TEST_F(GpuEvaluatorSanitizer, AToolKilledBeforeTheRunnerStartedIsTheMachinesFault) {
  use_sanitizer("kill -9 $$");
  reports::kernel_report k;
  const auto r = sanitize(k);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("the grading machine is at fault"), std::string::npos) << r.error();
}

TEST_F(GpuEvaluator, RecordsHowLongSanitizerAndTimingTook) {
  reports::kernel_report k;
  k.name = "histogram_privatized";
  k.status = reports::kernel_status::passed;
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
  ASSERT_TRUE(e.evaluate(k, fakes / "libperf_fake_fast.so").ok());
  const auto stages = e.take_stages();
  ASSERT_EQ(stages.size(), 1u); // the sanitizer is off in these tests
  EXPECT_EQ(stages[0].stage, "timing");
  EXPECT_EQ(stages[0].kernel, "histogram_privatized");
  EXPECT_GT(stages[0].seconds, 0.0);
  EXPECT_TRUE(e.take_stages().empty());
}

std::vector<std::string> part_names(const reports::stage_timing& stage) {
  std::vector<std::string> names;
  for (const auto& p : stage.parts) {
    EXPECT_GE(p.seconds, 0.0) << p.name;
    names.push_back(p.name);
  }
  return names;
}

TEST_F(GpuEvaluator, SaysWhereTheTimingStageSpentItsTime) {
  using names = std::vector<std::string>;
  const auto timing_stage = [&] {
    reports::kernel_report k;
    k.name = "histogram_privatized";
    k.status = reports::kernel_status::passed;
    gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
    EXPECT_TRUE(e.evaluate(k, fakes / "libperf_fake_fast.so").ok());
    auto stages = e.take_stages();
    EXPECT_EQ(stages.size(), 1u);
    return stages.empty() ? reports::stage_timing{} : stages[0];
  };
  // First grading on this GPU: nothing cached, so the reference is measured in full.
  EXPECT_EQ(part_names(timing_stage()),
            (names{"shared lock wait", "runner start-up", "lock wait", "student runs", "checks", "reference"}));
  // Then the cache and a control.
  EXPECT_EQ(part_names(timing_stage()),
            (names{"shared lock wait", "runner start-up", "lock wait", "student runs", "control", "checks"}));
}

TEST_F(GpuEvaluator, LetsTheGpuGoWhileItChecksTheTimedCalls) {
  std::vector<std::future<bool>> tries;
  const std::string uuid = m_device.uuid;
  const auto progress = [&](std::string_view message) {
    if (message.find("checking the timed calls") != std::string_view::npos) {
      // Another grading asks for the GPU exclusively: it must get it while the checks run.
      tries.push_back(std::async(std::launch::async, [uuid] {
        return process::device_lock::acquire(uuid, process::lock_mode::exclusive).ok();
      }));
      EXPECT_EQ(tries.back().wait_for(std::chrono::seconds(20)), std::future_status::ready)
          << "the GPU stayed locked while the timed calls were checked";
    }
  };
  reports::kernel_report k;
  k.name = "histogram_privatized";
  k.status = reports::kernel_status::passed;
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", progress, m_options);
  ASSERT_TRUE(e.evaluate(k, fakes / "libperf_fake_fast.so").ok());
  ASSERT_EQ(tries.size(), 1u);
  EXPECT_TRUE(tries[0].get());
}

reports::kernel_report passed_kernel(const std::string& name) {
  reports::kernel_report k;
  k.name = name;
  k.status = reports::kernel_status::passed;
  return k;
}

// A batch gives the GPU's slot to the next grading once this one's runs on the GPU are over: the
// hold is let go by then, and the timed calls are checked after.
TEST_F(GpuEvaluator, SaysWhenItsRunsOnTheGpuEndedBeforeItChecksThem) {
  auto timed = passed_kernel("histogram_privatized");
  int ended = 0;
  bool free_then = false;
  bool checked_before = false;
  const std::string uuid = m_device.uuid;
  std::vector<std::future<bool>> tries; // outlives the hold, should the hook be called inside it
  const auto runs_ended = [&] {
    ++ended;
    checked_before = !timed.performance.empty();
    tries.push_back(std::async(std::launch::async, [uuid] {
      return process::device_lock::acquire(uuid, process::lock_mode::exclusive).ok();
    }));
    free_then = tries.back().wait_for(std::chrono::seconds(20)) == std::future_status::ready &&
                tries.back().get();
  };
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
  ASSERT_TRUE(e.time_all({&timed}, fakes / "libperf_fake_fast.so", runs_ended).ok());
  EXPECT_EQ(ended, 1);
  EXPECT_TRUE(free_then) << "the GPU was still held when the runs were said to be over";
  EXPECT_FALSE(checked_before) << "the checks ran before the runs were said to be over";
  EXPECT_FALSE(timed.performance.empty());

  // Nothing to time: said at once, and nothing runs.
  auto failed = passed_kernel("histogram_sectioned");
  failed.status = reports::kernel_status::failed;
  ended = 0;
  const auto stages = e.time_all({&failed}, fakes / "libperf_fake_fast.so", [&] { ++ended; });
  ASSERT_TRUE(stages.ok()) << stages.error();
  EXPECT_TRUE(stages->empty());
  EXPECT_EQ(ended, 1);
}

// A grading's kernels are timed under one exclusive hold: the lock is waited for once, and each
// kernel's timed calls are checked after it is let go (another grading gets the GPU meanwhile).
TEST_F(GpuEvaluator, TimesEveryKernelOfAGradingUnderOneHold) {
  int checking = 0;
  std::vector<std::future<bool>> tries;
  const std::string uuid = m_device.uuid;
  const auto progress = [&](std::string_view message) {
    if (message.find("checking the timed calls") != std::string_view::npos) {
      ++checking;
      tries.push_back(std::async(std::launch::async, [uuid] {
        return process::device_lock::acquire(uuid, process::lock_mode::exclusive).ok();
      }));
      EXPECT_EQ(tries.back().wait_for(std::chrono::seconds(20)), std::future_status::ready)
          << "the GPU stayed locked while the timed calls were checked";
    }
  };
  auto interleaved = passed_kernel("histogram_interleaved");
  auto privatized = passed_kernel("histogram_privatized");
  auto failed = passed_kernel("histogram_sectioned");
  failed.status = reports::kernel_status::failed; // not timed
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", progress, m_options);
  const auto stages =
      e.time_all({&interleaved, &failed, &privatized}, fakes / "libperf_fake_fast.so");
  ASSERT_TRUE(stages.ok()) << stages.error();
  ASSERT_EQ(stages->size(), 3u);
  EXPECT_EQ((*stages)[0].kernel, ""); // the runs in the hold, every kernel's
  EXPECT_EQ((*stages)[1].kernel, "histogram_interleaved");
  EXPECT_EQ((*stages)[2].kernel, "histogram_privatized");
  using names = std::vector<std::string>;
  EXPECT_EQ(part_names((*stages)[0]), (names{"shared lock wait", "runner start-up", "lock wait", "student runs"}));
  // Nothing cached yet: each kernel's reference is measured in full after its checks, taking the
  // GPU again (each launcher has its own cache entries).
  EXPECT_EQ(part_names((*stages)[1]), (names{"checks", "lock wait", "reference"}));
  EXPECT_EQ(part_names((*stages)[2]), (names{"checks", "lock wait", "reference"}));
  for (const auto* k : {&interleaved, &privatized}) {
    EXPECT_FALSE(k->performance.empty()) << k->name;
    EXPECT_GT(k->speedup_geomean.value_or(0), 0.0) << k->name;
  }
  EXPECT_TRUE(failed.performance.empty());
  EXPECT_EQ(checking, 2);
  for (auto& t : tries) {
    EXPECT_TRUE(t.get());
  }
  // A second grading: both kernels cached, so each has a control beside its runs.
  auto again = passed_kernel("histogram_privatized");
  auto again2 = passed_kernel("histogram_interleaved");
  gpu_evaluator second(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work2", {}, m_options);
  const auto cached = second.time_all({&again, &again2}, fakes / "libperf_fake_fast.so");
  ASSERT_TRUE(cached.ok()) << cached.error();
  ASSERT_EQ(cached->size(), 3u);
  EXPECT_EQ(part_names((*cached)[0]),
            (names{"shared lock wait", "runner start-up", "lock wait", "student runs", "control"}));
  EXPECT_EQ(part_names((*cached)[1]), (names{"checks"}));
  EXPECT_EQ(part_names((*cached)[2]), (names{"checks"}));
  EXPECT_EQ(again.performance.front().reference_source, "cache");
}

// The folders the timing runners of a grading wrote in (one per runner process).
std::vector<std::string> runner_folders(const fs::path& work) {
  std::vector<std::string> found;
  for (const auto& f : fs::directory_iterator(work / "timing")) {
    found.push_back(f.path().filename().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The cases a runner reported timings of, as it numbered them.
std::vector<std::size_t> timed_cases(const fs::path& folder) {
  std::vector<std::size_t> cases;
  for (const auto& t : protocol::read_events(folder / protocol::events_file_name).timings) {
    cases.push_back(t.case_index);
  }
  return cases;
}

// Two CUDA starts for a grading's timing, whatever its number of kernels: one runner times every
// kernel's student round, one every kernel's control.
TEST_F(GpuEvaluator, OneRunnerTimesEveryKernelAndOneTheirControls) {
  evaluate("libperf_fake_fast.so"); // caches histogram_privatized's reference time
  auto cache_other = passed_kernel("histogram_interleaved");
  gpu_evaluator first(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work1", {}, m_options);
  ASSERT_TRUE(first.time_all({&cache_other}, fakes / "libperf_fake_fast.so").ok());
  auto privatized = passed_kernel("histogram_privatized");
  auto interleaved = passed_kernel("histogram_interleaved");
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work2", {}, m_options);
  const auto stages = e.time_all({&privatized, &interleaved}, fakes / "libperf_fake_fast.so");
  ASSERT_TRUE(stages.ok()) << stages.error();
  EXPECT_EQ(runner_folders(m_dir / "work2"),
            (std::vector<std::string>{
                "histogram_privatized+histogram_interleaved-reference-control",
                "histogram_privatized+histogram_interleaved-student-try-0"}));
  // One benchmark case: the student's runner timed privatized's as case 0, interleaved's as 1.
  EXPECT_EQ(timed_cases(m_dir / "work2" / "timing" /
                        "histogram_privatized+histogram_interleaved-student-try-0"),
            (std::vector<std::size_t>{0, 1}));
  for (const auto* k : {&privatized, &interleaved}) {
    ASSERT_EQ(k->performance.size(), 1u) << k->name;
    EXPECT_EQ(k->performance.front().reference_source, "cache") << k->name;
    ASSERT_TRUE(k->performance.front().control_ratio.has_value()) << k->name;
    EXPECT_GT(k->speedup_geomean.value_or(0), 1.0) << k->name; // 400 us against 1000 us
  }
}

// A kernel that crashes in the shared runner: the kernels before it keep their rounds there; it
// and every kernel after it time again in runners of their own, so the crash costs no other
// kernel its points.
TEST_F(GpuEvaluator, AKernelThatCrashesInTheSharedRunnerCostsNoOtherKernelItsPoints) {
  auto privatized = passed_kernel("histogram_privatized");
  auto interleaved = passed_kernel("histogram_interleaved");
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
  ASSERT_TRUE(
      e.time_all({&privatized, &interleaved}, fakes / "libperf_fake_crashing.so").ok());
  EXPECT_EQ(runner_folders(m_dir / "work"),
            (std::vector<std::string>{"histogram_interleaved-student-try-0",
                                      "histogram_privatized+histogram_interleaved-student-try-0",
                                      "histogram_privatized-reference-try-0"}));
  EXPECT_FALSE(privatized.performance.empty());
  EXPECT_TRUE(privatized.diagnosis.empty());
  EXPECT_TRUE(interleaved.performance.empty());
  EXPECT_TRUE(has_hint(interleaved, reports::hint_code::wrong_result, "did not finish"));

  // The crashing kernel first: the one after it gets a runner of its own and its points (and a
  // control: its reference time is cached now, interleaved's is not).
  auto privatized2 = passed_kernel("histogram_privatized");
  auto interleaved2 = passed_kernel("histogram_interleaved");
  gpu_evaluator again(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work2", {}, m_options);
  ASSERT_TRUE(
      again.time_all({&interleaved2, &privatized2}, fakes / "libperf_fake_crashing.so").ok());
  EXPECT_EQ(runner_folders(m_dir / "work2"),
            (std::vector<std::string>{"histogram_interleaved+histogram_privatized-student-try-0",
                                      "histogram_interleaved-student-try-0",
                                      "histogram_privatized-reference-control",
                                      "histogram_privatized-student-try-0"}));
  EXPECT_FALSE(privatized2.performance.empty());
  EXPECT_GT(privatized2.speedup_geomean.value_or(0), 1.0);
  EXPECT_TRUE(interleaved2.performance.empty());
}

// A cached roofline is read without the GPU: the grading does not wait for it alone (in a batch
// that wait drains every other grading's runs from the GPU) to read a file.
TEST_F(GpuEvaluator, ReadsACachedRooflineWithoutWaitingForTheGpu) {
  gpu_evaluator measuring(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work", {}, m_options);
  ASSERT_NE(measuring.roof(), nullptr); // measured by the stand-in and cached
  auto held = process::device_lock::acquire(m_device.uuid, process::lock_mode::shared);
  ASSERT_TRUE(held.ok()) << held.error();
  std::optional<process::device_lock> other(std::move(*held));
  gpu_evaluator e(m_spec, m_layout, m_nvcc, m_device, {}, m_dir / "work2", {}, m_options);
  auto read = std::async(std::launch::async, [&] { return e.roof() != nullptr; });
  const auto status = read.wait_for(std::chrono::seconds(20));
  other.reset(); // lets a grading that waits for the GPU go, so the test ends either way
  EXPECT_EQ(status, std::future_status::ready) << "it waited for the GPU to read its cache";
  EXPECT_TRUE(read.get());
}

// The runners of this test waiting at their gate (started ahead, not yet let go), from /proc.
int runners_at_gate(const fs::path& bin) {
  int found = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::ifstream in(entry.path() / "cmdline");
    std::vector<std::string> argv;
    for (std::string arg; std::getline(in, arg, '\0');) {
      argv.push_back(arg);
    }
    if (!argv.empty() && argv[0] == (bin / "cugrade-runner-gpu").string() &&
        std::find(argv.begin(), argv.end(), "--gate-fd") != argv.end()) {
      ++found;
    }
  }
  return found;
}

// A grading that times one kernel (its reference cached first, so with a control) while another
// grading holds the GPU in some mode until `other` is let go. Members end in reverse order: the
// other hold first, so a test that stops early does not wait forever for the timing.
struct timing_beside {
  reports::kernel_report k = passed_kernel("histogram_privatized");
  std::optional<gpu_evaluator> evaluator;
  std::future<result<std::vector<reports::stage_timing>>> timing;
  std::optional<process::device_lock> other;
};

class GpuEvaluatorBesideAnother : public GpuEvaluator {
protected:
  // Returns once the timing has begun; nullptr when the other grading's hold failed.
  std::unique_ptr<timing_beside> time_beside_another(process::lock_mode mode) {
    evaluate("libperf_fake_fast.so");
    auto held = process::device_lock::acquire(m_device.uuid, mode);
    EXPECT_TRUE(held.ok()) << (held.ok() ? "" : held.error());
    if (!held.ok()) {
      return nullptr;
    }
    auto t = std::make_unique<timing_beside>();
    t->other.emplace(std::move(*held));
    t->evaluator.emplace(m_spec, m_layout, m_nvcc, m_device, runners::run_context{},
                         m_dir / "work2", std::function<void(std::string_view)>{}, m_options);
    t->timing = std::async(std::launch::async, [t = t.get()] {
      return t->evaluator->time_all({&t->k}, fakes / "libperf_fake_fast.so");
    });
    return t;
  }
};

// The student's round and the control make their contexts while another grading shares the GPU;
// only then does the grading wait for the GPU alone, and they run once it has it.
TEST_F(GpuEvaluatorBesideAnother, StartsItsTimingRunnersWhileTheGpuIsShared) {
  const auto t = time_beside_another(process::lock_mode::shared);
  ASSERT_TRUE(t);
  int waiting = 0;
  for (int i = 0; i < 600 && waiting < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    waiting = runners_at_gate(m_dir / "bin");
  }
  EXPECT_EQ(waiting, 2) << "the student's round and the control were not started ahead";
  EXPECT_EQ(t->timing.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
      << "it timed while another grading shared the GPU";
  t->other.reset();
  const auto stages = t->timing.get();
  ASSERT_TRUE(stages.ok()) << stages.error();
  EXPECT_EQ(runners_at_gate(m_dir / "bin"), 0);
  ASSERT_EQ(stages->size(), 1u);
  using names = std::vector<std::string>;
  EXPECT_EQ(part_names((*stages)[0]), (names{"shared lock wait", "runner start-up", "lock wait",
                                             "student runs", "control", "checks"}));
  ASSERT_FALSE(t->k.performance.empty());
  EXPECT_EQ(t->k.performance.front().reference_source, "cache");
}

// Another grading holds the GPU alone: this one's timing runners wait to start until it may share
// the GPU, and that wait is counted as such, not as the runners' start.
TEST_F(GpuEvaluatorBesideAnother, CountsTheWaitToShareTheGpuApartFromTheRunnersStart) {
  const auto t = time_beside_another(process::lock_mode::exclusive);
  ASSERT_TRUE(t);
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  EXPECT_EQ(runners_at_gate(m_dir / "bin"), 0) << "a runner started on a GPU held alone";
  t->other.reset();
  const auto stages = t->timing.get();
  ASSERT_TRUE(stages.ok()) << stages.error();
  ASSERT_EQ(stages->size(), 1u);
  std::map<std::string, double> parts;
  for (const auto& p : (*stages)[0].parts) {
    parts[p.name] = p.seconds;
  }
  ASSERT_TRUE(parts.count("shared lock wait") && parts.count("runner start-up"));
  EXPECT_GE(parts["shared lock wait"], 1.8);
  EXPECT_LT(parts["runner start-up"], parts["shared lock wait"])
      << "the wait is not the runners' start";
}

} // namespace
} // namespace cugrade::perf
