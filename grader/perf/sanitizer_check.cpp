#include "grader/perf/sanitizer_check.h"

#include "grader/perf/runner_call.h"
#include "harness/core/file_io.h"


namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t sanitizer_salt = 0x73616e6974697a65ull; // "sanitize"

protocol::plan sanitizer_plan(const spec::assignment_spec& spec, const std::string& launcher,
                              const fs::path& library, const fs::path& dir) {
  const auto distribution = problems::get(spec.problem).distributions().front();
  std::vector<problems::case_template> templates;
  for (const auto& s : spec.sanitizer.shapes) {
    templates.push_back({s, distribution});
  }
  protocol::plan p;
  p.problem = spec.problem;
  p.launcher = launcher;
  p.library = library;
  p.output_dir = dir;
  p.runs = 1;
  p.exact_buffers = true; // padding inside the allocation would hide reads just past the end
  for (const auto& c : problems::make_cases(spec.problem, templates, spec.seed ^ sanitizer_salt)) {
    p.cases.push_back({c.name, c.dims, c.distribution, c.seed});
  }
  return p;
}

reports::hint_code hint_for(const std::string& error_kind) {
  if (error_kind == "race") {
    return reports::hint_code::race;
  }
  if (error_kind == "barrier_divergence") {
    return reports::hint_code::barrier_divergence;
  }
  if (error_kind == "out_of_bounds" || error_kind == "misaligned_address" ||
      error_kind == "illegal_address") {
    return reports::hint_code::out_of_bounds;
  }
  return reports::hint_code::wrong_result;
}

std::string advice_for(const std::string& error_kind) {
  if (error_kind == "race") {
    return ": threads read shared memory that others write with no __syncthreads() between";
  }
  if (error_kind == "barrier_divergence") {
    return ": every thread of a block must reach the same __syncthreads(); move it out of the "
           "branch";
  }
  if (error_kind == "out_of_bounds" || error_kind == "misaligned_address") {
    return ": check the bounds of every load and store, also for shapes that are not multiples "
           "of the block or tile size";
  }
  return "";
}

} // namespace

result<sanitizer_outcome> run_sanitizer(const spec::assignment_spec& spec,
                                        const std::string& launcher, const fs::path& library,
                                        const sanitizer_setup& setup) {
  sanitizer_outcome out;
  for (const auto& tool : spec.sanitizer.tools) {
    const fs::path dir = setup.work_dir / (launcher + "-sanitizer-" + tool);
    const fs::path xml = dir / (tool + ".xml");
    const std::vector<std::string> wrapper{
        setup.sanitizer.string(), "--tool", tool, "--xml", "--save", xml.string()};
    auto run = run_runner(setup.runner, sanitizer_plan(spec, launcher, library, dir),
                          setup.time_limit_seconds, wrapper);
    if (!run) {
      return fail(run.error());
    }
    const auto text = read_file(xml);
    if (!text) {
      out.notes.push_back(tool + " could not check this kernel: " + run->ending());
      continue;
    }
    auto findings = read_sanitizer_xml(*text, tool);
    if (!findings) {
      out.notes.push_back(tool + ": " + findings.error());
      continue;
    }
    out.findings.insert(out.findings.end(), findings->begin(), findings->end());
  }
  return out;
}

void record_findings(reports::kernel_report& k, const std::vector<sanitizer_finding>& findings) {
  if (findings.empty()) {
    return;
  }
  const auto& first = findings.front();
  k.status = reports::kernel_status::error;
  k.error_kind = first.error_kind;
  k.message = first.describe();
  std::vector<reports::hint> hints;
  for (const auto& f : findings) {
    hints.push_back({hint_for(f.error_kind), f.describe() + advice_for(f.error_kind)});
  }
  k.diagnosis.insert(k.diagnosis.begin(), hints.begin(), hints.end());
}

} // namespace cugrade::perf
