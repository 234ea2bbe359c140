// Sharing one GPU (label gpu). Four concurrent gradings of the same submission time like a solo
// grading: the per-GPU lock makes timing exclusive, so their spreads stay small and their speedups
// agree with the solo run's. A timing disturbed by a program that ignores the lock (and keeps the
// GPU irregularly busy) is marked noisy and earns no performance points, never low ones.
// Without a usable GPU every test reports SKIPPED.

#include "tests/e2e/e2e_support.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <future>
#include <gtest/gtest.h>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

// Grades the matmul reference on the GPU into a fresh folder and returns its report.
json grade_reference(const std::string& student, const std::vector<std::string>& extra = {}) {
  const auto out = fresh_dir("shared-" + student);
  std::vector<std::string> args{"grade",         "matmul", (source_root() / "reference").string(),
                                "--backend",     "gpu",    "--out",
                                out.string(),    "--student", student,
                                "--format",      "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cugrade(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json report = read_json(out / (student + ".json"));
  fs::remove_all(out);
  return report;
}

// (kernel, shape) -> the timed entry, for every kernel with performance entries.
std::map<std::string, json> timed_entries(const json& report) {
  std::map<std::string, json> entries;
  for (const auto& k : report.value("kernels", json::array())) {
    for (const auto& e : k.value("performance", json::array())) {
      entries[k.value("name", "") + " " + e.value("shape", "")] = e;
    }
  }
  return entries;
}

TEST(SharedGpu, FourConcurrentGradingsTimeLikeASoloOne) {
  if (const auto why = gpu_unavailable_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const json solo_report = grade_reference("solo");
  const auto solo = timed_entries(solo_report);
  ASSERT_FALSE(solo.empty()) << solo_report.dump(2);
  std::vector<std::future<json>> runs;
  for (int i = 0; i < 4; ++i) {
    runs.push_back(std::async(std::launch::async,
                              [i] { return grade_reference("concurrent" + std::to_string(i)); }));
  }
  for (auto& run : runs) {
    const json report = run.get();
    ASSERT_TRUE(report.value("gradable", false)) << report.dump(2);
    const auto entries = timed_entries(report);
    ASSERT_EQ(entries.size(), solo.size());
    for (const auto& [key, e] : entries) {
      const double rsd = e.value("rel_stddev", 1.0);
      const double speedup = e.value("speedup", 0.0);
      const double alone = solo.at(key).value("speedup", 0.0);
      std::printf("[ SHARED   ] %-40s RSD %.3f%%  speedup %.4f (solo %.4f) %s\n", key.c_str(),
                  100 * rsd, speedup, alone, e.value("reference_source", "").c_str());
      EXPECT_LE(rsd, 0.005) << key;
      EXPECT_FALSE(e.value("noisy", true)) << key;
      EXPECT_NEAR(speedup, alone, 0.01 * alone) << key;
    }
  }
}

// A child process that keeps the GPU busy until it is stopped.
class disturber {
public:
  explicit disturber(double seconds) {
    const std::string program =
        env_or("CUGRADE_GPU_DISTURBER", (fs::path(CUGRADE_GPU_RUNNER).parent_path() /
                                         "cugrade_gpu_disturber").string());
    const std::string length = std::to_string(seconds);
    char* argv[] = {const_cast<char*>(program.c_str()), const_cast<char*>(length.c_str()),
                    nullptr};
    m_ok = ::posix_spawn(&m_pid, program.c_str(), nullptr, nullptr, argv, environ) == 0;
  }
  ~disturber() {
    if (m_ok) {
      ::kill(m_pid, SIGTERM);
      ::waitpid(m_pid, nullptr, 0);
    }
  }
  disturber(const disturber&) = delete;
  disturber& operator=(const disturber&) = delete;
  [[nodiscard]] bool started() const { return m_ok; }

private:
  pid_t m_pid = -1;
  bool m_ok = false;
};

TEST(SharedGpu, ATimingDisturbedByAProgramThatIgnoresTheLockIsMarkedNoisy) {
  if (const auto why = gpu_unavailable_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  (void)grade_reference("warm", {"--kernel", "matmul_tiled"}); // the reference time is cached
  json report;
  {
    disturber busy(300);
    ASSERT_TRUE(busy.started());
    std::this_thread::sleep_for(std::chrono::seconds(1));
    report = grade_reference("disturbed", {"--kernel", "matmul_tiled"});
  }
  const json kernel = kernel_named(report, "matmul_tiled");
  ASSERT_TRUE(kernel.is_object()) << report.dump(2);
  bool noisy = false;
  for (const auto& e : kernel.value("performance", json::array())) {
    std::printf("[ DISTURBED ] %s RSD %.2f%% noisy %s: %s\n", e.value("shape", "").c_str(),
                100 * e.value("rel_stddev", 0.0), e.value("noisy", false) ? "yes" : "no",
                e.value("note", "").c_str());
    noisy = noisy || e.value("noisy", false);
    if (e.value("noisy", false)) {
      EXPECT_FALSE(e.contains("speedup")) << e.dump(2);
    }
  }
  EXPECT_TRUE(noisy) << kernel.dump(2);
  EXPECT_EQ(kernel.value("performance_score", -1.0), 0.0);
  EXPECT_NE(kernel.value("performance_note", "").find("noisy"), std::string::npos)
      << kernel.dump(2);
  EXPECT_EQ(kernel.value("status", ""), "passed"); // correctness is untouched
}

} // namespace
} // namespace cugrade::e2e
