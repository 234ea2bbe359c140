// The instructor's hidden groups: a file of its own, so that assignment.json (which students need
// for `cugrade check`) carries no hidden shape.
#include "grader/spec/assignment_spec.h"

#include "grader/spec/detail/json_document.h"
#include "grader/spec/detail/spec_reader.h"
#include "grader/spec/emulation_cost.h"
#include "harness/core/file_io.h"
#include "harness/core/sha256.h"

namespace cugrade::spec {

namespace fs = std::filesystem;

namespace {

const std::string example =
    R"({"schema": "cugrade.hidden/1", "assignment": "<name>", "groups": [{"name": "hidden", )"
    R"("visibility": "hidden", "weight": 2, "shapes": [...], "distributions": "all"}]})";

void read_header(detail::object_reader& top, const assignment_spec& spec) {
  top.reject_unknown_keys({"schema", "assignment", "groups"});
  if (const auto schema = top.text("schema", "\"cugrade.hidden/1\"", true);
      schema && *schema != hidden_schema_id)
    top.diag().error("schema", detail::json(*schema).dump() + " is not \"" +
                                   std::string(hidden_schema_id) +
                                   "\", the only hidden-groups schema this cugrade reads");
  if (const auto name = top.text("assignment", detail::json(spec.name).dump(), true);
      name && *name != spec.name)
    top.diag().error("assignment", detail::json(*name).dump() +
                                       " is not the assignment being graded (\"" + spec.name +
                                       "\"); give the hidden file of " + spec.name);
}

// A visible group in the private file would show its shapes in every report anyway.
void reject_visible(const std::vector<test_group>& added, std::size_t first,
                    detail::diagnostics& diag) {
  for (std::size_t i = first; i < added.size(); ++i)
    if (added[i].vis == visibility::visible)
      diag.error(detail::element("groups", i - first) + ".visibility",
                 "group \"" + added[i].name +
                     "\" is visible; visible groups belong in assignment.json, so move it there "
                     "or write \"visibility\": \"hidden\"");
}

} // namespace

result<void> merge_hidden_groups(assignment_spec& spec, const fs::path& hidden_file) {
  const std::string shown = hidden_file.string();
  auto text = read_file(hidden_file);
  if (!text)
    return fail_usage(shown + ": cannot read the hidden groups (" + text.error() +
                      "); give the instructor's hidden file with --hidden FILE, or remove it");
  auto doc = detail::parse_json(*text, shown);
  if (!doc)
    return fail_usage(doc.error());
  if (!doc->is_object())
    return fail_usage(shown + ": the hidden file must be a JSON object, e.g. " + example);
  detail::diagnostics diag(shown);
  detail::object_reader top(*doc, "", diag);
  read_header(top, spec);
  const std::size_t first = spec.groups.size();
  if (const detail::json* groups =
          top.get("groups", detail::value_kind::array, "[{...}] (see docs/assignments.md)", true))
    detail::read_groups(*groups, "groups", spec.problem, spec.groups, diag);
  reject_visible(spec.groups, first, diag);
  if (!diag.empty())
    return fail_usage(diag.message());
  spec.spec_sha256 = sha256_hex(spec.spec_sha256 + sha256_hex(*text));
  spec.warnings = emulation_cost_warnings(spec);
  return {};
}

} // namespace cugrade::spec
