#include "harness/problems/float_fill.h"

#include "harness/core/error.h"
#include "harness/problems/parallel.h"

#include <algorithm>

namespace cugrade::problems {

void fill_on_host(const float_recipe& recipe, std::span<float> out) {
  if (out.size() != recipe.count) {
    CUGRADE_THROW("an input of " + std::to_string(out.size()) + " elements for a recipe of " +
                  std::to_string(recipe.count));
  }
  const std::size_t chunks = chunk_count(out.size());
  for_parts(chunks, part_count(chunks, 4), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t c = begin; c < end; ++c) {
      const std::size_t first = c * generation_chunk;
      fill_chunk(recipe.fill, recipe.seed, c, out.data() + first,
                 std::min(generation_chunk, out.size() - first), recipe.negate);
    }
  });
}

} // namespace cugrade::problems
