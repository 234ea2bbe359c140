#include "grader/spec/detail/spec_reader.h"

#include "grader/spec/suggest.h"

#include <algorithm>

namespace cugrade::spec::detail {

namespace {

// Names become folder names, report keys and Gradescope labels: keep them tame.
bool is_plain_name(const std::string& name) {
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  };
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), allowed) &&
         name[0] != '-' && name[0] != '_';
}

bool is_plain_cuda_file(const std::string& file) {
  return file.size() > 3 && file.ends_with(".cu") && file[0] != '.' &&
         file.find_first_of("/\\") == std::string::npos;
}

void read_schema(object_reader& top) {
  const auto schema = top.text("schema", "\"cugrade.assignment/1\"", true);
  if (schema && *schema != schema_id)
    top.diag().error(top.path_of("schema"),
                     json(*schema).dump() +
                         " is not a schema this cugrade reads; write \"schema\": \"" +
                         std::string(schema_id) + "\"");
}

void read_names(object_reader& top, assignment_spec& out) {
  if (auto name = top.text("name", "\"matmul\"", true)) {
    if (!is_plain_name(*name))
      top.diag().error(top.path_of("name"),
                       json(*name).dump() + " is not a plain name; use lowercase letters, digits, "
                                            "'_' and '-' (at most 64), e.g. \"matmul\"");
    out.name = *name;
  }
  out.title = top.text("title", "\"Matrix multiplication\"", false).value_or(out.name);
  if (out.title.empty())
    top.diag().error(top.path_of("title"), "is empty; write a title or remove the field");
}

std::optional<problems::kind> read_problem(object_reader& top) {
  const auto word = top.text("problem", "\"matmul\"", true);
  if (!word)
    return std::nullopt;
  const auto problem = problems::find_kind(*word);
  if (!problem) {
    top.diag().error(top.path_of("problem"), json(*word).dump() +
                                                 " is not a problem cugrade knows " +
                                                 expected_one_of(*word, problems::names()));
    return std::nullopt;
  }
  return *problem;
}

void read_source(object_reader& top, assignment_spec& out) {
  const auto file = top.text("source", "\"matmul.cu\"", true);
  if (!file)
    return;
  if (!is_plain_cuda_file(*file))
    top.diag().error(top.path_of("source"),
                     json(*file).dump() + " must be a plain file name ending in .cu (students hand "
                                          "it in at their repository's root), e.g. \"matmul.cu\"");
  out.source_file = *file;
}

void read_reference(object_reader& top, const std::filesystem::path& project_root,
                    bool require_reference, assignment_spec& out) {
  const auto dir = top.text("reference", "\"reference\"", false).value_or("reference");
  out.reference_dir = (std::filesystem::absolute(project_root) / dir).lexically_normal();
  const std::string shown = json(dir).dump() + " (" + out.reference_dir.string() + ")";
  std::error_code ec;
  if (!require_reference)
    return;
  if (!std::filesystem::is_directory(out.reference_dir, ec)) {
    top.diag().error(top.path_of("reference"),
                     "directory " + shown +
                         " does not exist; point \"reference\" at the folder, "
                         "relative to the project root, holding the reference "
                         "solution");
    return;
  }
  if (!out.source_file.empty() &&
      !std::filesystem::is_regular_file(out.reference_dir / out.source_file, ec))
    top.diag().error(top.path_of("reference"),
                     "directory " + shown + " has no " + out.source_file +
                         "; put the reference solution there or point \"reference\" at the "
                         "folder holding it");
}

} // namespace

std::optional<problems::kind> read_identity(object_reader& top,
                                            const std::filesystem::path& project_root,
                                            bool require_reference, assignment_spec& out) {
  read_schema(top);
  read_names(top, out);
  const auto problem = read_problem(top);
  if (problem)
    out.problem = *problem;
  read_source(top, out);
  read_reference(top, project_root, require_reference, out);
  return problem;
}

} // namespace cugrade::spec::detail
