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
  /// A request building sources/<source_name> as <submission>/matmul.cu.
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
    request.launcher_parameters =
        problems::get(problems::kind::matmul).launcher_parameters(); // checked as in grading
    request.time_limit_seconds = 120;
    request.tools.cuda_archs = {"80"}; // one architecture keeps the suite fast
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

private:
  process::temp_dir m_dir{"cugrade-build-test"};
};

/// What the report says about sources/forbidden_host_calls.cu on either backend: each call as
/// the student wrote it, at its line, with the reason.
inline const std::vector<std::string> forbidden_host_calls{
    "std::system at matmul.cu:14 (processes and signals are not allowed)",
    "std::getenv at matmul.cu:15 (the environment is not allowed)",
    "std::fopen at matmul.cu:22 (files are not allowed)",
    "std::fclose at matmul.cu:24 (files are not allowed)",
    "clock_gettime at matmul.cu:27 (clocks and timing are not allowed)",
    "cudaStreamCreate at matmul.cu:33 (streams, events and graphs are not allowed)",
    "cudaStreamDestroy at matmul.cu:35 (streams, events and graphs are not allowed)"};

/// The same for sources/defines_runtime_names.cu.
inline const std::vector<std::string> runtime_name_definitions{
    "defines malloc at matmul.cu:4, which the runtime already defines",
    "defines main at matmul.cu:12, which the grader owns"};

/// The same for sources/forbidden_in_headers.cu: std::async starts its thread in library code,
/// named by the #include; the future's get() rethrows through exception_ptr, inlined at the line.
inline const std::vector<std::string> forbidden_in_headers{
    "`#include <future>` at matmul.cu:4 (threads are not allowed)",
    "`const int block = size.get();` at matmul.cu:17 (not on the allowlist)"};

/// The errors that sources/signature_*.cu must fail the build with, on either backend.
inline const std::string contract_signature =
    "(const float* M, const float* N, float* P, int j, int k, int l)`";
inline const std::string dropped_parameter_error =
    "matmul.cu:12: error: matmul_naive is declared as `void matmul_naive(const float* M, const "
    "float* N, float* P, int j, int k)`; the contract's is `void matmul_naive" +
    contract_signature;
inline const std::string double_pointer_error =
    "matmul.cu:14: error: matmul_tiled is declared as `void matmul_tiled(const double* M, const "
    "double* N, double* P, int j, int k, int l)`; the contract's is `void matmul_tiled" +
    contract_signature;

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
