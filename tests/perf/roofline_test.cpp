// The roofline model (case keys, JSON, merging) and the grader's per-device cache, with a fake
// measuring program that records how it was called.

#include "grader/perf/roofline_cache.h"
#include "grader/process/temp_dir.h"
#include "harness/roofline/roofline.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace cugrade::perf {
namespace {

namespace fs = std::filesystem;
using roofline::device_roofline;

TEST(RooflineCaseKey, NamesProblemShapeAndDistributionAndParsesBack) {
  const problems::case_template mm{{.j = 4096, .k = 1024, .l = 2048}, "real"};
  const auto key = roofline::case_key(problems::kind_named("matmul"), mm);
  EXPECT_EQ(key, "matmul/4096x1024x2048/real");
  const auto back = roofline::parse_case_key(key);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->first, problems::kind_named("matmul"));
  EXPECT_EQ(back->second.dims, mm.dims);
  const auto h = roofline::parse_case_key("histogram/n=268435456/contention90");
  ASSERT_TRUE(h.ok()) << h.error();
  EXPECT_EQ(h->second.dims.n, 268435456);
}

TEST(RooflineCaseKey, RejectsWhatIsNotACase) {
  for (const char* bad : {"matmul/2048x2048/real", "histogram/n=0/uniform", "sort/n=5/uniform",
                          "reduction/n=5/gaussian", "matmul", "histogram/1000/uniform"}) {
    EXPECT_FALSE(roofline::parse_case_key(bad).ok()) << bad;
  }
}

device_roofline sample() {
  device_roofline r;
  r.device = "NVIDIA H100 80GB HBM3";
  r.sm_count = 132;
  r.sm_clock_mhz = 1980;
  r.memory_clock_mhz = 2619;
  r.bus_width_bits = 5120;
  r.l2_bytes = 52428800;
  r.copy_bandwidth_gbps = 3000;
  r.datasheet_bandwidth_gbps = 3352.32;
  r.fp32_peak_gflops = 66908.16;
  r.libraries = {{"matmul/2048x2048x2048/real", "cuBLAS SGEMM", 0.35, 100}};
  return r;
}

TEST(RooflineJson, RoundTrips) {
  const auto r = sample();
  const auto back = roofline::from_json_text(roofline::to_json_text(r));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, r);
  EXPECT_FALSE(roofline::from_json_text("{\"device\": 1}").ok());
  EXPECT_FALSE(roofline::from_json_text("not json").ok());
}

TEST(Roofline, PeakBandwidthIsTheLargerOfDatasheetAndMeasured) {
  auto r = sample();
  EXPECT_EQ(r.peak_bandwidth_gbps(), 3352.32);
  r.datasheet_bandwidth_gbps = 0;
  EXPECT_EQ(r.peak_bandwidth_gbps(), 3000);
}

TEST(Roofline, CountsFp32LanesPerSmByArchitecture) {
  EXPECT_EQ(roofline::fp32_lanes_per_sm(8, 0), 64);  // A100
  EXPECT_EQ(roofline::fp32_lanes_per_sm(8, 6), 128); // GA10x
  EXPECT_EQ(roofline::fp32_lanes_per_sm(9, 0), 128); // H100
  EXPECT_EQ(roofline::fp32_lanes_per_sm(7, 0), 64);
}

TEST(Roofline, MergeReplacesFiguresOfTheSameCaseAndKeepsOthers) {
  auto into = sample();
  device_roofline fresh = sample();
  fresh.copy_bandwidth_gbps = 2900;
  fresh.libraries = {{"matmul/2048x2048x2048/real", "cuBLAS SGEMM", 0.30, 80},
                     {"reduction/n=67108864/real_offset", "CUB DeviceReduce::Sum", 0.09, 100}};
  into.libraries.push_back({"histogram/n=5/uniform", "CUB", 0.01, 20});
  roofline::merge(into, fresh);
  EXPECT_EQ(into.copy_bandwidth_gbps, 2900);
  ASSERT_EQ(into.libraries.size(), 3u);
  EXPECT_EQ(into.find("matmul/2048x2048x2048/real")->median_ms, 0.30);
  EXPECT_NE(into.find("histogram/n=5/uniform"), nullptr);
}

TEST(Roofline, SanitisesDeviceNamesForFiles) {
  EXPECT_EQ(roofline::sanitised_device_name("NVIDIA H100 80GB HBM3"), "NVIDIA_H100_80GB_HBM3");
  EXPECT_EQ(roofline::sanitised_device_name("a/../b"), "a_.._b");
  EXPECT_EQ(roofline::sanitised_device_name(""), "unknown-device");
}

// A stand-in for cugrade-roofline: appends its arguments to calls.log and prints a roofline of
// the named device with a figure for every --case.
class RooflineCache : public ::testing::Test {
protected:
  void SetUp() override {
    m_program = m_dir / "fake-roofline";
    std::ofstream(m_program) << R"(#!/bin/sh
echo "$@" >> ")" << (m_dir / "calls.log").string()
                             << R"("
libs=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--case" ]; then
    [ -n "$libs" ] && libs="$libs,"
    libs="$libs{\"case\": \"$2\", \"library\": \"fake\", \"median_ms\": 1.5, \"samples\": 20}"
    shift
  fi
  shift
done
printf '{"schema": "cugrade.roofline/1", "device": "%s", "copy_bandwidth_gbps": 3000, "libraries": [%s]}\n' "$FAKE_DEVICE" "$libs"
)";
    fs::permissions(m_program, fs::perms::owner_all);
    ::setenv("FAKE_DEVICE", "Fake GPU", 1);
  }

  int calls() const {
    std::ifstream in(m_dir / "calls.log");
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
    }
    return n;
  }
  std::string last_call() const {
    std::ifstream in(m_dir / "calls.log");
    std::string line, last;
    while (std::getline(in, line)) {
      last = line;
    }
    return last;
  }

  process::temp_dir m_tmp{"cugrade-roofline-cache"};
  fs::path m_dir = m_tmp.path();
  fs::path m_program;
};

TEST_F(RooflineCache, MeasuresOnceAndThenReadsTheCache) {
  const std::vector<std::string> keys{"reduction/n=1000/real_offset"};
  const auto first = load_roofline(m_program, m_dir / "cache", "Fake GPU", keys, 30, {});
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first->find(keys[0])->median_ms, 1.5);
  EXPECT_TRUE(fs::exists(m_dir / "cache" / "roofline" / "Fake_GPU.json"));
  const auto second = load_roofline(m_program, m_dir / "cache", "Fake GPU", keys, 30, {});
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(calls(), 1);
}

TEST_F(RooflineCache, MeasuresOnlyTheCasesItLacks) {
  ASSERT_TRUE(load_roofline(m_program, m_dir / "cache", "Fake GPU",
                            {"reduction/n=1000/real_offset"}, 30, {})
                  .ok());
  const auto both =
      load_roofline(m_program, m_dir / "cache", "Fake GPU",
                    {"reduction/n=1000/real_offset", "histogram/n=77/uniform"}, 30, {});
  ASSERT_TRUE(both.ok()) << both.error();
  EXPECT_EQ(calls(), 2);
  EXPECT_EQ(last_call(), "--case histogram/n=77/uniform");
  EXPECT_NE(both->find("reduction/n=1000/real_offset"), nullptr);
  EXPECT_NE(both->find("histogram/n=77/uniform"), nullptr);
}

TEST_F(RooflineCache, SaysWhyWhenTheProgramFails) {
  std::ofstream(m_program) << "#!/bin/sh\necho 'no CUDA device' >&2\nexit 3\n";
  const auto r = load_roofline(m_program, m_dir / "cache", "Fake GPU", {}, 30, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("no CUDA device"), std::string::npos) << r.error();
}

} // namespace
} // namespace cugrade::perf
