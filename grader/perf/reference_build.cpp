#include "grader/perf/reference_build.h"

#include "grader/build/build.h"
#include "grader/process/temp_dir.h"
#include "harness/core/file_io.h"
#include "harness/core/sha256.h"

#include <fmt/format.h>
#include <system_error>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

// Changes to the source, the compiler or its version give another folder.
std::string build_key(const fs::path& source, const fs::path& nvcc,
                      const std::vector<std::string>& archs) {
  std::error_code ec;
  const auto stamp = fs::last_write_time(nvcc, ec).time_since_epoch().count();
  const auto source_text = read_file(source); // an unreadable source fails the build itself
  std::string identity = sha256_hex(source_text ? *source_text : "") + "\n" + nvcc.string() +
                         "\n" + std::to_string(stamp) + "\ncugrade-reference/1";
  for (const auto& a : archs) {
    identity += "\nsm_" + a; // no architectures: the key of the builds before they were chosen
  }
  return sha256_hex(identity).substr(0, 16);
}

build::build_request request_for(const spec::assignment_spec& spec, const fs::path& nvcc,
                                 const fs::path& work_dir, const std::vector<std::string>& archs) {
  build::build_request req;
  req.target = build::backend::gpu;
  req.source = spec.reference_dir / spec.source_file;
  req.work_dir = work_dir;
  for (const auto& k : spec.kernels) {
    req.launchers.push_back(k.name);
  }
  req.time_limit_seconds = std::max(spec.lim.compile_seconds, 300.0);
  req.tools.nvcc = nvcc;
  if (!archs.empty()) {
    req.tools.cuda_archs = archs;
  }
  return req;
}

} // namespace

fs::path reference_build_dir(const spec::assignment_spec& spec, const fs::path& nvcc,
                             const fs::path& cache_dir, const std::vector<std::string>& archs) {
  const fs::path source = spec.reference_dir / spec.source_file;
  return cache_dir / "reference" / (spec.name + "-" + build_key(source, nvcc, archs));
}

result<fs::path> reference_library(const spec::assignment_spec& spec, const fs::path& nvcc,
                                   const fs::path& cache_dir, const std::vector<std::string>& archs) {
  const fs::path source = spec.reference_dir / spec.source_file;
  if (!fs::exists(source)) {
    return fail(source.string() +
                ": the reference solution is missing; the spec's \"reference\" "
                "folder must hold " +
                spec.source_file);
  }
  const fs::path dir = reference_build_dir(spec, nvcc, cache_dir, archs);
  const fs::path library = dir / ("lib" + source.stem().string() + ".so");
  if (fs::exists(library)) {
    return library;
  }
  fs::create_directories(dir.parent_path());
  // Built aside and renamed into place, so a concurrent grading never loads half a library.
  process::temp_dir scratch("reference-build", dir.parent_path());
  const auto built = build::build_submission(request_for(spec, nvcc, scratch.path(), archs));
  if (!built) {
    return fail("cannot build the reference solution: " + built.error());
  }
  if (!built->ok || !built->missing_launchers.empty() || !built->forbidden_symbols.empty()) {
    return fail(fmt::format("the reference solution {} does not build as a submission must "
                            "(missing: {}; forbidden: {}): {}",
                            source.string(), fmt::join(built->missing_launchers, ", "),
                            fmt::join(built->forbidden_symbols, ", "), built->log));
  }
  std::error_code ec;
  fs::rename(scratch.path(), dir, ec);
  if (ec && !fs::exists(library)) {
    return fail("cannot move the reference build into " + dir.string() + ": " + ec.message());
  }
  if (ec) {
    return library; // another grading finished the same build first
  }
  scratch.keep();
  return library;
}

} // namespace cugrade::perf
