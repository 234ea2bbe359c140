#pragma once
// Shared by the build tests: a submission folder holding one of tests/build/sources/ as
// matmul.cu, a work folder, and the toolchain found on this machine.

#include "grader/build/build.h"
#include "grader/process/process.h"
#include "grader/process/temp_dir.h"
#include "harness/problems/problem.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::build::testing {

/// nvcc from $CUDACXX, the usual toolkit location, or PATH.
inline std::optional<std::filesystem::path> find_nvcc() {
  if (const char* from_env = std::getenv("CUDACXX"); from_env != nullptr && *from_env != 0) {
    return process::find_program(from_env);
  }
  if (auto usual = process::find_program("/usr/local/cuda/bin/nvcc")) {
    return usual;
  }
  return process::find_program("nvcc");
}

inline const std::vector<std::string> matmul_launchers{"matmul_naive", "matmul_tiled",
                                                       "matmul_dynamic"};

class build_test : public ::testing::Test {
protected:
  /// A request building sources/<source_name> as <submission>/matmul.cu, with this machine's
  /// nvcc (gpu) or the emulator of this build (emu).
  build_request request_for(const std::string& source_name, backend target) {
    const auto submission = m_dir.path() / "submission";
    std::filesystem::create_directories(submission);
    std::filesystem::copy_file(std::filesystem::path(CUGRADE_TEST_BUILD_SOURCES) / source_name,
                               submission / "matmul.cu",
                               std::filesystem::copy_options::overwrite_existing);
    build_request request;
    request.target = target;
    request.source = submission / "matmul.cu";
    request.work_dir = m_dir.path() / "work";
    request.launchers = matmul_launchers;
    request.launcher_parameters = problems::get(problems::kind_named("matmul"))
                                      .launcher_parameters(); // checked as in grading
    request.time_limit_seconds = 120;
    request.tools.cuda_archs = {"80"}; // one architecture keeps the suite fast
    if (target == backend::gpu) {
      request.tools.nvcc = find_nvcc().value_or("");
    } else { // the emulator's headers are in the source tree, its runtime library in lib/
      request.tools.emu_include_dir = CUGRADE_TEST_EMU_INCLUDE_DIR;
      request.tools.emu_lib_dir = CUGRADE_TEST_EMU_LIB_DIR;
    }
    return request;
  }

  /// Builds and fails the test on an infrastructure failure.
  build_outcome build(const build_request& request) {
    auto outcome = build_submission(request);
    if (!outcome) {
      ADD_FAILURE() << outcome.error();
      return {};
    }
    return std::move(outcome).value();
  }

  [[nodiscard]] const std::filesystem::path& scratch() const { return m_dir.path(); }

  /// A host compiler that refuses a C function declared twice with different parameters, as
  /// clang does (gcc only warns): g++ with -Werror whenever the contract's header is included.
  /// It lives in the submission's folder, which the compiler's sandbox shows.
  std::filesystem::path strict_compiler() {
    const auto path = m_dir.path() / "submission" / "strict-g++";
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << "#!/bin/sh\n"
                           "case \" $* \" in *cugrade_contract.h*) exec g++ -Werror \"$@\";; esac\n"
                           "exec g++ \"$@\"\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
  }

private:
  process::temp_dir m_dir{"cugrade-build-test"};
};

/// True when some entry of `list` starts with `prefix`; prints the list otherwise.
inline ::testing::AssertionResult has_entry_starting(const std::vector<std::string>& list,
                                                     const std::string& prefix) {
  if (std::any_of(list.begin(), list.end(),
                  [&](const std::string& entry) { return entry.rfind(prefix, 0) == 0; })) {
    return ::testing::AssertionSuccess();
  }
  auto failure = ::testing::AssertionFailure() << "no entry starts with \"" << prefix << "\" in:";
  for (const auto& entry : list) {
    failure << "\n  " << entry;
  }
  return failure;
}

} // namespace cugrade::build::testing
