// The emulation backend's build: the emulator rewrites the CUDA source into C++ for its runtime,
// and g++ compiles that. The rewriter's emu_compile_command gives one compile-and-link command;
// it is split here into an object step (for the symbol policy) and a link step.

#include "grader/build/detail/build_plan.h"

#if CUGRADE_BUILD_HAVE_EMU_REWRITE
#include "harness/core/file_io.h"
#include "harness/emu/rewrite.h"
#include "harness/emu/toolchain.h"
#endif

#include <fstream>

namespace cugrade::build::detail {
namespace {

[[maybe_unused]] bool is_link_only(const std::string& arg) {
  return arg == "-shared" || arg.rfind("-l", 0) == 0 || arg.rfind("-L", 0) == 0 ||
         arg.rfind("-Wl,", 0) == 0;
}

// Compile flags stay in the object step; library flags move to the link step.
[[maybe_unused]] void split_command(const std::vector<std::string>& combined,
                                    const build_request& request, const build_paths& paths,
                                    build_plan& plan) {
  plan.compile = {request.tools.cxx.string(), "-c"};
  plan.link = {request.tools.cxx.string(), "-shared", paths.object.string(), "-o",
               paths.library.string()};
  for (std::size_t i = 1; i < combined.size(); ++i) {
    if (combined[i] == "-o" && i + 1 < combined.size()) {
      ++i; // the output is chosen here, per step
    } else if (is_link_only(combined[i])) {
      plan.link.push_back(combined[i]);
    } else if (combined[i].rfind("-I", 0) == 0) {
      plan.compile.insert(plan.compile.end(), {"-isystem", combined[i].substr(2)});
    } else {
      plan.compile.push_back(combined[i]);
    }
  }
  // The warnings that catch course bugs (an unused value, an uninitialised variable); the
  // emulator's headers are system headers, so only the student's code is warned about.
  plan.compile.push_back("-Wall");
  plan.preprocess = plan.compile;
  plan.preprocess[1] = "-E";
  plan.preprocess.insert(plan.preprocess.end(), {"-o", paths.preprocessed.string()});
  if (!paths.contract_header.empty()) {
    plan.compile.insert(plan.compile.end(), {"-include", paths.contract_header.string()});
  }
  plan.compile.insert(plan.compile.end(), {"-o", paths.object.string()});
}

} // namespace

bool emu_rewriter_available() noexcept {
  return CUGRADE_BUILD_HAVE_EMU_REWRITE != 0;
}

#if CUGRADE_BUILD_HAVE_EMU_REWRITE
result<build_plan> plan_emu_build(const build_request& request, const build_paths& paths) {
  auto text = read_file(request.source);
  build_plan plan;
  if (!text) {
    plan.student_error = text.error();
    return plan;
  }
  const std::string file_name = request.source.filename().string();
  auto rewritten = emu::rewrite_source(*text, file_name);
  if (!rewritten) {
    plan.student_error = rewritten.error();
    return plan;
  }
  plan.compiled_file = request.work_dir / (request.source.stem().string() + ".emu.cpp");
  std::ofstream out(plan.compiled_file, std::ios::binary);
  if (!(out << *rewritten) || !out.flush()) {
    return fail("cannot write " + plan.compiled_file.string() + " (is the work dir writable?)");
  }
  split_command(emu::emu_compile_command(plan.compiled_file, paths.library,
                                         request.tools.emu_include_dir, request.tools.emu_lib_dir),
                request, paths, plan);
  return plan;
}
#else
result<build_plan> plan_emu_build(const build_request&, const build_paths&) {
  return fail("this cugrade was built without the emulator's source rewriter "
              "(harness/emu, target cugrade_emu_rewrite), so it cannot build for emulation");
}
#endif

} // namespace cugrade::build::detail
