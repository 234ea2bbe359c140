// Finding, reading and validating spec files.
#include "grader/spec/assignment_spec.h"

#include "grader/spec/detail/json_document.h"
#include "grader/spec/detail/spec_reader.h"
#include "grader/spec/emulation_cost.h"
#include "grader/spec/suggest.h"
#include "harness/core/file_io.h"
#include "harness/core/sha256.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace cugrade::spec {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> top_level_keys = {
    "schema",    "name",    "title",       "problem",   "source",
    "reference", "kernels", "tests",       "benchmark", "performance",
    "tolerance", "limits",  "late_policy", "deadline",  "sanitizer", "insight"};

// Messages name files relative to the project root when they lie under it.
std::string shown_name(const fs::path& file, const fs::path& project_root) {
  const fs::path absolute_file = fs::absolute(file).lexically_normal();
  const fs::path relative = absolute_file.lexically_relative(fs::absolute(project_root));
  if (!relative.empty() && *relative.begin() != "..")
    return relative.generic_string();
  return absolute_file.string();
}

bool looks_like_name(std::string_view text) {
  return !text.empty() && text != "." && text != ".." &&
         text.find_first_of("/\\") == std::string_view::npos && !text.ends_with(".json");
}

result<fs::path> locate(std::string_view name_or_path, const fs::path& project_root) {
  std::error_code ec;
  const fs::path given(name_or_path);
  if (name_or_path.empty())
    return fail("no assignment given; name one (" + join(known_assignments(project_root), ", ") +
                "), a folder holding assignment.json or the path of a .json file");
  if (looks_like_name(name_or_path)) {
    const fs::path by_name = project_root / "assignments" / given / "assignment.json";
    if (fs::is_regular_file(by_name, ec))
      return by_name;
    if (!fs::exists(given, ec))
      return fail("no assignment called \"" + std::string(name_or_path) + "\" in " +
                  (project_root / "assignments").string() + " " +
                  expected_one_of(name_or_path, known_assignments(project_root)) +
                  "; give an assignment name, a folder holding assignment.json or a .json file");
  }
  if (fs::is_directory(given, ec)) {
    if (fs::is_regular_file(given / "assignment.json", ec))
      return given / "assignment.json";
    return fail(given.string() + ": this folder has no assignment.json; give the folder that "
                                 "holds the spec, or the path of the .json file");
  }
  if (!fs::exists(given, ec))
    return fail(given.string() + ": no such file; give an assignment name (" +
                join(known_assignments(project_root), ", ") +
                "), a folder holding assignment.json or the path of a .json file");
  return given;
}

result<std::string> read_text(const fs::path& file, const std::string& shown) {
  auto text = read_file(file);
  if (!text)
    return fail(shown + ": cannot read the spec (" + text.error() +
                "); check that the file exists and is readable");
  return text;
}

// assignments/<folder>/assignment.json must be called <folder>: the name is how it is found.
void check_folder_name(const fs::path& spec_path, const fs::path& project_root,
                       const assignment_spec& spec, detail::diagnostics& diag) {
  const fs::path absolute_file = fs::absolute(spec_path).lexically_normal();
  const fs::path folder = absolute_file.parent_path();
  if (absolute_file.filename() != "assignment.json" ||
      folder.parent_path() != (fs::absolute(project_root) / "assignments").lexically_normal())
    return;
  if (!spec.name.empty() && spec.name != folder.filename().string())
    diag.error("name", "\"" + spec.name + "\" differs from the folder name \"" +
                           folder.filename().string() +
                           "\", by which the assignment is found; "
                           "rename one so they agree");
}

void read_document(const nlohmann::json& doc, const fs::path& project_root, bool require_reference,
                   assignment_spec& out, detail::diagnostics& diag) {
  detail::object_reader top(doc, "", diag);
  top.reject_unknown_keys(top_level_keys);
  if (const auto problem = detail::read_identity(top, project_root, require_reference, out)) {
    detail::read_kernels(top, *problem, out);
    detail::read_tests(top, *problem, out);
    detail::read_benchmark(top, *problem, out);
    detail::read_sanitizer(top, *problem, out);
  }
  out.insight = top.flag("insight", "false", false).value_or(true);
  detail::read_policies(top, out);
  const bool scores_speed =
      std::any_of(out.kernels.begin(), out.kernels.end(),
                  [](const kernel_spec& k) { return k.performance_points > 0; });
  if (scores_speed && out.benchmarks.empty())
    diag.error("benchmark", "kernels have performance_points but there are no benchmark cases; "
                            "write \"benchmark\": {\"cases\": \"default\"}");
}

} // namespace

result<assignment_spec> parse_assignment(std::string_view text, const fs::path& spec_path,
                                         const fs::path& project_root, bool require_reference) {
  detail::diagnostics diag(shown_name(spec_path, project_root));
  auto doc = detail::parse_json(text, diag.file());
  if (!doc)
    return fail(doc.error());
  if (!doc->is_object())
    return fail(diag.file() + ": the spec must be a JSON object {\"schema\": ...}, got " +
                detail::describe(*doc) + "; see docs/assignments.md");
  assignment_spec out;
  read_document(*doc, project_root, require_reference, out, diag);
  check_folder_name(spec_path, project_root, out, diag);
  if (!diag.empty())
    return fail(diag.message());
  out.spec_path = fs::absolute(spec_path).lexically_normal();
  out.spec_sha256 = sha256_hex(text);
  out.warnings = emulation_cost_warnings(out);
  return out;
}

result<assignment_spec> load_assignment(std::string_view name_or_path,
                                        const fs::path& project_root) {
  load_options spec_only;
  spec_only.hidden = hidden_tests::none;
  return load_assignment(name_or_path, project_root, spec_only);
}

result<assignment_spec> load_assignment(std::string_view name_or_path, const fs::path& project_root,
                                        const load_options& options) {
  auto file = locate(name_or_path, project_root);
  if (!file)
    return fail(file.error());
  auto text = read_text(*file, shown_name(*file, project_root));
  if (!text)
    return fail(text.error());
  auto spec = parse_assignment(*text, *file, project_root, options.require_reference);
  if (!spec || options.hidden == hidden_tests::none)
    return spec;
  std::error_code ec;
  const fs::path beside = spec->spec_path.parent_path() / hidden_file_name;
  if (options.hidden == hidden_tests::beside_spec && !fs::exists(beside, ec))
    return spec;
  const fs::path hidden = options.hidden == hidden_tests::from_file ? options.hidden_file : beside;
  if (auto merged = merge_hidden_groups(*spec, hidden); !merged)
    return merged.why();
  return spec;
}

std::vector<std::string> known_assignments(const fs::path& project_root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(project_root / "assignments", ec))
    if (fs::is_regular_file(entry.path() / "assignment.json", ec))
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace cugrade::spec
