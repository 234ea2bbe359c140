#pragma once
/// \file
/// `cugrade package student`: the source tree a course publishes for its students
/// (docs/gradescope.md, "The student distribution").
///
/// The tree is cugrade's sources as a build of the `grade` preset needs them, the docs, the
/// Dockerfile and every assignment's spec and starter, without `reference/`, without any folder a
/// spec names as its reference, and without any `hidden.json`. Students build it (or the
/// Dockerfile's image) to run `cugrade check`; the course builds its release `.deb` from it
/// (`./scripts/setup grade && cd build/grade && cpack -G DEB`), which then holds no reference
/// kernel and no hidden shape by construction.

#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::package {

struct student_request {
  std::filesystem::path out;          ///< a new or empty folder
  std::filesystem::path project_root; ///< a cugrade source tree
};

/// What was written, for the command to report.
struct student_package {
  std::filesystem::path dir;
  std::vector<std::string> entries;     ///< the top-level files and folders written
  std::vector<std::string> assignments; ///< the assignments the tree holds
  std::vector<std::string> left_out;    ///< reference folders and hidden files, as in the tree
};

/// Writes the tree into `request.out`. Refuses (a usage error) a folder that is not empty or that
/// lies inside what it copies, and a source tree whose specs do not load; after copying, checks
/// that no written file is named hidden.json or equals a reference source, and removes what it
/// wrote if one does.
[[nodiscard]] result<student_package> package_student(const student_request& request);

} // namespace cugrade::package
