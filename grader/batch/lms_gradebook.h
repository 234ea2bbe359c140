#pragma once
/// \file
/// `--gradebook canvas|moodle|blackboard`: besides gradebook.csv, DIR/gradebook-<lms>.csv in the
/// layout that LMS's grade import reads (docs/batch.md, "Gradebooks for an LMS", names the
/// documents each layout follows):
/// - canvas: Student, ID, SIS User ID, SIS Login ID, Section, "<assignment> (<id>)", with a
///   "Points Possible" row;
/// - moodle: lms_id, "<assignment>" (the identifier first: Moodle's "Map from" default);
/// - blackboard: "Last Name","First Name","Username","<assignment> [Total Pts: <max> Score]
///   |<column id>", every field quoted.
/// A student without a score has an empty cell, which every one of them reads as "no grade".

#include "grader/batch/gradebook.h"
#include "grader/batch/roster.h"
#include "harness/core/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::batch {

/// Which gradebook a batch writes besides gradebook.csv (generic: none).
enum class gradebook_format { generic, canvas, moodle, blackboard };

/// "canvas" -> gradebook_format::canvas...; nullopt for an unknown name.
[[nodiscard]] std::optional<gradebook_format> gradebook_format_named(std::string_view name);
[[nodiscard]] std::string_view to_string(gradebook_format f);

/// The assignment as the LMS knows it.
struct lms_assignment {
  std::string name; ///< --lms-assignment; else the spec's name
  std::string id;   ///< --lms-assignment-id: Canvas's assignment ID, Blackboard's Column ID
  double max_score = 0;
};

/// Refuses, before anyone is graded, what `format` cannot import: a roster row without the id
/// the LMS matches students by (every problem, each with file, line, column and fix), a missing
/// or malformed --lms-assignment-id, an --lms-assignment-id Moodle would not use.
[[nodiscard]] result<void> check_lms_gradebook_inputs(gradebook_format format, const roster& r,
                                                      const std::string& assignment_name,
                                                      const std::string& assignment_id);

/// The file's name in DIR: gradebook-canvas.csv...
[[nodiscard]] std::string lms_gradebook_file(gradebook_format format);

/// The file's text for `format` (not generic).
[[nodiscard]] std::string render_lms_gradebook(gradebook_format format,
                                               const std::vector<gradebook_row>& rows,
                                               const lms_assignment& assignment);

} // namespace cugrade::batch
