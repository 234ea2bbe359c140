#include "grader/spec/suggest.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace cugrade::spec {

namespace {

char fold(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool starts_with_folded(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size())
    return false;
  return std::equal(prefix.begin(), prefix.end(), text.begin(),
                    [](char x, char y) { return fold(x) == fold(y); });
}

// Short words get little slack: "m" for "j" is a guess, "kernals" for "kernels" is a typo.
std::size_t allowed_distance(std::string_view word) {
  if (word.size() <= 2)
    return 0;
  if (word.size() <= 4)
    return 1;
  return word.size() <= 7 ? 2 : 3;
}

} // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table at a time.
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  std::size_t best_distance = allowed_distance(word) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best = &candidate;
      best_distance = d;
    }
  }
  if (best != nullptr)
    return *best;
  if (word.size() < 3)
    return std::nullopt;
  for (const auto& candidate : candidates)
    if (starts_with_folded(candidate, word))
      return candidate;
  return std::nullopt;
}

std::string expected_one_of(std::string_view word, const std::vector<std::string>& candidates) {
  std::string text = "(expected one of: " + join(candidates, ", ") + ")";
  if (auto match = closest_match(word, candidates))
    text += "; did you mean \"" + *match + "\"?";
  return text;
}

std::string join(const std::vector<std::string>& words, std::string_view separator) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0)
      text += separator;
    text += words[i];
  }
  return text;
}

} // namespace cugrade::spec
