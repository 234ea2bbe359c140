// A grading's way in: its deadline, the submission fetched and copied into its own folder, the
// request that builds it, and the device its runners are pinned to.
#include "grader/core/detail/grading.h"
#include "grader/core/report_assembly.h"
#include "grader/core/submission_limits.h"

namespace cugrade::grader::detail {

grading_deadline read_deadline(const grade_options& o, const spec::assignment_spec& spec) {
  const auto text = o.deadline ? o.deadline : spec.deadline;
  grading_deadline d;
  d.given = text.has_value();
  if (!text) {
    return d;
  }
  auto when = fetch::parse_deadline(*text);
  if (when) {
    d.when = *when;
  } else {
    d.error = when.error();
  }
  return d;
}

std::string devices_for_runs(grading& g) {
  if (!g.options.hooks.before_runs) {
    return {};
  }
  auto pin = g.options.hooks.before_runs();
  if (pin.identity) {
    g.backend.identity = *pin.identity; // the report names it (assemble_report)
  }
  return pin.cuda_visible_devices;
}

result<fetch::fetched_submission> fetch_for(const grading& g) {
  fetch::fetch_request req;
  req.source = g.options.submission;
  req.commit = g.options.commit;
  if (g.deadline.given) {
    if (!g.deadline.when) {
      return fail_usage(g.deadline.error);
    }
    req.deadline = *g.deadline.when;
    req.grace = std::chrono::minutes(g.spec.late.grace_minutes);
    req.newest = g.newest || g.spec.late.mode == spec::deadline_mode::latest_with_penalty;
  }
  req.cache_dir = g.paths.cache_dir / "repos";
  req.progress = [&g](std::string_view m) { say(g.options, std::string(m)); };
  req.fetcher = g.paths.fetcher();
  req.limits = fetch_limits_of(g.spec);
  return fetch::fetch_submission(req);
}

result<fetch::copied_submission> take_in(const grading& g,
                                         const fetch::fetched_submission& fetched,
                                         const std::filesystem::path& work_dir) {
  return fetch::copy_submission(fetched.directory, g.spec.source_file, work_dir / "submission",
                                copy_limits_of(g.spec));
}

build::build_request build_request_for(const grading& g, const std::filesystem::path& source,
                                       const std::filesystem::path& work_dir) {
  build::build_request req;
  req.target =
      g.backend.kind == reports::backend_kind::gpu ? build::backend::gpu : build::backend::emu;
  req.source = source;
  req.work_dir = work_dir;
  for (const auto& k : g.spec.kernels) {
    req.launchers.push_back(k.name);
  }
  req.launcher_parameters = problems::get(g.spec.problem).launcher_parameters();
  req.time_limit_seconds = g.spec.lim.compile_seconds;
  req.tools.nvcc = g.backend.nvcc;
  if (req.target == build::backend::gpu && !g.backend.identity.arch.empty()) {
    req.tools.cuda_archs = {g.backend.identity.arch}; // only what this machine runs
  }
  req.tools.emu_include_dir = g.paths.emu_include_dir;
  req.tools.emu_lib_dir = g.paths.lib_dir;
  req.tools.cache_dir = g.paths.cache_dir;
  return req;
}

} // namespace cugrade::grader::detail
