#include "harness/protocol/timing.h"

#include <cmath>
#include <cstring>

namespace cugrade::protocol {

std::uint64_t input_set_seed(std::uint64_t case_seed, int set) {
  return case_seed + 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(set);
}

problems::test_case input_set_case(const problems::test_case& benchmark, int set) {
  problems::test_case tc = benchmark;
  tc.seed = input_set_seed(benchmark.seed, set);
  return tc;
}

std::vector<problems::buffer> input_set_inputs(const problems::problem& problem,
                                               const problems::test_case& benchmark, int set,
                                               int input_sets) {
  auto inputs = problem.generate(input_set_case(benchmark, set));
  if (set == input_sets) {
    for (auto& in : inputs) {
      if (in.type == problems::element_type::f32) {
        for (float& x : in.as<float>()) {
          x = -x;
        }
        break;
      }
    }
  }
  return inputs;
}

std::optional<std::vector<problems::float_recipe>>
input_set_recipes(const problems::problem& problem, const problems::test_case& benchmark, int set,
                  int input_sets) {
  auto recipes = problem.float_recipes(input_set_case(benchmark, set));
  if (recipes && set == input_sets && !recipes->empty()) {
    recipes->front().negate = true; // every input of a recipe is a float input
  }
  return recipes;
}

std::string_view to_string(output_role r) {
  switch (r) {
  case output_role::first:
    return "first";
  case output_role::last:
    return "last";
  case output_role::fresh:
    return "fresh";
  }
  return "first";
}

output_role output_role_from_string(std::string_view s) {
  if (s == "last") {
    return output_role::last;
  }
  return s == "fresh" ? output_role::fresh : output_role::first;
}

std::string timed_output_file_name(std::size_t case_index, int set, output_role r) {
  return "timed-" + std::to_string(case_index) + "-set-" + std::to_string(set) + "-" +
         std::string(to_string(r)) + ".bin";
}

output_digest digest_of(problems::element_type type, const std::byte* data, std::size_t count) {
  output_digest d;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t word = 0;
    if (type == problems::element_type::u8) {
      const auto v = static_cast<double>(std::to_integer<unsigned>(data[i]));
      d.sum += v;
      d.abs_sum += v;
      continue;
    }
    std::memcpy(&word, data + 4 * i, 4);
    if (word == problems::output_poison_word) {
      ++d.poison_words;
      continue;
    }
    double v = word;
    if (type == problems::element_type::f32) {
      float f = 0;
      std::memcpy(&f, &word, 4);
      if (!std::isfinite(f)) {
        ++d.non_finite;
        continue;
      }
      v = f;
    }
    d.sum += v;
    d.abs_sum += std::fabs(v);
  }
  return d;
}

} // namespace cugrade::protocol
