// Ranking: the hint that explains the most of the evidence comes first (docs/hints.md, "How hints
// are chosen"). A fault or an unwritten output is evidence to be explained like a wrong value: a
// mistake that accounts for the fault and for the failures around it outranks the fault itself.
#include "grader/core/detail/diagnosis_evidence.h"

#include <algorithm>
#include <tuple>

namespace cugrade::grader::detail {

namespace {

// Larger is better: failing cases explained, then specificity, then passing cases predicted.
auto ranking_key(const candidate& c) {
  return std::tuple(c.failures_explained, static_cast<int>(c.rank), c.passes_predicted);
}

} // namespace

bool ranks_before(const candidate& a, const candidate& b) {
  return ranking_key(a) > ranking_key(b);
}

std::vector<reports::hint> rank(std::vector<candidate> candidates) {
  std::erase_if(candidates,
                [](const candidate& c) { return c.support.empty() || !c.contradictions.empty(); });
  // Stable: hints that explain the same evidence equally keep the rules' order, so the ranking
  // never depends on anything but the evidence.
  std::stable_sort(candidates.begin(), candidates.end(), ranks_before);
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
