#include "grader/core/detail/diagnosis_evidence.h"

#include <algorithm>

namespace cugrade::grader::detail {

std::vector<reports::hint> rank(std::vector<candidate> candidates) {
  std::erase_if(candidates,
                [](const candidate& c) { return c.support.empty() || !c.contradictions.empty(); });
  // Stable: equally specific hints keep the rules' order, so the ranking never depends on
  // anything but the evidence.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const candidate& a, const candidate& b) { return a.rank > b.rank; });
  std::vector<reports::hint> hints;
  for (auto& c : candidates) {
    const bool seen = std::any_of(hints.begin(), hints.end(),
                                  [&](const reports::hint& h) { return h.code == c.code; });
    if (!seen) {
      std::string text = std::move(c.message);
      if (!c.location.empty() && text.find(c.location) == std::string::npos) {
        text = "at " + c.location + ": " + text;
      }
      hints.emplace_back(c.code, std::move(text), std::move(c.location), std::move(c.support));
    }
  }
  return hints;
}

} // namespace cugrade::grader::detail
