#include "grader/core/output_patterns.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>

namespace cugrade::grader {

namespace {

constexpr std::size_t block_sizes[] = {32, 64, 128, 256, 512, 1024, 2048};

std::vector<double> block_sums(std::span<const float> input, std::size_t block) {
  std::vector<double> sums((input.size() + block - 1) / block, 0.0);
  for (std::size_t i = 0; i < input.size(); ++i) {
    sums[i / block] += static_cast<double>(input[i]);
  }
  return sums;
}

bool close(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance;
}

// Where every whole block sums alike (the blocks cannot be told apart by their sums), `got` as k
// of them and the last, partial block: blocks lost in any order, not only from the end.
std::optional<partial_sum_match> match_some_blocks_and_the_last(std::size_t n,
                                                                std::span<const double> sums,
                                                                double got, std::size_t block,
                                                                double tolerance) {
  const std::size_t tail = n % block;
  const std::size_t whole = n / block;
  if (tail == 0 || whole < 2) {
    return std::nullopt;
  }
  for (std::size_t q = 1; q < whole; ++q) {
    if (!close(sums[q], sums[0], tolerance)) {
      return std::nullopt;
    }
  }
  for (std::size_t k = 1; k < whole; ++k) {
    if (close(got, static_cast<double>(k) * sums[0] + sums[whole], tolerance)) {
      return partial_sum_match{0, k * block + tail, block, false, true};
    }
  }
  return std::nullopt;
}

std::optional<partial_sum_match> match_with_block(std::size_t n, std::span<const double> sums,
                                                  double got, std::size_t block, double tolerance) {
  if (sums.size() < 2) {
    return std::nullopt; // one block is the whole input: nothing partial to see
  }
  double prefix = 0;
  for (std::size_t q = 0; q + 1 < sums.size(); ++q) {
    prefix += sums[q];
    if (close(got, prefix, tolerance)) {
      return partial_sum_match{0, (q + 1) * block, block, true};
    }
  }
  for (std::size_t b = 1; b < sums.size(); ++b) {
    if (close(got, sums[b], tolerance)) {
      const std::size_t first = b * block;
      return partial_sum_match{first, std::min(block, n - first), block, false};
    }
  }
  return std::nullopt;
}

} // namespace

std::vector<double> output_values(const problems::buffer& output) {
  std::vector<double> values;
  values.reserve(output.count());
  if (output.type == problems::element_type::f32) {
    for (const float v : output.as<float>()) {
      values.push_back(static_cast<double>(v));
    }
  } else if (output.type == problems::element_type::u32) {
    for (const std::uint32_t v : output.as<std::uint32_t>()) {
      values.push_back(static_cast<double>(v));
    }
  } else {
    for (const std::uint8_t v : output.as<std::uint8_t>()) {
      values.push_back(static_cast<double>(v));
    }
  }
  return values;
}

std::optional<partial_sum_match> match_partial_sum(std::span<const float> input, double got,
                                                   double tolerance) {
  if (!std::isfinite(got)) {
    return std::nullopt;
  }
  constexpr std::size_t sizes = std::size(block_sizes);
  std::array<std::vector<double>, sizes> sums; // per block size, summed once for both passes
  for (std::size_t i = 0; i < sizes; ++i) {
    sums[i] = block_sums(input, block_sizes[i]);
    if (auto m = match_with_block(input.size(), sums[i], got, block_sizes[i], tolerance)) {
      return m;
    }
  }
  // Blocks that all sum alike: the largest block size that explains it says the most (a match
  // with blocks of 1024 is one with blocks of 32 too).
  for (std::size_t i = sizes; i-- > 0;) {
    if (auto m =
            match_some_blocks_and_the_last(input.size(), sums[i], got, block_sizes[i], tolerance)) {
      return m;
    }
  }
  return std::nullopt;
}

bool same_answer(std::span<const double> got, std::span<const double> answer, double tolerance) {
  if (got.size() != answer.size() || got.empty()) {
    return false;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i]) ||
        !close(got[i], answer[i], tolerance * (1 + std::fabs(answer[i])))) {
      return false;
    }
  }
  return true;
}

} // namespace cugrade::grader
