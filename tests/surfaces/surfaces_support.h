#pragma once
/// \file
/// What the surfaces suite's attacks share: the small reduction assignment, submissions made
/// from the reference with one change, a class folder with its roster, the real `cugrade` run on
/// it, and a CSV file read back cell by cell.

#include "tests/e2e/e2e_support.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::surfaces {

// The end-to-end helpers every attack uses, by their short names.
using e2e::cli_result;
using e2e::run_cugrade;
using e2e::text_of;

/// Lets everyone read and enter `folder` (a process::temp_dir is 0700), as a class's folder is.
void open_to_everyone(const std::filesystem::path& folder);

/// emu, or CUGRADE_SURFACES_BACKEND (gpu on a GPU machine).
[[nodiscard]] std::string backend();

/// tests/batch/small_reduction.json: reduction on small inputs, quick on 2 cores.
[[nodiscard]] std::filesystem::path small_spec();

/// The reference reduction.cu.
[[nodiscard]] std::string reference_source();

/// The reference with `code` run first in its reduce_interleaved launcher; `head` goes on top
/// of the file (includes, data).
[[nodiscard]] std::string reference_with_launcher_prologue(const std::string& head,
                                                           const std::string& code);

/// A submission that does not compile (the fixture grade_compile_error): graded in seconds.
[[nodiscard]] std::string compile_error_source();

/// `bytes` as a C array initialiser, "{0x1b, 0x5d, ...}", so any byte reaches a source file
/// without a C escape swallowing its neighbours.
[[nodiscard]] std::string c_array_of(const std::string& bytes);

/// A class under construction: one folder per student in `root`, and the roster's rows.
struct class_folder {
  explicit class_folder(std::filesystem::path dir);
  std::filesystem::path root;
  std::string rows = "student,repository,nickname\n";

  /// A plain folder holding `source` as reduction.cu; the row's fields as given (quote them
  /// yourself when they need it).
  void add(const std::string& student, const std::string& source, const std::string& nickname = "",
           const std::string& folder_name = "");
  /// Writes roster.csv and returns its path.
  [[nodiscard]] std::filesystem::path roster() const;
};

/// `cugrade batch <small spec> <roster> --out <out> --backend <backend()> --jobs 2 extra...`.
[[nodiscard]] e2e::cli_result run_batch(const std::filesystem::path& roster,
                                        const std::filesystem::path& out,
                                        const std::vector<std::string>& extra = {});

/// The rows of a CSV file as a spreadsheet would read its cells (RFC 4180), header first.
[[nodiscard]] std::vector<std::vector<std::string>> csv_cells(const std::filesystem::path& file);

/// The row whose first cell is `first`, or empty.
[[nodiscard]] std::vector<std::string>
row_starting(const std::vector<std::vector<std::string>>& rows, const std::string& first);

} // namespace cugrade::surfaces
