#include "harness/problems/support.h"

#include "harness/core/error.h"

#include <algorithm>
#include <fmt/format.h>

namespace cugrade::problems {

std::string fixed_work_advice() {
  return "the kernel covers a fixed amount of work: a grid capped at a fixed number of blocks "
         "with no grid-stride loop, a second pass run in one block, a fixed-size scratch array, "
         "or an int index that overflows";
}

buffer make_buffer(element_type type, std::size_t count) {
  buffer b;
  b.type = type;
  b.bytes.resize(count * element_size(type));
  return b;
}

void require_case(const problem& p, const test_case& c) {
  const auto name = std::string(to_string(p.id()));
  if (!c.problem.registered()) {
    CUGRADE_THROW(
        fmt::format("case \"{}\" has no problem kind (given to the {} problem)", c.name, name));
  }
  if (c.problem != p.id()) {
    CUGRADE_THROW(fmt::format("case \"{}\" is a {} case, given to the {} problem", c.name,
                              to_string(c.problem), name));
  }
  const auto dists = p.distributions();
  if (std::find(dists.begin(), dists.end(), c.distribution) == dists.end()) {
    CUGRADE_THROW(
        fmt::format("case \"{}\": {} has no distribution \"{}\"", c.name, name, c.distribution));
  }
  const shape& s = c.dims;
  const auto params = p.shape_params();
  const bool ok = std::all_of(params.begin(), params.end(),
                              [&](const shape_param& param) { return s.*param.field >= 1; });
  if (!ok) {
    CUGRADE_THROW(
        fmt::format("case \"{}\": shape {} has a size below 1", c.name, describe(p.id(), s)));
  }
}

void require_inputs(const problem& p, const test_case& c, const std::vector<buffer>& inputs) {
  const auto specs = p.inputs(c.dims);
  if (inputs.size() != specs.size()) {
    CUGRADE_THROW(fmt::format("case \"{}\": {} input buffers given, {} expected", c.name,
                              inputs.size(), specs.size()));
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (inputs[i].type != specs[i].type || inputs[i].count() != specs[i].count) {
      CUGRADE_THROW(fmt::format("case \"{}\": input {} has {} elements of the wrong size or type, "
                                "{} expected",
                                c.name, specs[i].name, inputs[i].count(), specs[i].count));
    }
  }
}

void require_output(const problem& p, const test_case& c, const std::vector<double>& expected,
                    const buffer& actual) {
  const auto spec = p.output(c.dims);
  if (expected.size() != spec.count || actual.type != spec.type || actual.count() != spec.count) {
    CUGRADE_THROW(fmt::format("case \"{}\": output {} has {} elements and a reference of {}, {} "
                              "expected",
                              c.name, spec.name, actual.count(), expected.size(), spec.count));
  }
}

void require_pointers(const problem& p, const shape& s, const std::vector<void*>& inputs,
                      const void* output) {
  if (inputs.size() != p.inputs(s).size() || output == nullptr ||
      std::find(inputs.begin(), inputs.end(), nullptr) != inputs.end()) {
    CUGRADE_THROW(fmt::format("{} launcher needs {} non-null input pointers and an output, got {}",
                              to_string(p.id()), p.inputs(s).size(), inputs.size()));
  }
}

std::size_t min_rows_per_part(std::size_t work_per_row) {
  constexpr std::size_t grain = std::size_t{1} << 18;
  return std::max<std::size_t>(1, grain / std::max<std::size_t>(work_per_row, 1));
}

} // namespace cugrade::problems
