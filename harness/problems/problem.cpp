#include "harness/problems/problem.h"

#include "harness/core/error.h"
#include "harness/problems/convolution_problem.h"
#include "harness/problems/histogram_problem.h"
#include "harness/problems/matmul_problem.h"
#include "harness/problems/reduction_problem.h"
#include "harness/problems/rng.h"
#include "harness/problems/scan_problem.h"
#include "harness/problems/support.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <set>

namespace cugrade::problems {

namespace {

// Refuses two problems under one name: the name is the kind.
std::vector<const problem*> checked_registry(std::vector<const problem*> problems) {
  std::set<std::string_view> seen;
  for (const problem* p : problems) {
    if (!seen.insert(p->name()).second) {
      CUGRADE_THROW(fmt::format("two problems are registered as \"{}\"", p->name()));
    }
  }
  return problems;
}

std::string known_kinds() {
  return fmt::format("{}", fmt::join(names(), ", "));
}

} // namespace

// The one registration list: a kind exists when its problem is here.
const std::vector<const problem*>& all() {
  static const matmul_problem matmul;
  static const histogram_problem histogram;
  static const reduction_problem reduction;
  static const scan_problem scan;
  static const convolution_problem convolution;
  static const std::vector<const problem*> registry =
      checked_registry({&matmul, &histogram, &reduction, &scan, &convolution});
  return registry;
}

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const problem* p : all()) {
    out.emplace_back(p->name());
  }
  return out;
}

kind problem::id() const {
  const auto& registry = all();
  if (std::find(registry.begin(), registry.end(), this) == registry.end()) {
    CUGRADE_THROW(fmt::format("problem \"{}\" is not registered in all() (problem.cpp)", name()));
  }
  return kind{*this};
}

const problem& get(kind k) {
  if (k.m_problem == nullptr) {
    CUGRADE_THROW("no problem kind was set (a case, plan or spec without its kind); the known "
                  "kinds are " +
                  known_kinds());
  }
  return *k.m_problem;
}

std::string_view to_string(kind k) {
  return get(k).name();
}

result<kind> find_kind(std::string_view name) {
  for (const problem* p : all()) {
    if (p->name() == name) {
      return p->id();
    }
  }
  return fail(
      fmt::format("unknown problem kind \"{}\"; the known kinds are {}", name, known_kinds()));
}

kind kind_named(std::string_view name) {
  auto k = find_kind(name);
  if (!k) {
    CUGRADE_THROW(k.error());
  }
  return *k;
}

std::vector<shape_param> problem::shape_params() const {
  return {{.name = "n",
           .field = &shape::n,
           .largest = std::numeric_limits<long>::max() / 8,
           .example = 1000}};
}

std::optional<std::vector<float_recipe>> problem::float_recipes(const test_case&) const {
  return std::nullopt;
}

std::optional<technique_traffic> problem::expected_traffic(std::string_view, const shape&) const {
  return std::nullopt;
}

std::string problem::shape_words() const {
  return "shapes have n, the number of input elements";
}

std::string describe(kind k, const shape& s) {
  const auto params = get(k).shape_params();
  if (params.size() == 1) {
    return fmt::format("{}={}", params[0].name, s.*params[0].field);
  }
  std::string text;
  for (const auto& p : params) {
    text += (text.empty() ? "" : "x") + std::to_string(s.*p.field);
  }
  return text;
}

namespace {

std::optional<long> parse_size(std::string_view text) {
  long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 1) {
    return std::nullopt;
  }
  return v;
}

} // namespace

std::optional<shape> parse_description(kind k, std::string_view text) {
  const auto params = get(k).shape_params();
  if (params.size() == 1) {
    const std::string prefix = params[0].name + "=";
    if (!text.starts_with(prefix)) {
      return std::nullopt;
    }
    text.remove_prefix(prefix.size());
  }
  shape s;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto x = i + 1 < params.size() ? text.find('x') : text.size();
    if (x == std::string_view::npos) {
      return std::nullopt;
    }
    const auto size = parse_size(text.substr(0, x));
    if (!size) {
      return std::nullopt;
    }
    s.*params[i].field = *size;
    text.remove_prefix(std::min(text.size(), x + 1));
  }
  return s;
}

bool all_multiples_of(kind k, const shape& s, long m) {
  const auto params = get(k).shape_params();
  return std::all_of(params.begin(), params.end(),
                     [&](const shape_param& p) { return !p.tiled || s.*p.field % m == 0; });
}

std::size_t element_size(element_type t) {
  switch (t) {
  case element_type::f32:
  case element_type::u32:
    return 4;
  case element_type::u8:
    return 1;
  }
  CUGRADE_THROW("unknown element type " + std::to_string(static_cast<int>(t)));
}

std::size_t byte_size(const buffer_spec& spec) {
  return spec.count * element_size(spec.type);
}

std::vector<test_case> make_cases(kind k, const std::vector<case_template>& templates,
                                  std::uint64_t base_seed) {
  std::vector<test_case> cases;
  std::set<std::string> names;
  for (const auto& t : templates) {
    test_case c{.name = describe(k, t.dims) + "/" + t.distribution,
                .problem = k,
                .dims = t.dims,
                .distribution = t.distribution,
                .seed = 0};
    // The seed hangs on the name alone, so adding or reordering templates changes nothing else.
    c.seed = derive_seed(base_seed, c.name);
    require_case(get(k), c);
    if (!names.insert(c.name).second) {
      CUGRADE_THROW(fmt::format("case \"{}\" is listed twice", c.name));
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<case_template> edge_templates(kind k) {
  const problem& p = get(k);
  std::vector<case_template> templates;
  for (const auto& s : p.edge_shapes()) {
    for (const auto& d : p.distributions()) {
      templates.push_back({.dims = s, .distribution = d});
    }
  }
  return templates;
}

} // namespace cugrade::problems
