#include "grader/cli/commands.h"

#include "grader/core/backend_choice.h"
#include "grader/core/report_assembly.h"
#include "grader/layout/layout.h"
#include "grader/perf/bench.h"
#include "grader/process/temp_dir.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/file_io.h"

#include <algorithm>
#include <iostream>

namespace cugrade::cli {

namespace {

struct bench_args {
  std::string assignment;
  std::vector<std::string> formats{"table"};
  std::string out;
  bool self_speedup = false;
  bool precise = false;
  std::vector<std::string> kernels;
};

// Prints the table and writes or prints the JSON; false when the JSON file cannot be written.
bool emit(const perf::bench_result& r, const bench_args& a) {
  const auto has = [&](const char* f) {
    return std::find(a.formats.begin(), a.formats.end(), f) != a.formats.end();
  };
  if (has("table")) {
    std::cout << perf::bench_table(r);
  }
  if (!has("json")) {
    return true;
  }
  if (a.out.empty()) {
    std::cout << perf::bench_json(r) << "\n";
    return true;
  }
  if (const auto written = write_file_atomically(a.out, perf::bench_json(r) + "\n"); !written) {
    std::cerr << "cugrade: " << written.error() << "\n";
    return false;
  }
  return true;
}

int run_bench(const bench_args& a) {
  const auto layout = grader::discover_layout();
  if (!layout) {
    std::cerr << "cugrade: " << layout.error() << "\n";
    return exit_infrastructure;
  }
  auto spec = spec::load_assignment(a.assignment, layout->root);
  if (!spec) {
    std::cerr << "cugrade: " << spec.error() << "\n";
    return exit_usage;
  }
  const auto gpu = grader::probe_gpu(*layout, {});
  if (!gpu) {
    std::cerr << "cugrade: bench needs a GPU: " << gpu.error() << "\n";
    return exit_infrastructure;
  }
  const auto nvcc = grader::find_nvcc();
  if (!nvcc) {
    std::cerr << "cugrade: bench needs nvcc to build the reference; install the CUDA toolkit\n";
    return exit_infrastructure;
  }
  perf::bench_options o;
  o.self_speedup = a.self_speedup;
  o.evaluation.precise = a.precise;
  o.kernels = a.kernels;
  process::temp_dir work("cugrade-bench", grader::prepare_work_parent(*layout));
  const auto r = perf::run_bench(*spec, *layout, *nvcc, *gpu, work.path(), o, progress_on_stderr());
  if (!r) {
    std::cerr << "cugrade: bench failed: " << r.error() << "\n";
    return exit_infrastructure;
  }
  if (!emit(*r, a)) {
    return exit_infrastructure;
  }
  return r->all_good() ? exit_ok : exit_failed_checks;
}

} // namespace

command bench_command() {
  return {"bench",
          "Time every reference kernel on the benchmark cases with the grading protocol "
          "(verified), beside the roofline, cuBLAS/CUB and the sampling's cost; --self-speedup "
          "times the reference against itself (GPU only)",
          [](CLI::App& sub) -> std::function<int()> {
            auto a = std::make_shared<bench_args>();
            sub.add_option("assignment", a->assignment, assignment_argument_help())->required();
            sub.add_option("--format", a->formats, "table and/or json")
                ->delimiter(',')
                ->check(CLI::IsMember({"table", "json"}))
                ->capture_default_str();
            sub.add_option("--out", a->out, "Write the JSON here instead of printing it");
            sub.add_flag("--self-speedup", a->self_speedup,
                         "Time the reference against itself the way grading times a submission "
                         "(its cached time and a control); every speedup must come out "
                         "1.00 +/- 0.01");
            sub.add_flag("--precise", a->precise,
                         "With --self-speedup: A B B A rounds instead of the cached time");
            sub.add_option("--kernel", a->kernels, "Only these launchers (repeatable)");
            return [a] { return run_bench(*a); };
          }};
}

} // namespace cugrade::cli
