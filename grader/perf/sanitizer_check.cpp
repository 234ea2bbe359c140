#include "grader/perf/sanitizer_check.h"

#include "grader/perf/fault_address.h"
#include "harness/core/file_io.h"

#include <algorithm>
#include <future>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t sanitizer_salt = 0x73616e6974697a65ull; // "sanitize"

protocol::plan sanitizer_plan(const spec::assignment_spec& spec,
                             const std::vector<std::string>& launchers, const fs::path& library,
                             const fs::path& dir) {
  const auto distribution = problems::get(spec.problem).distributions().front();
  std::vector<problems::case_template> templates;
  for (const auto& s : spec.sanitizer.shapes) {
    templates.push_back({s, distribution});
  }
  protocol::plan p;
  p.problem = spec.problem;
  p.launcher = launchers.front();
  p.more_launchers.assign(launchers.begin() + 1, launchers.end());
  p.library = library;
  p.output_dir = dir;
  p.runs = 1;
  p.exact_buffers = true; // padding inside the allocation would hide reads just past the end
  for (const auto& c : problems::make_cases(spec.problem, templates, spec.seed ^ sanitizer_salt)) {
    p.cases.push_back({c.name, c.dims, c.distribution, c.seed});
  }
  return p;
}

// Where `tool` saves its report for a run whose folder is `dir`.
fs::path report_file(const fs::path& dir, const std::string& tool) {
  return dir / (tool + ".xml");
}

// One runner of `plan` under `tool`, its report saved in `dir`, on the setup's GPU.
std::future<result<runners::runner_outcome>> start_tool(const std::string& tool,
                                                        protocol::plan plan, const fs::path& dir,
                                                        const sanitizer_setup& setup) {
  const std::vector<std::string> wrapper{setup.sanitizer.string(), "--tool", tool, "--xml",
                                         "--save", report_file(dir, tool).string()};
  return std::async(std::launch::async, [&setup, plan = std::move(plan), wrapper] {
    return runners::run_runner(setup.context, setup.runner, plan, setup.time_limit_seconds,
                               wrapper);
  });
}

using reports::fault_kind;

reports::hint_code hint_for(fault_kind kind) {
  if (kind == fault_kind::race) {
    return reports::hint_code::race;
  }
  if (kind == fault_kind::barrier_divergence) {
    return reports::hint_code::barrier_divergence;
  }
  if (reports::is_memory_fault(kind)) {
    return reports::hint_code::out_of_bounds;
  }
  return reports::hint_code::wrong_result;
}

std::string advice_for(const sanitizer_finding& f, fault_kind kind) {
  if (kind == fault_kind::race) {
    return ": threads read shared memory that others write with no __syncthreads() between";
  }
  if (kind == fault_kind::barrier_divergence) {
    return ": every thread of a block must reach the same __syncthreads(); move it out of the "
           "branch";
  }
  if (kind == fault_kind::out_of_bounds && f.what.find("__shared__") != std::string::npos) {
    return ": a __shared__ array is indexed outside its declared size on this line (a bound "
           "tested with <= where < was meant, or an index that grows with blockDim.x past the "
           "array's length): keep the index below the array's size, or declare the array as "
           "large as the largest index a thread uses plus one";
  }
  if (reports::is_memory_fault(kind) && f.what.find(reaches_host_memory) != std::string::npos) {
    return std::string(": ") + std::string(host_memory_advice);
  }
  if (kind == fault_kind::out_of_bounds || kind == fault_kind::misaligned_address) {
    return ": check the bounds of every load and store, also for shapes that are not multiples "
           "of the block or tile size";
  }
  return "";
}

// memcheck names the address of a bad access; the runner said where the faulting case's buffers
// lie, so the finding says which buffer it missed and the element it reached, or, where the
// address lies in host memory the runner reported, that the kernel reached host memory.
void name_buffers(std::vector<sanitizer_finding>& findings, const protocol::runner_log& log,
                  const protocol::plan& plan) {
  const auto index = faulting_case(log);
  const auto places = index ? log.buffers.find(*index) : log.buffers.end();
  if (places == log.buffers.end() || *index >= plan.cases.size()) {
    return;
  }
  for (auto& f : findings) {
    if (f.address == 0 || !reports::is_memory_fault(reports::fault_kind_named(f.error_kind))) {
      continue;
    }
    std::string words = outside_buffer_words(problems::get(plan.problem), plan.cases[*index].dims,
                                             places->second, f.address);
    if (words.empty()) {
      words = host_memory_words(log, *index, f.address);
    }
    if (!words.empty()) {
      f.what += ", " + words;
    }
  }
}

// Inside the sandbox only the runner (the submission's code) can signal the tool, its parent; the
// grader's own time limit is told apart. A tool that never launched the runner (a machine
// problem, e.g. compute-sanitizer's exit 13) has no start event.
bool killed_by_submission(const runners::runner_outcome& run) {
  constexpr int signal_exit = 128; // bwrap and shells report a child killed by signal N as 128+N
  return !run.timed_out && run.log.started && (run.term_signal != 0 || run.exit_code > signal_exit);
}

// A memory fault is often the symptom of a cause the correctness results already named (an
// index using the wrong dimension, a missing boundary check): those hints stay first. Their codes
// say so (hint_code::causes_memory_faults), whichever kind's they are.
bool explains_memory_faults(const reports::hint& h) {
  return h.code.causes_memory_faults();
}

} // namespace

result<sanitizer_outcome> run_sanitizer(const spec::assignment_spec& spec,
                                        const std::vector<std::string>& tools,
                                        const std::string& launcher, const fs::path& library,
                                        const sanitizer_setup& setup) {
  // The tools run at once, each in its own runner (they share the GPU as correctness runs do):
  // a kernel's three checks take about as long as its slowest.
  const auto dir = [&](const std::string& tool) {
    return setup.work_dir / (launcher + "-sanitizer-" + tool);
  };
  std::vector<protocol::plan> plans;
  std::vector<std::future<result<runners::runner_outcome>>> runs;
  for (const auto& tool : tools) {
    plans.push_back(sanitizer_plan(spec, {launcher}, library, dir(tool)));
    runs.push_back(start_tool(tool, plans.back(), dir(tool), setup));
  }
  sanitizer_outcome out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& tool = tools[i];
    auto run = runs[i].get();
    if (!run) {
      return fail(run.error());
    }
    const auto text = read_file(report_file(dir(tool), tool));
    if (!text && killed_by_submission(*run)) {
      out.stopped_by_submission =
          "compute-sanitizer " + tool + " was killed while " + launcher + " ran (" +
          run->ending() +
          "): the submission's code stopped the tool that checks it (a launcher must not signal "
          "other processes), so the check could not finish";
      continue;
    }
    if (!text) {
      // A check the course asked for that did not run must not look like a clean kernel.
      return fail("compute-sanitizer " + tool + " could not check " + launcher + " (" +
                  run->ending() +
                  "); the grading machine is at fault, not the submission. If the sandbox stops "
                  "it, grade with --no-sandbox or set \"sanitizer\": {\"enabled\": false}");
    }
    auto findings = read_sanitizer_xml(*text, tool);
    if (!findings) {
      out.notes.push_back(tool + ": " + findings.error());
      continue;
    }
    name_buffers(*findings, run->log, plans[i]);
    out.findings.insert(out.findings.end(), findings->begin(), findings->end());
  }
  return out;
}

bool pass_found_nothing(const runners::runner_outcome& run, std::size_t expected_runs,
                        const result<std::vector<sanitizer_finding>>& findings) {
  const auto& log = run.log;
  const bool whole = run.clean() && log.tampering.empty() && log.missing_launcher.empty() &&
                     !log.fault_kind && !log.open_case && log.runs.size() == expected_runs &&
                     std::all_of(log.runs.begin(), log.runs.end(), [](const auto& r) {
                       return r.completed && !r.error_kind;
                     });
  return whole && findings && findings->empty();
}

result<std::vector<std::string>> run_sanitizer_pass(const spec::assignment_spec& spec,
                                                    const std::vector<std::string>& launchers,
                                                    const fs::path& library,
                                                    const sanitizer_setup& setup) {
  // A folder name no launcher can have ('.' is not in a C identifier).
  const auto dir = [&](const std::string& tool) {
    return setup.work_dir / ("every-kernel.sanitizer-" + tool);
  };
  std::vector<std::future<result<runners::runner_outcome>>> runs;
  for (const auto& tool : spec.sanitizer.tools) {
    runs.push_back(
        start_tool(tool, sanitizer_plan(spec, launchers, library, dir(tool)), dir(tool), setup));
  }
  const auto plan = sanitizer_plan(spec, launchers, library, setup.work_dir);
  const std::size_t expected_runs = launchers.size() * plan.cases.size() * plan.runs;
  std::vector<std::string> clean;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& tool = spec.sanitizer.tools[i];
    auto run = runs[i].get();
    if (!run) {
      return fail(run.error());
    }
    const auto text = read_file(report_file(dir(tool), tool));
    if (text && pass_found_nothing(*run, expected_runs, read_sanitizer_xml(*text, tool))) {
      clean.push_back(tool);
    }
  }
  return clean;
}

void record_findings(reports::kernel_report& k, std::vector<sanitizer_finding> findings) {
  if (findings.empty()) {
    return;
  }
  // A barrier reached by only some threads is a cause, as the emulator's barrier fault is: it
  // comes first, with its line, before the memory faults or races the tools found beside it.
  std::stable_partition(findings.begin(), findings.end(), [](const sanitizer_finding& f) {
    return reports::fault_kind_named(f.error_kind) == fault_kind::barrier_divergence;
  });
  const auto& first = findings.front();
  const fault_kind first_kind = reports::fault_kind_named(first.error_kind);
  if (k.error_kind == fault_kind::illegal_address && reports::is_memory_fault(first_kind)) {
    // The run's illegal address is the access the tool names: its hint without a line, which
    // could only say "check the bounds of this load or store", gives way to the tool's.
    std::erase_if(k.diagnosis, [](const reports::hint& h) {
      return h.code == reports::hint_code::out_of_bounds && h.location.empty();
    });
  }
  k.status = reports::kernel_status::error;
  k.error_kind = first_kind;
  k.message = first.describe();
  std::vector<reports::hint> hints;
  for (const auto& f : findings) {
    const fault_kind kind = reports::fault_kind_named(f.error_kind);
    hints.emplace_back(hint_for(kind), f.describe() + advice_for(f, kind),
                       f.line > 0 && !f.file.empty() ? f.location() : std::string(),
                       std::vector<std::string>{f.tool + " reported it"});
  }
  auto at = k.diagnosis.begin();
  if (reports::is_memory_fault(first_kind)) {
    at = std::find_if_not(k.diagnosis.begin(), k.diagnosis.end(), explains_memory_faults);
  }
  k.diagnosis.insert(at, hints.begin(), hints.end());
}

} // namespace cugrade::perf
