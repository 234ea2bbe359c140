#include "grader/build/detail/build_plan.h"

#include "grader/process/process.h"

namespace cugrade::build::detail {
namespace {

std::vector<std::string> gencode_flags(const std::vector<std::string>& archs) {
  std::vector<std::string> flags;
  for (std::size_t i = 0; i < archs.size(); ++i) {
    const std::string& arch = archs[i];
    // PTX of the newest architecture lets the driver JIT for GPUs newer than any listed.
    const std::string code =
        i + 1 == archs.size() ? "[sm_" + arch + ",compute_" + arch + "]" : "sm_" + arch;
    flags.insert(flags.end(), {"-gencode", "arch=compute_" + arch + ",code=" + code});
  }
  return flags;
}

} // namespace

result<build_plan> plan_gpu_build(const build_request& request, const build_paths& paths) {
  const std::filesystem::path& nvcc = request.tools.nvcc;
  if (nvcc.empty() || !process::find_program(nvcc.string())) {
    return fail("the GPU backend needs nvcc, but toolchain.nvcc is \"" + nvcc.string() +
                "\": install the CUDA toolkit (or pass its bin/nvcc), or build for emulation");
  }
  if (request.tools.cuda_archs.empty()) {
    return fail("toolchain.cuda_archs is empty: name at least one architecture, e.g. \"80\"");
  }
  build_plan plan;
  plan.compiled_file = request.source;
  // -Wall in the host compiler catches course bugs (an unused value, an uninitialised
  // variable); they are shown to the student as notes, never failures. -g gives the host code
  // line information, which places a forbidden call at the student's line.
  plan.compile = {nvcc.string(), "-ccbin",     request.tools.cxx.string(),
                  "-c",          "-Xcompiler", "-fPIC",
                  "-Xcompiler",  "-Wall",      "-lineinfo",
                  "-g",          "-O3",        "-std=c++20"};
  if (!paths.contract_header.empty()) {
    plan.compile.insert(plan.compile.end(), {"-include", paths.contract_header.string()});
  }
  const auto gencode = gencode_flags(request.tools.cuda_archs);
  plan.compile.insert(plan.compile.end(), gencode.begin(), gencode.end());
  plan.compile.insert(plan.compile.end(), {request.source.string(), "-o", paths.object.string()});
  plan.link = {
      nvcc.string(),         "-ccbin", request.tools.cxx.string(), "-shared", "-cudart", "shared",
      paths.object.string(), "-o",     paths.library.string()};
  plan.preprocess = {
      nvcc.string(),           "-ccbin", request.tools.cxx.string(), "-E", "-std=c++20",
      request.source.string(), "-o",     paths.preprocessed.string()};
  return plan;
}

} // namespace cugrade::build::detail
