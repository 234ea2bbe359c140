#pragma once
/// \file
/// The byte streams a histogram kernel is tested on. Each stresses something different:
/// - "uniform": every bin equally likely (atomics rarely collide).
/// - "text": lowercase words and spaces, like the lecture's "programming massively parallel
///   processors": a few hot bins, the rest empty.
/// - "single": one byte value repeated: every atomic hits the same bin (maximum contention).
/// - "contention10", "contention40", "contention90": that share of bytes is one hot value, the
///   rest uniform (so the hot bin also gets its uniform share).
/// - "sorted_runs": runs of a few thousand equal bytes in ascending (wrapping) order, so a warp
///   or a section sees one value at a time.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::problems {

/// The histogram distributions, in the order edge_templates lists them.
[[nodiscard]] std::vector<std::string> histogram_distributions();

/// Fills `out` with bytes of `distribution` drawn from `seed`; throws on an unknown name.
void fill_histogram_input(std::string_view distribution, std::uint64_t seed,
                          std::span<std::uint8_t> out);

} // namespace cugrade::problems
