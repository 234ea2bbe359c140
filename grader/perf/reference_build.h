#pragma once
/// \file
/// The reference solution compiled like a submission (nvcc, the same flags and symbol policy), so
/// speedups compare like with like. Builds are cached by the source's and the compiler's identity:
/// the reference compiles once per machine, not once per grading.

#include "grader/spec/assignment_spec.h"
#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::perf {

/// The shared library of the reference for `spec`, built with `nvcc` into
/// reference_build_dir() (or found there). Fails when the reference does not build or lacks a
/// launcher: the assignment itself is broken, not the student's work.
/// `archs` are the architectures to compile for (the present GPU's, e.g. {"90"}); empty: the
/// build's defaults.
[[nodiscard]] result<std::filesystem::path>
reference_library(const spec::assignment_spec& spec, const std::filesystem::path& nvcc,
                  const std::filesystem::path& cache_dir, const std::vector<std::string>& archs = {});

/// <cache_dir>/reference/<assignment>-<hash of the source, the compiler and the architectures>;
/// the library in it is lib<source stem>.so.
[[nodiscard]] std::filesystem::path
reference_build_dir(const spec::assignment_spec& spec, const std::filesystem::path& nvcc,
                    const std::filesystem::path& cache_dir,
                    const std::vector<std::string>& archs = {});

} // namespace cugrade::perf
