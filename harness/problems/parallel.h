#pragma once
/// \file
/// Splitting CPU work (references, comparisons, input generation) over threads.
///
/// Work is cut into contiguous parts numbered in index order, so callers merge per-part results
/// in a fixed order and get the same answer whatever the number of threads.

#include <cstddef>
#include <functional>

namespace cugrade::problems {

/// How many parts to cut `count` items into: one per hardware thread, but no part smaller than
/// `min_per_part` items (threads cost tens of microseconds; tiny cases stay on one thread).
[[nodiscard]] std::size_t part_count(std::size_t count, std::size_t min_per_part);

/// Calls body(part, begin, end) for each of `parts` contiguous slices of [0, count), on its own
/// thread when parts > 1. An exception from any part is rethrown after every thread has joined.
void for_parts(
    std::size_t count, std::size_t parts,
    const std::function<void(std::size_t part, std::size_t begin, std::size_t end)>& body);

} // namespace cugrade::problems
