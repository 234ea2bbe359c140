#include "grader/batch/lms_gradebook.h"

#include "grader/batch/csv_table.h"
#include "grader/batch/points_text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cugrade::batch {

namespace {

constexpr std::array<std::pair<gradebook_format, std::string_view>, 4> format_names{{
    {gradebook_format::generic, "generic"},
    {gradebook_format::canvas, "canvas"},
    {gradebook_format::moodle, "moodle"},
    {gradebook_format::blackboard, "blackboard"},
}};

bool all_digits(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool has_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(),
                     [](unsigned char c) { return std::iscntrl(c) != 0; });
}

std::string lms_value(const roster_entry& e, const std::string& column) {
  const auto it = e.lms.find(column);
  return it == e.lms.end() ? std::string() : it->second;
}

// What the LMS matches students by, in the words of a fix.
std::string_view matched_by(gradebook_format f) {
  switch (f) {
  case gradebook_format::canvas:
    return "Canvas matches each row to a student by ID (lms_id: the Canvas user ID), SIS User ID "
           "(sis_user_id) or SIS Login ID (sis_login_id)";
  case gradebook_format::moodle:
    return "Moodle matches each row to a student by lms_id (the username, ID number or email "
           "address chosen under \"Map to\")";
  case gradebook_format::blackboard:
    return "Blackboard matches each row to a student by Username (lms_id)";
  case gradebook_format::generic:
    break;
  }
  return "";
}

// The roster columns a row may identify its student by.
std::vector<std::string> id_columns(gradebook_format f) {
  if (f == gradebook_format::canvas) {
    return {"lms_id", "sis_user_id", "sis_login_id"};
  }
  return {"lms_id"};
}

void check_rows(gradebook_format f, const roster& r, std::vector<std::string>& problems) {
  const auto ids = id_columns(f);
  const auto present =
      std::find_if(ids.begin(), ids.end(), [&](const auto& c) { return r.columns.contains(c); });
  if (present == ids.end()) {
    problems.push_back(r.file.string() + ":1: the header has no " +
                       (ids.size() == 1 ? "\"lms_id\" column"
                                        : "lms_id, sis_user_id or "
                                          "sis_login_id column") +
                       ", and --gradebook " + std::string(to_string(f)) + " needs one: " +
                       std::string(matched_by(f)) + "; add the column (docs/batch.md)");
    return;
  }
  for (const auto& e : r.entries) {
    const bool identified =
        std::any_of(ids.begin(), ids.end(), [&](const auto& c) { return e.lms.contains(c); });
    if (!identified) {
      problems.push_back(roster_problem(r.file, e.line, r.columns.at(*present), *present,
                                        "empty, and --gradebook " + std::string(to_string(f)) +
                                            " needs it: " + std::string(matched_by(f)) +
                                            "; fill it in for student \"" + e.student + "\""));
    }
    const auto canvas_id = lms_value(e, "lms_id");
    if (f == gradebook_format::canvas && !canvas_id.empty() && !all_digits(canvas_id)) {
      problems.push_back(roster_problem(
          r.file, e.line, r.columns.at("lms_id"), "lms_id",
          "\"" + canvas_id +
              "\" is not a Canvas user ID (digits only: the number at the end of the student's "
              "page address, .../users/<ID>); put a SIS id in sis_user_id or sis_login_id"));
    }
  }
}

void check_assignment(gradebook_format f, const std::string& name, const std::string& id,
                      std::vector<std::string>& problems) {
  const std::string option = "--gradebook " + std::string(to_string(f));
  if (has_control(name) || (f == gradebook_format::blackboard && name.find('|') != name.npos)) {
    problems.push_back("--lms-assignment \"" + name + "\": " +
                       (f == gradebook_format::blackboard
                            ? "a control character or a | (Blackboard reads the Column ID after "
                              "|)"
                            : "a control character") +
                       "; give the name as the LMS shows it");
  }
  if (f == gradebook_format::moodle) {
    if (!id.empty()) {
      problems.push_back("--lms-assignment-id: Moodle's CSV import does not read one (its grade "
                         "item is chosen when importing); leave it out with " +
                         option);
    }
    return;
  }
  if (id.empty()) {
    problems.push_back(
        f == gradebook_format::canvas
            ? option + " needs --lms-assignment-id: the Canvas assignment's ID, the number at "
                       "the end of its address (.../courses/<course>/assignments/<ID>)"
            : option + " needs --lms-assignment-id: the Grade Center column's Column ID (the "
                       "column's menu, Quick Column Information); without it Blackboard would add "
                       "a text column worth 0 points");
  } else if (f == gradebook_format::canvas && !all_digits(id)) {
    problems.push_back("--lms-assignment-id \"" + id +
                       "\": a Canvas assignment ID is digits only (.../assignments/<ID>)");
  } else if (f == gradebook_format::blackboard && (has_control(id) || id.find('|') != id.npos)) {
    problems.push_back("--lms-assignment-id \"" + id +
                       "\": a Column ID has no control character or |; copy it from Quick "
                       "Column Information");
  }
}

std::string score_cell(const gradebook_row& row) {
  const auto score = row.score();
  return score ? points_text(*score) : std::string();
}

// Canvas's Student column: the roster's name, else "Last, First", else the student id.
std::string canvas_student_name(const roster_entry& e) {
  if (const auto name = lms_value(e, "name"); !name.empty()) {
    return name;
  }
  const auto last = lms_value(e, "last_name");
  const auto first = lms_value(e, "first_name");
  if (!last.empty() && !first.empty()) {
    return last + ", " + first;
  }
  return e.student;
}

std::string canvas(const std::vector<gradebook_row>& rows, const lms_assignment& a) {
  std::string out = spreadsheet_csv_line(
      {"Student", "ID", "SIS User ID", "SIS Login ID", "Section", a.name + " (" + a.id + ")"});
  out += spreadsheet_csv_line({"Points Possible", "", "", "", "", points_text(a.max_score)});
  for (const auto& row : rows) {
    const auto& e = *row.entry;
    out += spreadsheet_csv_line({canvas_student_name(e), lms_value(e, "lms_id"),
                                 lms_value(e, "sis_user_id"), lms_value(e, "sis_login_id"),
                                 lms_value(e, "section"), score_cell(row)});
  }
  return out;
}

std::string moodle(const std::vector<gradebook_row>& rows, const lms_assignment& a) {
  std::string out = spreadsheet_csv_line({"lms_id", a.name});
  for (const auto& row : rows) {
    out += spreadsheet_csv_line({lms_value(*row.entry, "lms_id"), score_cell(row)});
  }
  return out;
}

std::string blackboard(const std::vector<gradebook_row>& rows, const lms_assignment& a) {
  std::string out = quoted_spreadsheet_csv_line(
      {"Last Name", "First Name", "Username",
       a.name + " [Total Pts: " + points_text(a.max_score) + " Score] |" + a.id});
  for (const auto& row : rows) {
    const auto& e = *row.entry;
    out += quoted_spreadsheet_csv_line({lms_value(e, "last_name"), lms_value(e, "first_name"),
                                        lms_value(e, "lms_id"), score_cell(row)});
  }
  return out;
}

} // namespace

std::optional<gradebook_format> gradebook_format_named(std::string_view name) {
  for (const auto& [f, n] : format_names) {
    if (n == name) {
      return f;
    }
  }
  return std::nullopt;
}

std::string_view to_string(gradebook_format f) {
  for (const auto& [format, n] : format_names) {
    if (format == f) {
      return n;
    }
  }
  return "generic";
}

result<void> check_lms_gradebook_inputs(gradebook_format format, const roster& r,
                                        const std::string& assignment_name,
                                        const std::string& assignment_id) {
  if (format == gradebook_format::generic) {
    if (!assignment_name.empty() || !assignment_id.empty()) {
      return fail("--lms-assignment and --lms-assignment-id name the assignment in an LMS "
                  "gradebook; add --gradebook canvas, moodle or blackboard, or leave them out");
    }
    return {};
  }
  std::vector<std::string> problems;
  check_assignment(format, assignment_name, assignment_id, problems);
  check_rows(format, r, problems);
  if (problems.empty()) {
    return {};
  }
  std::string all;
  for (const auto& p : problems) {
    all += (all.empty() ? "" : "\n") + p;
  }
  return fail(all);
}

std::string lms_gradebook_file(gradebook_format format) {
  return "gradebook-" + std::string(to_string(format)) + ".csv";
}

std::string render_lms_gradebook(gradebook_format format, const std::vector<gradebook_row>& rows,
                                 const lms_assignment& assignment) {
  switch (format) {
  case gradebook_format::canvas:
    return canvas(rows, assignment);
  case gradebook_format::moodle:
    return moodle(rows, assignment);
  case gradebook_format::blackboard:
    return blackboard(rows, assignment);
  case gradebook_format::generic:
    break;
  }
  return "";
}

} // namespace cugrade::batch
