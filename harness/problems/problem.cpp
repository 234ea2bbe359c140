#include "harness/problems/problem.h"

#include "harness/core/error.h"
#include "harness/problems/histogram_problem.h"
#include "harness/problems/matmul_problem.h"
#include "harness/problems/reduction_problem.h"
#include "harness/problems/rng.h"
#include "harness/problems/support.h"

#include <fmt/format.h>
#include <set>

namespace cugrade::problems {

std::string_view to_string(kind k) {
  switch (k) {
  case kind::matmul:
    return "matmul";
  case kind::histogram:
    return "histogram";
  case kind::reduction:
    return "reduction";
  }
  CUGRADE_THROW("unknown problem kind " + std::to_string(static_cast<int>(k)));
}

std::optional<kind> kind_from_string(std::string_view name) {
  for (const kind k : {kind::matmul, kind::histogram, kind::reduction}) {
    if (to_string(k) == name) {
      return k;
    }
  }
  return std::nullopt;
}

std::string describe(kind k, const shape& s) {
  return k == kind::matmul ? fmt::format("{}x{}x{}", s.j, s.k, s.l) : fmt::format("n={}", s.n);
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

const problem& get(kind k) {
  static const matmul_problem matmul;
  static const histogram_problem histogram;
  static const reduction_problem reduction;
  switch (k) {
  case kind::matmul:
    return matmul;
  case kind::histogram:
    return histogram;
  case kind::reduction:
    return reduction;
  }
  CUGRADE_THROW("unknown problem kind " + std::to_string(static_cast<int>(k)));
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
