#pragma once
/// \file
/// "Did you mean" suggestions for misspelt names (spec keys, launchers, assignments, options).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::spec {

/// Levenshtein distance (insertions, deletions, substitutions), ignoring ASCII case.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate `word` most likely misspells: the nearest by edit distance when the distance is
/// small for the word's length (none up to 2 letters, so only a case slip; 1 up to 4; 2 up to 7;
/// else 3), otherwise a candidate that starts with `word` (3 letters or more). Ties go to the
/// earlier candidate; nullopt if none fits.
[[nodiscard]] std::optional<std::string> closest_match(std::string_view word,
                                                       const std::vector<std::string>& candidates);

/// "(expected one of: a, b, c)" followed by `; did you mean "b"?` when closest_match finds one,
/// to follow "<word> is not a ...".
[[nodiscard]] std::string expected_one_of(std::string_view word,
                                          const std::vector<std::string>& candidates);

/// The words with `separator` between them: join({"a", "b"}, ", ") == "a, b".
[[nodiscard]] std::string join(const std::vector<std::string>& words, std::string_view separator);

} // namespace cugrade::spec
