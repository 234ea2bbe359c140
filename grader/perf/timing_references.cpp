// What timing is measured against: the reference library (built once per grading), its timings
// cached per GPU (keyed by the library's bytes), and the device's roofline.
#include "grader/perf/benchmark_plan.h"
#include "grader/perf/reference_build.h"
#include "grader/perf/roofline_cache.h"
#include "grader/perf/timing_stage.h"
#include "harness/core/sha256.h"

#include <fstream>
#include <sstream>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

constexpr double roofline_time_limit = 600;

std::vector<std::string> case_keys(const spec::assignment_spec& spec) {
  std::vector<std::string> keys;
  for (const auto& c : spec.benchmarks) {
    keys.push_back(roofline::case_key(spec.problem, c));
  }
  return keys;
}

} // namespace

result<fs::path> timing_stage::reference() {
  if (!m_reference) {
    const auto& g = m_grading;
    g.say("building the reference " + g.spec.source_file + " for timing");
    std::vector<std::string> archs;
    if (!g.device.arch.empty()) {
      archs.push_back(g.device.arch);
    }
    auto lib = reference_library(g.spec, g.nvcc, g.layout.cache_dir, archs);
    if (!lib) {
      return fail(lib.error());
    }
    m_reference = *lib;
  }
  return *m_reference;
}

const roofline::device_roofline* timing_stage::roof() {
  if (!m_roof_tried) {
    m_roof_tried = true;
    const auto& g = m_grading;
    // Read from the cache, it needs no GPU: a grading does not wait for the GPU alone again (in a
    // batch that wait drains every other grading's runs from the GPU) just to read a file.
    if (auto cached = cached_roofline(g.layout.cache_dir, g.device.device, case_keys(g.spec))) {
      m_roof = std::move(*cached);
      return &*m_roof;
    }
    // Measuring the roofline times the device: nothing else of cugrade may run on it meanwhile.
    auto lock = m_lock.hold_exclusive();
    auto r = lock
                 ? load_roofline(g.layout.bin_dir / "cugrade-roofline", g.layout.cache_dir,
                                 g.device.device, case_keys(g.spec), roofline_time_limit, g.context)
                 : result<roofline::device_roofline>(fail(lock.error()));
    if (r) {
      m_roof = std::move(*r);
    } else {
      g.say("no roofline figures: " + r.error());
    }
  }
  return m_roof ? &*m_roof : nullptr;
}

comparison_setup timing_stage::setup() const {
  comparison_setup s;
  s.problem = m_grading.spec.problem;
  s.runner = m_grading.layout.runner("gpu");
  s.context = m_grading.context;
  s.work_dir = m_grading.work_dir / "timing";
  s.cases = benchmark_cases(m_grading.spec);
  s.request = m_options.request;
  s.policy = m_policy;
  s.rounds = m_options.rounds;
  s.progress = m_grading.progress;
  return s;
}

result<cached_reference_setup> timing_stage::cached_setup() {
  auto ref = reference();
  if (!ref) {
    return fail(ref.error());
  }
  if (!m_reference_sha256) {
    std::ifstream in(*ref, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    m_reference_sha256 = sha256_hex(bytes.str());
  }
  cached_reference_setup c;
  c.timing = setup();
  c.control = m_options.control;
  c.drift_limit = m_options.drift_limit;
  c.noise = m_options.noise;
  c.cache = reference_timing_cache(m_grading.layout.cache_dir / "reference-timings");
  c.key.gpu = m_grading.gpu_key();
  c.key.driver = m_grading.device.driver;
  c.key.library_sha256 = *m_reference_sha256;
  c.key.spec_sha256 = m_grading.spec.spec_sha256;
  return c;
}

} // namespace cugrade::perf
