// The reference-timing cache: entries round-trip, belong to one GPU, driver, reference build,
// spec and case, and a damaged entry is simply not found (the reference is timed again).

#include "grader/perf/reference_timings.h"
#include "grader/process/temp_dir.h"

#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::perf {
namespace {

namespace fs = std::filesystem;

reference_timing_key key() {
  reference_timing_key k;
  k.gpu = "GPU-1234";
  k.driver = "580.159";
  k.library_sha256 = std::string(64, 'a');
  k.spec_sha256 = std::string(64, 'b');
  k.launcher = "matmul_tiled";
  k.tc = {"2048x2048x2048/real", problems::kind_named("matmul"),
          {.j = 2048, .k = 2048, .l = 2048}, "real", 99};
  return k;
}

pooled_samples samples() {
  pooled_samples s;
  s.event_ms = {2.01, 2.02, 2.0};
  s.host_ms = {2.05, 2.06, 2.04};
  s.clock_mhz = {1980, 1980, 1965};
  return s;
}

class ReferenceTimings : public ::testing::Test {
protected:
  process::temp_dir m_tmp{"cugrade-reftimes"};
  fs::path m_dir = m_tmp.path();
};

TEST_F(ReferenceTimings, AStoredEntryComesBackAsItWas) {
  const reference_timing_cache cache(m_dir);
  EXPECT_FALSE(cache.load(key()).has_value());
  std::string err;
  ASSERT_TRUE(cache.store(key(), samples(), &err)) << err;
  const auto back = cache.load(key());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->event_ms, samples().event_ms);
  EXPECT_EQ(back->host_ms, samples().host_ms);
  EXPECT_EQ(back->clock_mhz, samples().clock_mhz);
}

TEST_F(ReferenceTimings, EveryPartOfTheKeyTellsEntriesApart) {
  const reference_timing_cache cache(m_dir);
  std::string err;
  ASSERT_TRUE(cache.store(key(), samples(), &err)) << err;
  std::vector<reference_timing_key> others(7, key());
  others[0].gpu = "GPU-5678";
  others[1].driver = "590.1";
  others[2].library_sha256 = std::string(64, 'c');
  others[3].spec_sha256 = std::string(64, 'd');
  others[4].launcher = "matmul_dynamic";
  others[5].tc.seed = 100;
  others[6].tc.dims.l = 1024;
  for (const auto& k : others) {
    EXPECT_NE(cache_file_name(k), cache_file_name(key()));
    EXPECT_FALSE(cache.load(k).has_value());
  }
}

TEST_F(ReferenceTimings, ADamagedEntryIsNotUsed) {
  const reference_timing_cache cache(m_dir);
  std::string err;
  ASSERT_TRUE(cache.store(key(), samples(), &err)) << err;
  const auto file = m_dir / cache_file_name(key());
  std::ofstream(file) << "{\"schema\": \"cugrade.reference-timing/1\", \"event_ms\": [";
  EXPECT_FALSE(cache.load(key()).has_value());
  auto bad = samples();
  bad.event_ms[1] = -1; // not a time
  ASSERT_TRUE(cache.store(key(), bad, &err)) << err;
  EXPECT_FALSE(cache.load(key()).has_value());
}

TEST_F(ReferenceTimings, AnUnwritableFolderIsAnErrorNotACrash) {
  const reference_timing_cache cache("/proc/no-such-place");
  std::string err;
  EXPECT_FALSE(cache.store(key(), samples(), &err));
  EXPECT_FALSE(err.empty());
}

} // namespace
} // namespace cugrade::perf
