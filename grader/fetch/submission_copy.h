#pragma once
/// \file
/// Taking a submission in: its files are copied into the grading's own folder before anything
/// reads them, so nothing outside the sandbox ever opens a path a student controls except to make
/// this copy. The copy follows no link, opens only regular files (`O_NOFOLLOW`, checked with
/// `fstat` on the open descriptor), and is bounded in size, in number of entries and in depth.
/// docs/sandbox.md, "What the grader itself reads", states the rules.

#include "harness/core/result.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::fetch {

/// Bounds on what a grading copies in (a spec's `limits`, docs/assignments.md).
struct copy_limits {
  /// The contract's source file.
  std::uint64_t source_bytes = std::uint64_t{1} << 20;
  /// Every copied file together.
  std::uint64_t submission_bytes = std::uint64_t{64} << 20;
  /// Files and folders together.
  std::size_t max_entries = 10000;
  /// Folders below the submission's root.
  int max_depth = 16;
};

/// The submission as the grading holds it.
struct copied_submission {
  /// The copy: a folder of the grading's own.
  std::filesystem::path directory;
  /// `directory / source_file`.
  std::filesystem::path source;
  /// Sentences for the report: what was left out and why ("2 symbolic links were not copied
  /// (links are never followed): include/util.h, data").
  std::vector<std::string> notes;
};

/// Copies the submission at `from` into `to` (created; it must not exist yet). Fails with
/// failure_kind::submission, a message for the student, when the contract's `source_file` is not
/// a regular file at the root (a link, a FIFO, a device, a folder, missing: then it names a
/// likely misplaced file), when it is larger than `limits.source_bytes`, or when the submission
/// is over its other limits; with failure_kind::infrastructure when `from` cannot be read or `to`
/// cannot be written.
[[nodiscard]] result<copied_submission> copy_submission(const std::filesystem::path& from,
                                                        const std::string& source_file,
                                                        const std::filesystem::path& to,
                                                        const copy_limits& limits);

/// "1 MiB", "200.0 MiB", "512 bytes": a size for a message.
[[nodiscard]] std::string byte_size_text(std::uint64_t bytes);

} // namespace cugrade::fetch
