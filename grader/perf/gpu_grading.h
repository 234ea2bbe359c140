#pragma once
/// \file
/// What the GPU stages of one grading share (sanitizer_stage.h, timing_stage.h): the assignment,
/// the device and where its runners run, the grading's progress line, where the time went
/// (`stage_parts`) and the GPU's lock (`gpu_lock`: shared beside correctness runs, exclusive for
/// timing; docs/timing.md section 9).

#include "grader/layout/layout.h"
#include "grader/process/device_lock.h"
#include "grader/runners/run_context.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"
#include "reports/report.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::perf {

/// One grading on one GPU, as its stages see it.
struct gpu_grading {
  const spec::assignment_spec& spec;
  grader::layout layout;
  std::filesystem::path nvcc; ///< builds the reference, locates compute-sanitizer
  /// The GPU as the probe saw it: its name keys the roofline cache, its UUID the lock and the
  /// reference timings, its architecture the reference build.
  protocol::device_identity device;
  runners::run_context context; ///< pins every runner the stages start to that GPU
  std::filesystem::path work_dir;
  std::function<void(std::string_view)> progress;

  void say(const std::string& message) const;
  /// The GPU's key for its lock and the reference timings: its UUID, else its name.
  [[nodiscard]] std::string gpu_key() const;
};

/// Where a stage spent its time (waiting for the lock, the student's runs, the checks...),
/// summed by name in the order first seen.
class stage_parts {
public:
  void add(const std::string& name, std::chrono::steady_clock::time_point since);
  [[nodiscard]] std::vector<reports::stage_part> take();
  void clear() { m_parts.clear(); }

private:
  std::vector<reports::stage_part> m_parts;
};

/// The GPU's lock, as the stages of one grading take it.
class gpu_lock {
public:
  gpu_lock(const gpu_grading& grading, stage_parts& parts);
  /// Like correctness runs, sanitizer runs (and runners started ahead) may share the GPU with
  /// each other, not with timing.
  [[nodiscard]] result<process::device_lock> hold_shared() const;
  /// Holds the GPU exclusively until the last copy of the result goes; nested holds share the
  /// outermost one. The wait is the part "lock wait".
  [[nodiscard]] result<std::shared_ptr<process::device_lock>> hold_exclusive();
  /// Whether an exclusive hold is alive (`cugrade bench` holds it for its whole run).
  [[nodiscard]] bool held_exclusively() const { return !m_exclusive.expired(); }

private:
  const gpu_grading& m_grading;
  stage_parts& m_parts;
  std::weak_ptr<process::device_lock> m_exclusive;
};

} // namespace cugrade::perf
