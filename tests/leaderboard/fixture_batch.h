#pragma once
// A batch output folder of fixture reports for the leaderboard tests: ten roster students, each
// with a distinct reason to be ranked or not (docs/leaderboard.md), written with the report
// writer batch uses.

#include "reports/redact.h"
#include "reports/report.h"
#include "reports/report_json.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cugrade::leaderboard::testing {

namespace fs = std::filesystem;

struct fixture_student {
  std::string id, nickname, repository, commit;
};

inline std::string commit_of(int i) {
  return std::string(39, "0123456789abcdef"[i % 16]) + "e";
}

inline std::vector<fixture_student> fixture_students() {
  std::vector<fixture_student> out;
  const std::vector<std::pair<std::string, std::string>> rows{
      {"s9001-alice", "Speedy"},    {"s9002-bob", "<script>alert(\"x\")</script> & 'Bobby'"},
      {"s9003-carol", ""},          {"s9004-dave", "Dave"},
      {"s9005-erin", "Noisy Erin"}, {"s9006-frank", "Frank"},
      {"s9007-grace", "Grace"},     {"s9008-heidi", "s9008-heidi rocks"},
      {"s9009-ivan", "Ivan"},       {"s9010-judy", "Judy"}};
  int i = 0;
  for (const auto& [id, nick] : rows) {
    out.push_back({id, nick, "https://git.example.edu/cs149/matmul-" + id, commit_of(++i)});
  }
  return out;
}

inline reports::performance_entry timed(const std::string& shape, double speedup, double low,
                                        double high) {
  reports::performance_entry e;
  e.shape = shape;
  e.distribution = "real";
  e.median_ms = 2.0 / speedup;
  e.mean_ms = e.median_ms;
  e.samples = 20;
  e.min_ms = e.max_ms = e.median_ms;
  e.rel_stddev = 0.002;
  e.reference_ms = 2.0;
  e.speedup = speedup;
  e.speedup_ci_low = low;
  e.speedup_ci_high = high;
  e.gflops = 8000 * speedup;
  e.roof_percent = 100.0 * *e.gflops / 66900.0;
  e.library_ms = 0.35;
  e.library_name = "cuBLAS";
  e.reference_source = "cache";
  return e;
}

struct kernel_timing {
  double s1, l1, h1, s2, l2, h2;
};

inline reports::kernel_report timed_kernel(const std::string& name, const kernel_timing& t) {
  reports::kernel_report k;
  k.name = name;
  k.status = reports::kernel_status::passed;
  k.score = k.max_score = 12;
  k.performance_max = 2;
  k.performance = {timed("2048x2048x2048", t.s1, t.l1, t.h1),
                   timed("4096x1024x2048", t.s2, t.l2, t.h2)};
  k.speedup_geomean = std::sqrt(t.s1 * t.s2); // as grader/perf sets it
  return k;
}

inline reports::report base_report(const fixture_student& s, const kernel_timing& tiled,
                                   const kernel_timing& dynamic) {
  reports::report r;
  r.assignment_name = "matmul";
  r.spec_sha256 = std::string(64, 'a');
  r.submission.source = s.repository;
  r.submission.commit = s.commit;
  r.submission.student = s.id;
  r.environment.backend = reports::backend_kind::gpu;
  r.environment.device = "NVIDIA H100 80GB HBM3";
  r.environment.host = "gpu-node-7";
  r.build.status = reports::build_status::ok;
  reports::kernel_report naive;
  naive.name = "matmul_naive";
  naive.score = naive.max_score = 10;
  r.kernels = {naive, timed_kernel("matmul_tiled", tiled), timed_kernel("matmul_dynamic", dynamic)};
  r.score = 34;
  r.max_score = 34;
  r.created_at = "2026-11-20T10:00:00Z";
  return r;
}

/// The reports, by student id (ivan has none).
inline std::vector<std::pair<std::string, reports::report>> fixture_reports() {
  const auto st = fixture_students();
  const kernel_timing slow{1.0, 0.98, 1.02, 1.0, 0.98, 1.02};
  const kernel_timing half{0.5, 0.49, 0.51, 0.5, 0.49, 0.51};
  std::vector<std::pair<std::string, reports::report>> out;
  auto alice =
      base_report(st[0], {2.0, 1.95, 2.05, 2.2, 2.15, 2.25}, {1.5, 1.45, 1.55, 1.5, 1.45, 1.55});
  // Insights quote the student's line: the leaderboard may carry their kinds, never their words.
  alice.kernels[2].insights = {
      {"bank_conflicts",
       "the shared-memory access at matmul.cu:27 (`Mds[tx][ty] = M[row];`) has "
       "4.0-way bank conflicts",
       "matmul.cu:27", 0.5},
      {"low_occupancy", "only 2 block(s) fit on an SM at once", "", 0.2},
      {"not_a_kind", "a kind this version does not know", "", 0.1}};
  alice.kernels[2].profile = reports::kernel_profile{
      reports::backend_kind::gpu, "Nsight Compute 2025.3.1.0", "128x128x128", {}, "", {}};
  out.emplace_back(st[0].id, alice);
  out.emplace_back(st[1].id, base_report(st[1], {2.1, 2.0, 2.2, 2.1, 2.05, 2.15},
                                         {1.6, 1.55, 1.65, 1.6, 1.55, 1.65}));
  out.emplace_back(st[2].id, base_report(st[2], slow, slow));
  auto dave = base_report(st[3], slow, slow);
  dave.kernels[1].status = reports::kernel_status::failed; // failed kernels are not timed
  dave.kernels[1].performance.clear();
  dave.kernels[1].speedup_geomean.reset();
  out.emplace_back(st[3].id, dave);
  auto erin = base_report(st[4], slow, slow);
  erin.kernels[1].performance[1].noisy = true;
  erin.kernels[1].performance[1].speedup.reset();
  erin.kernels[1].speedup_geomean.reset();
  out.emplace_back(st[4].id, erin);
  auto frank = base_report(st[5], slow, slow);
  frank.environment.backend = reports::backend_kind::emu; // emulation times nothing
  for (auto& k : frank.kernels) {
    k.performance.clear();
    k.speedup_geomean.reset();
  }
  out.emplace_back(st[5].id, frank);
  auto grace = base_report(st[6], slow, slow);
  reports::mark_ungradable(grace, "cannot fetch " + st[6].repository);
  grace.spec_sha256.clear(); // as a grading whose fetch failed writes it: no spec loaded
  out.emplace_back(st[6].id, grace);
  out.emplace_back(st[7].id, base_report(st[7], half, half));
  auto judy = base_report(st[9], {3.0, 2.9, 3.1, 3.0, 2.9, 3.1}, slow);
  judy.kernels[2].performance[0].suspicious = true;
  judy.kernels[2].performance[0].speedup.reset();
  judy.kernels[2].speedup_geomean.reset();
  out.emplace_back(st[9].id, judy);
  return out;
}

inline std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

/// Writes BATCH/reports/<id>.json (and a Gradescope file to be skipped) and BATCH's roster,
/// returning the roster's path.
inline fs::path write_fixture_batch(const fs::path& batch) {
  for (const auto& [id, r] : fixture_reports()) {
    write_text(batch / "reports" / (id + ".json"), reports::render_json(reports::redact(r)));
  }
  write_text(batch / "reports" / "s9001-alice.gradescope.json", "{\"tests\": []}\n");
  std::string roster = "student,repository,nickname\n";
  for (const auto& s : fixture_students()) {
    std::string nick = s.nickname;
    std::string quoted;
    for (char c : nick) {
      quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    roster += s.id + "," + s.repository + ",\"" + quoted + "\"\n";
  }
  write_text(batch / "roster.csv", roster);
  return batch / "roster.csv";
}

} // namespace cugrade::leaderboard::testing
