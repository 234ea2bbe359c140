#include "grader/perf/bench.h"

#include "grader/perf/benchmark_plan.h"
#include "grader/perf/performance_entries.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

// Self-speedups must come out 1.00 within this (the closing evidence of the protocol).
constexpr double self_speedup_tolerance = 0.01;

bool wanted(const bench_options& o, const std::string& kernel) {
  return o.kernels.empty() ||
         std::find(o.kernels.begin(), o.kernels.end(), kernel) != o.kernels.end();
}

void add_rows(bench_result& out, const std::string& kernel,
              const std::vector<problems::test_case>& cases, problems::kind problem,
              const std::vector<launcher_run>& measured, const std::vector<launcher_run>* against) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    bench_row row;
    row.kernel = kernel;
    row.tc = cases[i];
    entry_source src;
    src.problem = problem;
    src.tc = cases[i];
    src.measured = pool(measured, i);
    const auto reference = against ? pool(*against, i) : pooled_samples{};
    src.reference = against ? &reference : nullptr;
    src.roof = out.roof ? &*out.roof : nullptr;
    src.bootstrap_seed = bootstrap_seed(kernel, cases[i].name);
    row.entry = make_entry(src);
    for (const auto& r : measured) {
      if (i < r.cases.size() && r.cases[i].record) {
        row.runs.push_back(*r.cases[i].record);
      }
    }
    row.verified = true;
    for (const auto* runs : {&measured, against}) {
      if (runs == nullptr) {
        continue;
      }
      for (const auto& r : *runs) {
        if (i >= r.cases.size() || !r.cases[i].record || !r.cases[i].check.ok()) {
          row.verified = false;
          row.problem = r.first_problem();
        }
      }
    }
    out.rows.push_back(std::move(row));
  }
}

std::string figure(const reports::performance_entry& e) {
  if (e.gflops) {
    return fmt::format("{:.1f} GFLOP/s", *e.gflops);
  }
  return e.gbps ? fmt::format("{:.1f} GB/s", *e.gbps) : std::string("-");
}

std::string library(const reports::performance_entry& e) {
  return e.library_ms ? fmt::format("{:.4f} ms {}", *e.library_ms, e.library_name)
                      : std::string("-");
}

nlohmann::json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

// Each run's samples as taken, so their spread can be examined by input set and clock.
nlohmann::json runs_json(const bench_row& r) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& t : r.runs) {
    runs.push_back({{"gated", t.gated},
                    {"sampling_seconds", t.sampling_seconds},
                    {"case_seconds", t.case_seconds},
                    {"stop_reason", t.stop_reason},
                    {"warmup_calls", t.warmup_calls},
                    {"dropped_throttled", t.dropped_throttled},
                    {"note", t.note},
                    {"event_ms", t.event_ms},
                    {"host_ms", t.host_ms},
                    {"sm_clock_mhz", t.sm_clock_mhz},
                    {"sample_sets", t.sample_sets}});
  }
  return runs;
}

bool all_gated(const bench_row& r) {
  return std::all_of(r.runs.begin(), r.runs.end(),
                     [](const protocol::timing_record& t) { return t.gated; });
}

// Wall time of a row's sampling loops, and device time of the samples they kept.
struct sampling_cost {
  double sampling = 0;
  double kept = 0;
};

sampling_cost cost_of(const bench_row& row) {
  sampling_cost c;
  for (const auto& t : row.runs) {
    c.sampling += t.sampling_seconds;
    for (const double ms : t.event_ms) {
      c.kept += ms / 1000;
    }
  }
  return c;
}

nlohmann::json row_json(const bench_row& r) {
  const auto& e = r.entry;
  const auto cost = cost_of(r);
  return {{"kernel", r.kernel},
          {"case", r.tc.name},
          {"shape", e.shape},
          // The shape's fields as a runner plan writes them: a script times the case again
          // without knowing how each kind spells its shapes.
          {"dims",
           {{"j", r.tc.dims.j}, {"k", r.tc.dims.k}, {"l", r.tc.dims.l}, {"n", r.tc.dims.n}}},
          {"distribution", e.distribution},
          {"seed", r.tc.seed},
          {"median_ms", e.median_ms},
          {"mean_ms", e.mean_ms},
          {"rel_stddev", e.rel_stddev},
          {"samples", e.samples},
          {"min_ms", e.min_ms},
          {"max_ms", e.max_ms},
          {"gflops", optional_json(e.gflops)},
          {"gbps", optional_json(e.gbps)},
          {"roof_percent", optional_json(e.roof_percent)},
          {"library_name", e.library_name},
          {"library_ms", optional_json(e.library_ms)},
          {"sm_clock_mhz", optional_json(e.sm_clock_mhz)},
          {"speedup", optional_json(e.speedup)},
          {"speedup_ci_low", optional_json(e.speedup_ci_low)},
          {"speedup_ci_high", optional_json(e.speedup_ci_high)},
          {"suspicious", e.suspicious},
          {"note", e.note},
          {"verified", r.verified},
          {"problem", r.problem},
          {"gated", all_gated(r)},
          {"noisy", e.noisy},
          {"reference_source", e.reference_source},
          {"control_ratio", optional_json(e.control_ratio)},
          {"sampling_seconds", cost.sampling},
          {"kept_device_seconds", cost.kept},
          {"sampling_overhead", sampling_overhead(r)},
          {"runs", runs_json(r)}};
}

} // namespace

double sampling_overhead(const bench_row& row) {
  const auto c = cost_of(row);
  return c.kept > 0 ? c.sampling / c.kept : 0;
}

bool bench_result::all_good() const {
  for (const auto& r : rows) {
    if (!r.verified) {
      return false;
    }
    if (self_speedup && (!r.entry.speedup || std::abs(*r.entry.speedup - 1) >
                                                 self_speedup_tolerance)) {
      return false;
    }
  }
  return !rows.empty();
}

// The reference timed as if it were a submission, the way grading times one.
result<void> add_self_speedup_rows(bench_result& out, gpu_evaluator& evaluator,
                                   const std::string& kernel,
                                   const std::vector<problems::test_case>& cases) {
  std::vector<launcher_run> runs;
  auto entries = evaluator.compare(kernel, out.reference_library, runs);
  if (!entries) {
    return fail(entries.error());
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    bench_row row;
    row.kernel = kernel;
    row.tc = cases[i];
    row.verified = true;
    for (const auto& r : runs) {
      if (i < r.cases.size() && r.cases[i].record) {
        row.runs.push_back(*r.cases[i].record);
      }
      if (i >= r.cases.size() || !r.cases[i].record || !r.cases[i].check.ok()) {
        row.verified = false;
        row.problem = r.first_problem();
      }
    }
    if (i < entries->size()) {
      row.entry = (*entries)[i];
    }
    out.rows.push_back(std::move(row));
  }
  return {};
}

result<bench_result> run_bench(const spec::assignment_spec& spec, const grader::layout& layout,
                               const fs::path& nvcc, const protocol::device_identity& device,
                               const fs::path& work_dir, const bench_options& options,
                               const std::function<void(std::string_view)>& progress) {
  // Pinned to no GPU: bench runs where its environment's CUDA_VISIBLE_DEVICES says.
  const runners::run_context context;
  gpu_evaluator evaluator(spec, layout, nvcc, device, context, work_dir, progress,
                          options.evaluation);
  auto reference = evaluator.reference();
  if (!reference) {
    return fail(reference.error());
  }
  // The whole bench owns the GPU: no other cugrade process runs on it meanwhile.
  auto lock = evaluator.hold_exclusive();
  if (!lock) {
    return fail(lock.error());
  }
  bench_result out;
  out.assignment = spec.name;
  out.problem = spec.problem;
  out.device = device.device;
  out.self_speedup = options.self_speedup;
  out.precise = options.evaluation.precise;
  out.reference_library = *reference;
  if (const auto* roof = evaluator.roof()) {
    out.roof = *roof;
  }
  comparison_setup setup;
  setup.problem = spec.problem;
  setup.runner = layout.runner("gpu");
  setup.context = context;
  setup.work_dir = work_dir / "bench";
  setup.cases = benchmark_cases(spec);
  setup.request = options.evaluation.request;
  setup.rounds = options.evaluation.rounds;
  setup.progress = progress;
  for (const auto& k : spec.kernels) {
    if (!wanted(options, k.name)) {
      continue;
    }
    if (options.self_speedup) {
      if (auto r = add_self_speedup_rows(out, evaluator, k.name, setup.cases); !r) {
        return fail(r.error());
      }
      continue;
    }
    if (progress) {
      progress(k.name + ": timing the reference");
    }
    timing_target target;
    target.runner = setup.runner;
    target.context = setup.context;
    target.library = *reference;
    target.launcher = k.name;
    target.output_dir = setup.work_dir / k.name;
    auto run = time_launcher(spec.problem, target, setup.cases, setup.request, setup.policy);
    if (!run) {
      return fail(run.error());
    }
    add_rows(out, k.name, setup.cases, spec.problem, {std::move(*run)}, nullptr);
  }
  return out;
}

std::string bench_table(const bench_result& r) {
  const char* mode = !r.self_speedup ? ""
                     : r.precise     ? " (reference against itself, A B B A)"
                                     : " (reference against itself: cached time and a control)";
  std::string out = fmt::format("{} on {}{}\n", r.assignment, r.device, mode);
  if (r.roof) {
    out += fmt::format("roofline: copy {:.0f} GB/s (datasheet {:.0f} GB/s), fp32 peak {:.0f} "
                       "GFLOP/s\n",
                       r.roof->copy_bandwidth_gbps, r.roof->datasheet_bandwidth_gbps,
                       r.roof->fp32_peak_gflops);
  }
  out += fmt::format("{:<22} {:<30} {:>10} {:>7} {:>7} {:>9} {:>18} {:>7}  {:<40} {}\n", "kernel",
                     "case", "median ms", "RSD %", "samples", "wall/dev", "rate", "% roof",
                     "library", r.self_speedup ? "speedup [95% CI] (reference)" : "verified");
  for (const auto& row : r.rows) {
    const auto& e = row.entry;
    const std::string last =
        r.self_speedup && e.speedup
            ? fmt::format("{:.4f} [{:.4f}, {:.4f}] ({}{})", *e.speedup, *e.speedup_ci_low,
                          *e.speedup_ci_high, e.reference_source,
                          e.control_ratio ? fmt::format(", control {:.4f}", *e.control_ratio) : "")
            : (row.verified ? std::string("yes") : "NO: " + row.problem);
    out += fmt::format("{:<22} {:<30} {:>10.4f} {:>7.2f} {:>7} {:>9.2f} {:>18} {:>7}  {:<40} {}\n",
                       row.kernel, row.tc.name, e.median_ms, 100 * e.rel_stddev, e.samples,
                       sampling_overhead(row), figure(e),
                       e.roof_percent ? fmt::format("{:.1f}", *e.roof_percent) : std::string("-"),
                       library(e), last);
    if (e.noisy) {
      out += "    noisy: " + e.note + "\n";
    }
    if (e.suspicious) {
      out += "    suspicious: " + e.note + "\n";
    }
    if (!all_gated(row) && !row.runs.empty()) {
      const auto& note = row.runs.front().note;
      const std::string why = note.empty() ? "the plan asked for ungated calls" : note;
      out += "    not gated: " + why + "\n";
    }
  }
  return out;
}

std::string bench_json(const bench_result& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    rows.push_back(row_json(row));
  }
  nlohmann::json j{{"schema", "cugrade.bench/1"},
                   {"assignment", r.assignment},
                   {"problem", std::string(problems::to_string(r.problem))},
                   {"device", r.device},
                   {"mode", r.self_speedup ? (r.precise ? "self-speedup-abba" : "self-speedup")
                                           : "bench"},
                   {"reference_library", r.reference_library.string()},
                   {"all_good", r.all_good()},
                   {"rows", rows}};
  if (r.roof) {
    j["roofline"] = nlohmann::json::parse(roofline::to_json_text(*r.roof));
  }
  return j.dump(2);
}

} // namespace cugrade::perf
