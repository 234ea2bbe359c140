#include "grader/perf/performance_entries.h"

#include "grader/perf/plausibility.h"
#include "grader/perf/statistics.h"
#include "harness/problems/rng.h"

#include <algorithm>
#include <fmt/format.h>

namespace cugrade::perf {

namespace {

void append(std::vector<double>& to, const std::vector<double>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

double percent(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : 0;
}

} // namespace

pooled_samples pool(const std::vector<launcher_run>& runs, std::size_t index) {
  pooled_samples p;
  for (const auto& r : runs) {
    if (index < r.cases.size() && r.cases[index].record) {
      const auto& rec = *r.cases[index].record;
      append(p.event_ms, rec.event_ms);
      append(p.host_ms, rec.host_ms);
      append(p.clock_mhz, rec.sm_clock_mhz);
      if (!rec.gated && p.ungated_note.empty()) {
        p.ungated_note = rec.note;
      }
    }
  }
  return p;
}

void add_roofline_figures(reports::performance_entry& e, problems::kind problem,
                          const problems::test_case& tc, const roofline::device_roofline* roof) {
  if (e.median_ms <= 0) {
    return;
  }
  const auto& definition = problems::get(problem);
  const auto work = definition.work(tc.dims);
  const bool compute_bound = definition.bound() == problems::boundness::compute;
  const double per_ms_to_per_s = 1e3 / 1e9; // (x per ms) -> (G x per s)
  if (compute_bound) {
    e.gflops = work.flops / e.median_ms * per_ms_to_per_s;
  } else {
    e.gbps = work.bytes / e.median_ms * per_ms_to_per_s;
  }
  if (roof == nullptr) {
    return;
  }
  e.roof_percent = compute_bound ? percent(*e.gflops, roof->fp32_peak_gflops)
                                 : percent(*e.gbps, roof->copy_bandwidth_gbps);
  if (const auto* f = roof->find(roofline::case_key(problem, {tc.dims, tc.distribution}))) {
    e.library_ms = f->median_ms;
    e.library_name = f->library;
  }
}

reports::performance_entry make_entry(const entry_source& source) {
  const auto s = summarize(source.measured.event_ms);
  reports::performance_entry e;
  e.shape = problems::describe(source.problem, source.tc.dims);
  e.distribution = source.tc.distribution;
  e.median_ms = s.median_ms;
  e.mean_ms = s.mean_ms;
  e.rel_stddev = s.rel_stddev;
  e.samples = s.count;
  e.min_ms = s.min_ms;
  e.max_ms = s.max_ms;
  if (!source.measured.clock_mhz.empty()) {
    e.sm_clock_mhz = median(source.measured.clock_mhz);
  }
  add_roofline_figures(e, source.problem, source.tc, source.roof);
  const double bytes = problems::get(source.problem).work(source.tc.dims).bytes;
  const auto p = judge_samples(s, source.measured.event_ms, source.measured.host_ms, bytes,
                               source.roof ? source.roof->peak_bandwidth_gbps() : 0);
  e.suspicious = p.suspicious;
  e.note = p.note;
  if (!source.measured.ungated_note.empty()) {
    e.note += (e.note.empty() ? "" : "; ") + std::string("timed ungated: ") +
              source.measured.ungated_note;
  }
  if (source.noisy_rsd > 0 && s.rel_stddev > source.noisy_rsd) {
    e.noisy = true;
    e.note += (e.note.empty() ? "" : "; ") +
              fmt::format("noisy: the samples spread {:.2f}% (limit {:.0f}%)", 100 * s.rel_stddev,
                          100 * source.noisy_rsd);
  }
  if (source.reference != nullptr && !source.reference->event_ms.empty()) {
    e.reference_ms = median(source.reference->event_ms);
    if (!e.suspicious && !e.noisy && s.count > 0) {
      const auto r = speedup_interval(source.reference->event_ms, source.measured.event_ms,
                                      source.bootstrap_seed);
      e.speedup = r.estimate;
      e.speedup_ci_low = r.low;
      e.speedup_ci_high = r.high;
    }
  }
  return e;
}

void score_performance(reports::kernel_report& k, const spec::kernel_spec& kernel,
                       const spec::performance_curve& curve) {
  std::vector<double> speedups;
  for (const auto& e : k.performance) {
    if (!e.speedup || e.suspicious || e.noisy) {
      return; // one unbelievable or unverified case: no leaderboard metric, no points
    }
    speedups.push_back(*e.speedup);
  }
  if (speedups.empty()) {
    return;
  }
  k.speedup_geomean = geometric_mean(speedups);
  // Within the protocol's reproducibility of full_speedup counts as full_speedup: the reference
  // timed against itself lands within 2% of 1.00, and must earn full points.
  const double credited = *k.speedup_geomean >= curve.full_speedup * (1 - speedup_tolerance)
                              ? std::max(*k.speedup_geomean, curve.full_speedup)
                              : *k.speedup_geomean;
  k.performance_score = kernel.performance_points * spec::performance_fraction(curve, credited);
  k.score += k.performance_score;
}

std::uint64_t bootstrap_seed(std::string_view kernel, std::string_view case_name) {
  return problems::fnv1a64(std::string(kernel) + "/" + std::string(case_name));
}

} // namespace cugrade::perf
