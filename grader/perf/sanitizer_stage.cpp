#include "grader/perf/sanitizer_stage.h"

#include "grader/runners/runner_call.h"
#include "harness/core/elapsed.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <future>
#include <iterator>
#include <utility>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

// Kernels the tools check: those that ran to the end, and those the GPU stopped with an illegal
// address, a fault that names no access: memcheck names it (the array or buffer, the line), as
// the emulator does, so both backends say out_of_bounds (docs/timing.md, "Sanitizer checks").
bool runnable(const reports::kernel_report& k) {
  return k.status == reports::kernel_status::passed || k.status == reports::kernel_status::failed ||
         (k.status == reports::kernel_status::error &&
          k.error_kind == reports::fault_kind::illegal_address);
}

std::string joined_tools(const std::vector<std::string>& names) {
  return fmt::format("{}", fmt::join(names, ", "));
}

} // namespace

sanitizer_stage::sanitizer_stage(const gpu_grading& grading, gpu_lock& lock, bool enabled)
    : m_grading(grading), m_lock(lock), m_enabled(enabled) {}

bool sanitizer_stage::checks(const reports::kernel_report& k) const {
  const auto& spec = m_grading.spec;
  return m_enabled && spec.sanitizer.enabled && spec.find_kernel(k.name) != nullptr && runnable(k);
}

result<sanitizer_stage::turn> sanitizer_stage::take_turn() const {
  const auto sanitizer = find_compute_sanitizer(m_grading.nvcc);
  if (!sanitizer) {
    return fail("the assignment asks for compute-sanitizer checks but compute-sanitizer is not "
                "installed (looked next to " +
                m_grading.nvcc.string() +
                " and on PATH); install the "
                "CUDA toolkit's compute-sanitizer or set \"sanitizer\": {\"enabled\": false}");
  }
  auto lock = m_lock.hold_shared();
  if (!lock) {
    return fail(lock.error());
  }
  return turn{{*sanitizer, m_grading.layout.runner("gpu"), m_grading.context,
               m_grading.work_dir / "sanitizer", 300},
              std::move(*lock)};
}

result<void> sanitizer_stage::run_checks(reports::kernel_report& k, const fs::path& library,
                                         const std::vector<std::string>& tools) {
  const auto t = take_turn();
  if (!t) {
    return fail(t.error());
  }
  m_grading.say(k.name + ": compute-sanitizer " + joined_tools(tools));
  auto outcome = run_sanitizer(m_grading.spec, tools, k.name, library, t->tools);
  if (!outcome) {
    return fail(outcome.error());
  }
  for (const auto& note : outcome->notes) {
    m_grading.say(k.name + ": " + note);
  }
  record_findings(k, outcome->findings);
  if (!outcome->stopped_by_submission.empty()) {
    m_grading.say(k.name + ": " + outcome->stopped_by_submission);
    k.status = reports::kernel_status::error;
    k.error_kind = reports::fault_kind::tampering;
    k.message = outcome->stopped_by_submission;
  }
  return {};
}

result<std::vector<std::string>>
sanitizer_stage::pass(const std::vector<reports::kernel_report*>& kernels,
                      const fs::path& library) {
  const auto t = take_turn();
  if (!t) {
    return fail(t.error());
  }
  std::vector<std::string> launchers;
  for (const auto* k : kernels) {
    launchers.push_back(k->name);
  }
  m_grading.say("compute-sanitizer " + joined_tools(m_grading.spec.sanitizer.tools) +
                ", one run each over " + joined_tools(launchers));
  return run_sanitizer_pass(m_grading.spec, launchers, library, t->tools);
}

result<void> sanitizer_stage::sanitize(reports::kernel_report& k, const fs::path& student_library) {
  return checks(k) ? run_checks(k, student_library, m_grading.spec.sanitizer.tools)
                   : result<void>{};
}

result<std::vector<reports::stage_timing>>
sanitizer_stage::check_each(const std::vector<reports::kernel_report*>& kernels,
                            const fs::path& library, const std::vector<std::string>& tools) {
  // Each kernel in its own runners, sharing the GPU as correctness runs do; every runner started
  // with the grading's run_context, whichever thread starts it.
  std::vector<std::future<std::pair<result<void>, double>>> runs;
  for (auto* k : kernels) {
    runs.push_back(std::async(std::launch::async, [this, k, &library, &tools] {
      const auto started = std::chrono::steady_clock::now();
      auto r = run_checks(*k, library, tools);
      return std::pair{std::move(r), seconds_since(started)};
    }));
  }
  std::vector<reports::stage_timing> stages;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto [r, seconds] = runs[i].get();
    stages.push_back({std::string(name()), kernels[i]->name, seconds, {}});
    if (!r) {
      return fail(r.error());
    }
  }
  return stages;
}

result<std::vector<reports::stage_timing>>
sanitizer_stage::sanitize_all(const std::vector<reports::kernel_report*>& kernels,
                              const fs::path& student_library) {
  std::vector<reports::kernel_report*> checked;
  std::copy_if(kernels.begin(), kernels.end(), std::back_inserter(checked),
               [this](const auto* k) { return checks(*k); });
  std::vector<reports::stage_timing> stages;
  std::vector<std::string> left = m_grading.spec.sanitizer.tools; // what each kernel still needs
  if (checked.size() > 1) {
    const auto started = std::chrono::steady_clock::now();
    auto clean = pass(checked, student_library);
    stages.push_back({std::string(name()), "", seconds_since(started), {}});
    if (!clean) {
      return fail(clean.error());
    }
    std::erase_if(left, [&](const std::string& tool) {
      return std::find(clean->begin(), clean->end(), tool) != clean->end();
    });
    if (!left.empty()) {
      m_grading.say(
          fmt::format("compute-sanitizer {} found something or did not finish over every kernel: "
                      "checking kernel by kernel",
                      fmt::join(left, ", ")));
    }
  }
  if (left.empty()) {
    return stages;
  }
  auto alone = check_each(checked, student_library, left);
  if (!alone) {
    return fail(alone.error());
  }
  stages.insert(stages.end(), alone->begin(), alone->end());
  return stages;
}

std::optional<fs::path> find_compute_sanitizer(const fs::path& nvcc) {
  return runners::find_cuda_tool(nvcc, "compute-sanitizer");
}

} // namespace cugrade::perf
