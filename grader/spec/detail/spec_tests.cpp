#include "grader/spec/detail/spec_reader.h"

#include "grader/spec/suggest.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cugrade::spec::detail {

namespace {

std::string group_example(problems::kind problem) {
  return R"({"name": "rectangular", "visibility": "visible", "weight": 1, "shapes": [)" +
         example_shape(problem) + R"(], "distributions": "all"})";
}

std::optional<visibility> read_visibility(object_reader& r) {
  const auto word = r.text("visibility", "\"visible\"", true);
  if (!word)
    return std::nullopt;
  const auto vis = visibility_from_string(*word);
  if (!vis)
    r.diag().error(r.path_of("visibility"), json(*word).dump() +
                                                " is not a Gradescope visibility " +
                                                expected_one_of(*word, visibility_words()));
  return vis;
}

std::optional<double> read_weight(object_reader& r) {
  const auto weight = r.number("weight", "1", false);
  if (weight && !(std::isfinite(*weight) && *weight >= 0 && *weight <= 1e6)) {
    r.diag().error(r.path_of("weight"), "must be between 0 and 1000000, got " +
                                            number_text(*weight) + "; write e.g. \"weight\": 1");
    return std::nullopt;
  }
  return weight ? weight : std::optional(1.0);
}

std::optional<std::vector<problems::shape>> read_shapes(object_reader& r, problems::kind problem) {
  const json* value = r.find("shapes", "\"edge\"", true);
  if (value == nullptr)
    return std::nullopt;
  const std::string path = r.path_of("shapes");
  switch (classify(*value, path, "edge", "the problem's edge shapes",
                   "[" + example_shape(problem) + "]", r.diag())) {
  case keyword_or_list::keyword:
    return problems::get(problem).edge_shapes();
  case keyword_or_list::invalid:
    return std::nullopt;
  case keyword_or_list::list:
    break;
  }
  std::vector<problems::shape> shapes;
  bool complete = true;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const std::string at = element(path, i);
    const auto s = read_shape((*value)[i], at, problem, r.diag());
    if (s && std::find(shapes.begin(), shapes.end(), *s) != shapes.end())
      r.diag().error(at, problems::describe(problem, *s) + " is listed twice; remove one");
    else if (s)
      shapes.push_back(*s);
    complete = complete && s.has_value();
  }
  return complete ? std::optional(shapes) : std::nullopt;
}

std::optional<std::vector<std::string>> read_distributions(object_reader& r,
                                                           problems::kind problem) {
  const json* value = r.find("distributions", "\"all\"", true);
  if (value == nullptr)
    return std::nullopt;
  const std::string path = r.path_of("distributions");
  const auto known = problems::get(problem).distributions();
  switch (classify(*value, path, "all", "every distribution of the problem",
                   "[\"" + known.front() + "\"]", r.diag())) {
  case keyword_or_list::keyword:
    return known;
  case keyword_or_list::invalid:
    return std::nullopt;
  case keyword_or_list::list:
    break;
  }
  std::vector<std::string> names;
  bool complete = true;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const auto name = read_distribution((*value)[i], element(path, i), problem, r.diag());
    if (name && std::find(names.begin(), names.end(), *name) != names.end())
      r.diag().error(element(path, i), "\"" + *name + "\" is listed twice; remove one");
    else if (name)
      names.push_back(*name);
    complete = complete && name.has_value();
  }
  return complete ? std::optional(names) : std::nullopt;
}

std::optional<test_group> read_group(const json& value, const std::string& path,
                                     problems::kind problem, diagnostics& diag) {
  if (!expect_kind(value, value_kind::object, path, group_example(problem), diag))
    return std::nullopt;
  object_reader r(value, path, diag);
  r.reject_unknown_keys({"name", "visibility", "weight", "shapes", "distributions", "gpu_only"});
  const auto name = r.text("name", "\"rectangular\"", true);
  if (name && name->empty())
    diag.error(r.path_of("name"), "is empty; name the group, e.g. \"rectangular\"");
  const auto vis = read_visibility(r);
  const auto weight = read_weight(r);
  const auto shapes = read_shapes(r, problem);
  const auto distributions = read_distributions(r, problem);
  const auto gpu_only = r.flag("gpu_only", "true", false);
  if (!name || name->empty() || !vis || !weight || !shapes || !distributions ||
      (value.contains("gpu_only") && !gpu_only))
    return std::nullopt;
  test_group group{*name, *vis, *weight, {}, gpu_only.value_or(false)};
  for (const auto& s : *shapes)
    for (const auto& d : *distributions)
      group.cases.push_back(problems::case_template{s, d});
  return group;
}

// The same shape and distribution in two groups would test one thing twice and count it twice;
// hidden groups in particular should test shapes the visible ones do not.
void reject_shared_cases(const test_group& group, const std::string& path, problems::kind problem,
                         std::map<std::string, std::string>& owner, diagnostics& diag) {
  for (const auto& c : group.cases) {
    const std::string name = problems::describe(problem, c.dims) + "/" + c.distribution;
    const auto [it, inserted] = owner.emplace(name, group.name);
    if (!inserted)
      diag.error(path, "case " + name + " is also in group \"" + it->second +
                           "\"; a case belongs to one group, so remove it from one of them");
  }
}

} // namespace

void read_groups(const json& groups, const std::string& path, problems::kind problem,
                 std::vector<test_group>& out, diagnostics& diag) {
  std::set<std::string> names;
  std::map<std::string, std::string> owner;
  for (const test_group& earlier : out) {
    names.insert(earlier.name);
    for (const auto& c : earlier.cases)
      owner.emplace(problems::describe(problem, c.dims) + "/" + c.distribution, earlier.name);
  }
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const std::string at = element(path, i);
    const json& raw = groups[i];
    // Checked on the raw value so a group with other mistakes still reports a repeated name.
    if (raw.is_object() && raw.contains("name") && raw["name"].is_string() &&
        !names.insert(raw["name"].get<std::string>()).second)
      diag.error(child(at, "name"), "group \"" + raw["name"].get<std::string>() +
                                        "\" is defined twice; give each group its own name");
    auto group = read_group(raw, at, problem, diag);
    if (!group)
      continue;
    reject_shared_cases(*group, at, problem, owner, diag);
    out.push_back(std::move(*group));
  }
}

void read_tests(object_reader& top, problems::kind problem, assignment_spec& out) {
  const json* tests =
      top.get("tests", value_kind::object,
              "{\"seed\": 20261121, \"groups\": [" + group_example(problem) + "]}", true);
  if (tests == nullptr)
    return;
  object_reader r(*tests, top.path_of("tests"), top.diag());
  r.reject_unknown_keys({"seed", "groups"});
  out.seed = r.unsigned_whole("seed", "20261121", true).value_or(0);
  const json* groups = r.get("groups", value_kind::array, "[" + group_example(problem) + "]", true);
  if (groups == nullptr)
    return;
  if (groups->empty())
    r.diag().error(r.path_of("groups"),
                   "is empty; add at least one group, e.g. " + group_example(problem));
  read_groups(*groups, r.path_of("groups"), problem, out.groups, r.diag());
  if (out.groups.size() != groups->size() || out.groups.empty())
    return;
  if (out.total_weight() <= 0)
    r.diag().error(r.path_of("groups"), "every group has weight 0, so no kernel could earn its "
                                        "points; give at least one group a weight above 0");
  if (std::all_of(out.groups.begin(), out.groups.end(),
                  [](const test_group& g) { return g.gpu_only; }))
    r.diag().error(r.path_of("groups"),
                   "every group is gpu_only, so `cugrade check` and grading in emulation would "
                   "test nothing; leave at least one group without \"gpu_only\": true");
}

} // namespace cugrade::spec::detail
