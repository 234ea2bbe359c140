#include "harness/problems/float_fill.h"

#include "harness/core/error.h"
#include "harness/problems/support.h"

#include <string>

namespace cugrade::problems {

void fill_on_host(const float_recipe& recipe, std::span<float> out) {
  if (out.size() != recipe.count) {
    CUGRADE_THROW("an input of " + std::to_string(out.size()) + " elements for a recipe of " +
                  std::to_string(recipe.count));
  }
  fill_chunked(out, recipe.seed, [&](std::span<float> chunk, xoshiro256ss& rng) {
    fill_chunk(recipe.fill, rng, chunk.data(), chunk.size(), recipe.negate);
  });
}

} // namespace cugrade::problems
