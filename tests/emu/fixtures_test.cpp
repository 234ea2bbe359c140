// The emu_* fixture submissions, each compiled through the emulator's full path at build time:
// every launcher runs on awkward shapes under forward, reverse and shuffled schedules in a forked
// child, and the emulator-level outcome must be what the fixture's expect.json predicts (the
// launchers it does not name must pass).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "emu_test_support.h"
#include "harness/problems/problem.h"
#include "harness/problems/rng.h"

namespace {

using emu_test::device_buffer;
using nlohmann::json;

constexpr unsigned k_seed = 424242;

// The launchers of the fixture's problem, from the registry.
std::vector<std::string> launchers_of(const std::string& assignment) {
  const auto k = cugrade::problems::find_kind(assignment);
  return k ? cugrade::problems::get(*k).launchers() : std::vector<std::string>{};
}

std::vector<float> random_floats(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) {
    x = dist(rng);
  }
  return v;
}

// A digest of an output, to tell whether two schedules produced different results.
template <class T> std::uint64_t digest(const std::vector<T>& v) {
  return cugrade::problems::fnv1a64(
      std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)));
}

// One case: runs the launcher and prints "<shape> pass|fail <digest>".
using case_runner = std::function<void(const emu_test::module&, const std::string&)>;

void run_matmul(const emu_test::module& m, const std::string& launcher, int j, int k, int l) {
  std::mt19937 rng(k_seed + j * 7 + k * 11 + l * 13);
  const std::vector<float> a = random_floats(std::size_t(j) * k, rng);
  const std::vector<float> b = random_floats(std::size_t(k) * l, rng);
  device_buffer<float> d_a(a.size()), d_b(b.size()), d_p(std::size_t(j) * l);
  d_a.upload(a);
  d_b.upload(b);
  d_p.fill(0xFF);
  m.fn<void(const float*, const float*, float*, int, int, int)>(launcher.c_str())(
      d_a.get(), d_b.get(), d_p.get(), j, k, l);
  cudaDeviceSynchronize();
  const std::vector<float> p = d_p.download();
  bool ok = true;
  for (int r = 0; r < j; ++r) {
    for (int c = 0; c < l; ++c) {
      double ref = 0;
      for (int e = 0; e < k; ++e) {
        ref += double(a[r * k + e]) * b[e * l + c];
      }
      const float got = p[r * l + c];
      ok = ok && std::isfinite(got) && std::fabs(got - ref) <= 1e-4 * k + 1e-5;
    }
  }
  std::printf("%dx%dx%d %s %zu\n", j, k, l, ok ? "pass" : "fail", digest(p));
}

void run_histogram(const emu_test::module& m, const std::string& launcher, long n) {
  std::mt19937 rng(k_seed + n);
  std::uniform_int_distribution<int> dist(0, 255);
  std::vector<unsigned char> in(n);
  std::vector<unsigned> ref(256, 0);
  for (auto& x : in) {
    x = static_cast<unsigned char>(dist(rng) % (n % 2 == 0 ? 256 : 40)); // some skewed
    ++ref[x];
  }
  device_buffer<unsigned char> d_in(n);
  d_in.upload(in);
  device_buffer<unsigned> bins(256);
  bins.fill(0xFF);
  m.fn<void(const unsigned char*, long, unsigned*)>(launcher.c_str())(d_in.get(), n, bins.get());
  cudaDeviceSynchronize();
  const std::vector<unsigned> got = bins.download();
  std::printf("n=%ld %s %zu\n", n, got == ref ? "pass" : "fail", digest(got));
}

void run_reduction(const emu_test::module& m, const std::string& launcher, long n) {
  std::mt19937 rng(k_seed + n);
  const std::vector<float> in = random_floats(n, rng);
  double ref = 0, magnitude = 0;
  for (const float x : in) {
    ref += x;
    magnitude += std::fabs(x);
  }
  device_buffer<float> d_in(n);
  d_in.upload(in);
  device_buffer<float> result(1);
  result.fill(0xFF);
  m.fn<void(const float*, long, float*)>(launcher.c_str())(d_in.get(), n, result.get());
  cudaDeviceSynchronize();
  const std::vector<float> got = result.download();
  const bool ok = std::isfinite(got[0]) && std::fabs(got[0] - ref) <= 1e-5 * magnitude + 1e-5;
  std::printf("n=%ld %s %zu\n", n, ok ? "pass" : "fail", digest(got));
}

// Prints the diagnostics of the case just run, then gives the next case a fresh device (a
// sticky error would otherwise fail every later call).
void end_case() {
  for (const auto& d : cugrade::emu::take_diagnostics()) {
    std::printf("diag %s %s\n", d.error_kind.c_str(), d.message.c_str());
  }
  cugrade::emu::reset_device();
}

void run_cases(const std::string& assignment, const emu_test::module& m,
               const std::string& launcher) {
  if (assignment == "matmul") {
    for (const auto& s : std::vector<std::array<int, 3>>{{1, 1, 1}, {17, 33, 9}, {64, 48, 80}}) {
      run_matmul(m, launcher, s[0], s[1], s[2]);
      end_case();
    }
  } else if (assignment == "histogram") {
    for (const long n : {1L, 1000L, 100003L}) {
      run_histogram(m, launcher, n);
      end_case();
    }
  } else {
    for (const long n : {1L, 1000L, 100003L}) {
      run_reduction(m, launcher, n);
      end_case();
    }
  }
}

struct outcome {
  std::string status;     ///< passed, failed, error
  std::string error_kind; ///< for error
  bool order_dependent = false;
  std::string log;
};

// Runs every case of one launcher under three schedules in a child process.
outcome run_launcher(const std::string& module_name, const std::string& assignment,
                     const std::string& launcher) {
  const auto child = emu_test::run_in_child([&] {
    const emu_test::module m(module_name);
    const std::pair<const char*, cugrade::emu::schedule_order> orders[] = {
        {"forward", cugrade::emu::schedule_order::forward},
        {"reverse", cugrade::emu::schedule_order::reverse},
        {"shuffled", cugrade::emu::schedule_order::shuffled}};
    for (const auto& [name, order] : orders) {
      cugrade::emu::reset_device();
      cugrade::emu::set_schedule_order(order, k_seed);
      std::printf("order %s\n", name);
      run_cases(assignment, m, launcher);
    }
  });
  outcome o;
  o.log = child.stdout_text + child.fault_report;
  EXPECT_TRUE(child.exited && (child.exit_status == 0 || !child.fault_report.empty())) << o.log;
  if (!child.fault_report.empty()) {
    o.status = "error";
    o.error_kind = json::parse(child.fault_report, nullptr, false).value("error_kind", "?");
    return o;
  }
  std::istringstream lines(child.stdout_text);
  std::map<std::string, std::set<std::string>> digests; // shape -> digests over orders
  bool failed = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first, second, third;
    words >> first >> second >> third;
    if (first == "diag" && o.error_kind.empty()) {
      o.error_kind = second;
    } else if (second == "pass" || second == "fail") {
      failed = failed || second == "fail";
      digests[first].insert(third);
    }
  }
  for (const auto& [shape, set] : digests) {
    o.order_dependent = o.order_dependent || set.size() > 1;
  }
  o.status = !o.error_kind.empty() ? "error" : (failed ? "failed" : "passed");
  return o;
}

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(EMU_FIXTURES_DIR)) {
    if (entry.path().filename().string().rfind("emu_", 0) == 0) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

class Fixture : public ::testing::TestWithParam<std::string> {};

TEST_P(Fixture, EmulatorOutcomeMatchesExpectJson) {
  const std::string name = GetParam();
  std::ifstream in(std::string(EMU_FIXTURES_DIR) + "/" + name + "/expect.json");
  const json expect = json::parse(in);
  const std::string assignment = expect.at("assignment");
  ASSERT_FALSE(launchers_of(assignment).empty()) << assignment;
  for (const std::string& launcher : launchers_of(assignment)) {
    const json want = expect.at("kernels").value(launcher, json{{"status", "passed"}});
    const outcome got = run_launcher("emu_fixture_" + name, assignment, launcher);
    SCOPED_TRACE(name + " / " + launcher + " (seed " + std::to_string(k_seed) + ")\n" + got.log);
    EXPECT_EQ(got.status, want.at("status").get<std::string>());
    if (want.contains("error_kind")) {
      EXPECT_EQ(got.error_kind, want.at("error_kind").get<std::string>());
    }
    if (want.value("hint", "") == "race" && want.at("status") != "error") {
      EXPECT_TRUE(got.order_dependent) << "a race must show as schedule-dependent results";
    }
    if (want.value("hint", "") == "wrong_result") {
      EXPECT_FALSE(got.order_dependent) << "a plain wrong result does not depend on the schedule";
    }
  }
}

// The reference solutions (reference/*.cu) must pass everywhere, in every schedule.
class ReferenceSolution : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceSolution, PassesEveryCaseInEverySchedule) {
  const std::string assignment = GetParam();
  for (const std::string& launcher : launchers_of(assignment)) {
    const outcome got = run_launcher("emu_reference_" + assignment, assignment, launcher);
    EXPECT_EQ(got.status, "passed") << launcher << " (seed " << k_seed << ")\n" << got.log;
  }
}

std::vector<std::string> reference_assignments() {
  std::vector<std::string> names;
  std::istringstream list(EMU_REFERENCE_ASSIGNMENTS);
  for (std::string name; std::getline(list, name, ',');) {
    if (!name.empty()) {
      names.push_back(name);
    }
  }
  return names;
}

// A checkout without reference solutions simply has no such cases.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReferenceSolution);
INSTANTIATE_TEST_SUITE_P(Emu, ReferenceSolution, ::testing::ValuesIn(reference_assignments()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

INSTANTIATE_TEST_SUITE_P(Emu, Fixture, ::testing::ValuesIn(fixture_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

} // namespace
