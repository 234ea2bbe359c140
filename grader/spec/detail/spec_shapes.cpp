#include "grader/spec/detail/spec_reader.h"

#include "grader/spec/suggest.h"

#include <algorithm>

namespace cugrade::spec::detail {

namespace {

std::vector<std::string> size_keys(problems::kind problem) {
  std::vector<std::string> keys;
  for (const auto& p : problems::get(problem).shape_params())
    keys.push_back(p.name);
  return keys;
}

std::string sizes_explained(problems::kind problem) {
  return std::string(problems::to_string(problem)) + " " + problems::get(problem).shape_words();
}

long largest_size(problems::kind problem, const std::string& key) {
  for (const auto& p : problems::get(problem).shape_params())
    if (p.name == key)
      return p.largest;
  return 0;
}

void reject_foreign_keys(const json& value, const std::string& path, problems::kind problem,
                         diagnostics& diag) {
  const auto keys = size_keys(problem);
  for (const auto& [key, ignored] : value.items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end())
      continue;
    std::string what = "\"" + key + "\" is not a size of problem " +
                       std::string(problems::to_string(problem)) + " (" + sizes_explained(problem) +
                       ")";
    if (auto match = closest_match(key, keys))
      what += "; did you mean \"" + *match + "\"?";
    else
      what += "; remove it";
    diag.error(child(path, key), what);
  }
}

std::optional<long> read_size(object_reader& r, const std::string& key, problems::kind problem) {
  const auto value = r.whole(key, "37", true);
  if (!value)
    return std::nullopt;
  if (*value < 1 || *value > largest_size(problem, key)) {
    r.diag().error(r.path_of(key), "must be a whole number from 1 to " +
                                       std::to_string(largest_size(problem, key)) + ", got " +
                                       std::to_string(*value) + "; write e.g. \"" + key + "\": 37");
    return std::nullopt;
  }
  return static_cast<long>(*value);
}

} // namespace

std::string example_shape(problems::kind problem) {
  std::string text;
  for (const auto& p : problems::get(problem).shape_params())
    text += (text.empty() ? "{" : ", ") + json(p.name).dump() + ": " + std::to_string(p.example);
  return text + "}";
}

std::optional<problems::shape> read_shape(const json& value, const std::string& path,
                                          problems::kind problem, diagnostics& diag) {
  if (!expect_kind(value, value_kind::object, path, example_shape(problem), diag))
    return std::nullopt;
  reject_foreign_keys(value, path, problem, diag);
  object_reader r(value, path, diag);
  bool complete = true;
  std::vector<long> sizes;
  for (const auto& key : size_keys(problem)) {
    if (!value.contains(key)) {
      diag.error(path, "size \"" + key + "\" is missing (" + sizes_explained(problem) +
                           "); write e.g. " + example_shape(problem));
      complete = false;
      continue;
    }
    const auto size = read_size(r, key, problem);
    complete = complete && size.has_value();
    sizes.push_back(size.value_or(0));
  }
  if (!complete)
    return std::nullopt;
  problems::shape s;
  const auto params = problems::get(problem).shape_params();
  for (std::size_t i = 0; i < params.size(); ++i)
    s.*params[i].field = sizes[i];
  return s;
}

std::optional<std::string> read_distribution(const json& value, const std::string& path,
                                             problems::kind problem, diagnostics& diag) {
  const auto known = problems::get(problem).distributions();
  if (!expect_kind(value, value_kind::string, path, "\"" + known.front() + "\"", diag))
    return std::nullopt;
  const auto word = value.get<std::string>();
  if (std::find(known.begin(), known.end(), word) != known.end())
    return word;
  diag.error(path, json(word).dump() + " is not a distribution of problem " +
                       std::string(problems::to_string(problem)) + " " +
                       expected_one_of(word, known));
  return std::nullopt;
}

} // namespace cugrade::spec::detail
