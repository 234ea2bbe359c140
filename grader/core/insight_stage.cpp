// Insights (docs/insight.md): why a kernel that passed is slow, profiled in emulation or
// measured with Nsight Compute on the GPU, then compared between the grading's kernels.
#include "grader/core/detail/grading.h"
#include "grader/core/kernel_insight.h"
#include "grader/insight/kernel_comparison.h"
#include "grader/process/device_lock.h"

#include <algorithm>
#include <iterator>
#include <memory>

namespace cugrade::grader::detail {

namespace {

// Whether `k` gets insights (docs/insight.md): asked for (--perf), or on the GPU for every timed
// kernel; never where the spec turns them off, and only for a kernel that passed.
bool wants_insight(const grading& g, const reports::kernel_report& k,
                   const perf::gpu_evaluator* gpu) {
  if (!g.spec.insight || k.status != reports::kernel_status::passed) {
    return false;
  }
  return g.options.insight || (gpu != nullptr && gpu->times(k));
}

// A kernel the GPU could not measure, profiled in emulation instead: the submission is built for
// the emulator once (`emulated` keeps that build), and the note says why.
void profile_instead(grading& g, reports::kernel_report& k, const std::string& why,
                     const std::filesystem::path& source, const std::filesystem::path& work,
                     std::optional<build::build_outcome>& emulated,
                     std::vector<insight::kernel_time>& profiled) {
  if (!emulated) {
    auto req = build_request_for(g, source, work / "insight-emu");
    req.target = build::backend::emu;
    auto built = build::build_submission(req);
    emulated = built ? std::move(*built) : build::build_outcome{};
  }
  if (!emulated->ok) {
    k.profile = reports::kernel_profile{reports::backend_kind::emu,
                                        "cugrade emulator",
                                        "",
                                        {},
                                        why + "; the submission did not build for emulation, "
                                              "so no insight",
                                        {}};
    return;
  }
  add_emulated_insight(
      {g.spec, emulated->library, work / "insight", g.source_text},
      [&g](const protocol::plan& p, double seconds) {
        return run_kernel(g.context, g.paths.runner("emu"), p, seconds);
      },
      k, profiled);
  k.profile->note = "the emulator's counts, because " + why + "; " + k.profile->note;
}

} // namespace

void profile_in_emulation(grading& g, std::vector<reports::kernel_report>& kernels_graded,
                          const std::filesystem::path& library, const std::filesystem::path& work) {
  const insight_request request{g.spec, library, work / "insight", g.source_text};
  std::vector<insight::kernel_time> profiled;
  std::vector<reports::kernel_report*> kernels;
  for (auto& k : kernels_graded) {
    if (!wants_insight(g, k, nullptr)) {
      continue;
    }
    say(g.options, k.name + ": profiling memory behaviour in emulation");
    timed_stage(g, "insight", k.name, [&] {
      add_emulated_insight(
          request,
          [&g](const protocol::plan& p, double seconds) {
            return run_kernel_on_device(g, p, seconds);
          },
          k, profiled);
      return 0;
    });
    kernels.push_back(&k);
  }
  insight::lead_with_comparisons(profiled, kernels);
}

void profile_on_gpu(grading& g, perf::gpu_evaluator& gpu,
                    const std::vector<reports::kernel_report*>& kernels,
                    const std::filesystem::path& library, const std::filesystem::path& source,
                    const std::filesystem::path& work) {
  std::vector<reports::kernel_report*> wanted;
  std::copy_if(kernels.begin(), kernels.end(), std::back_inserter(wanted),
               [&](const reports::kernel_report* k) { return wants_insight(g, *k, &gpu); });
  if (wanted.empty()) {
    return;
  }
  std::optional<std::string> emulate_because;
  const auto ncu = perf::find_ncu(g.backend.nvcc);
  if (!ncu) {
    emulate_because = "Nsight Compute (ncu) is not beside nvcc or on PATH";
  }
  std::shared_ptr<process::device_lock> alone;
  if (!emulate_because) {
    auto held = gpu.hold_exclusive();
    emulate_because = held ? std::nullopt
                           : std::optional<std::string>("the GPU could not be held alone for "
                                                        "Nsight Compute: " +
                                                        held.error());
    alone = held ? *held : nullptr;
  }
  const counters_request request{
      g.spec,
      {ncu.value_or(""), g.paths.runner("gpu"), g.context, g.spec.lim.kernel_seconds + 60},
      ncu ? perf::ncu_version(*ncu) : "",
      library,
      work / "insight"};
  std::optional<build::build_outcome> emulated;
  std::vector<insight::kernel_time> profiled;
  for (reports::kernel_report* k : wanted) {
    timed_stage(g, "insight", k->name, [&] {
      if (!emulate_because) {
        say(g.options, k->name + ": measuring memory behaviour with Nsight Compute");
        emulate_because = add_measured_insight(request, *k, profiled);
      }
      if (emulate_because) {
        alone.reset(); // emulation needs no GPU: other gradings may use it meanwhile
        say(g.options, k->name + ": profiling memory behaviour in emulation");
        profile_instead(g, *k, *emulate_because, source, work, emulated, profiled);
      }
      return 0;
    });
  }
  insight::lead_with_comparisons(profiled, wanted);
}

} // namespace cugrade::grader::detail
