#pragma once
/// \file
/// Evidence about one wrong output that only its values show, computed where the inputs and the
/// reference are at hand (case evaluation) and kept small, so diagnosis stays a pure function of
/// the outcomes: the values of small outputs (and the answers of passing cases, which a later
/// output may repeat) and which part of a reduction's input the result sums.

#include "harness/problems/problem.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cugrade::grader {

/// Outputs up to this many elements keep their values for diagnosis (histogram bins, a sum).
inline constexpr std::size_t kept_output_elements = 4096;

/// The part of a reduction's input whose sum equals the result.
struct partial_sum_match {
  std::size_t first = 0; ///< first element summed
  std::size_t count = 0; ///< elements summed
  std::size_t block = 0; ///< the block size (in elements) the part is made of
  bool prefix = false;   ///< the first `count` elements (several whole blocks from the start)
  /// Some whole blocks and the last, partial one (`count` elements in all, `first` 0): where every
  /// whole block of the input sums alike (all ones, say), which blocks were summed cannot be told.
  bool with_last_block = false;

  bool operator==(const partial_sum_match&) const = default;
};

struct output_evidence {
  std::vector<double> expected; ///< empty when the output is larger than kept_output_elements
  std::vector<double> got;      ///< the same elements as returned (poison kept as its value)
  std::optional<partial_sum_match> partial_sum;

  bool operator==(const output_evidence&) const = default;
};

/// The values of `output` as doubles (unsigned words for counts, floats otherwise).
[[nodiscard]] std::vector<double> output_values(const problems::buffer& output);

/// Whether `got` equals the sum of whole blocks of `input` other than all of it: the first q
/// blocks, or one block alone, or (where every whole block sums alike) some whole blocks and the
/// last, partial one, for block sizes 32..2048. The smallest block size that explains the first q
/// blocks or one block wins, the largest that explains some blocks and the last. Within
/// `tolerance` (absolute).
[[nodiscard]] std::optional<partial_sum_match> match_partial_sum(std::span<const float> input,
                                                                 double got, double tolerance);

/// Whether `got` equals `answer` within `tolerance` element by element (same size, no NaN).
[[nodiscard]] bool same_answer(std::span<const double> got, std::span<const double> answer,
                               double tolerance);

} // namespace cugrade::grader
