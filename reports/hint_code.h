#pragma once
/// \file
/// A hint's code: the word a report gives a kind of mistake ("boundary_check"). The codes every
/// problem kind can produce are named here; a kind's own mistakes are coded by that kind's
/// diagnosis (matmul's "wrong_dimension", histogram's "private_bins"), which defines their codes
/// where it defines the rules that give them. So no list of every code exists: the report schema
/// checks a code's form (lowercase words joined by underscores), not a closed list.

#include <string>
#include <string_view>
#include <vector>

namespace cugrade::reports {

class hint_code {
public:
  /// A code with what a hint of it says when only hidden tests show the mistake ("updates are
  /// lost (increments that are not atomic)"), and whether the mistake commonly shows as a memory
  /// fault (a wrong dimension, a missing boundary check): such a hint stays ahead of the fault
  /// compute-sanitizer finds for it. Throws (cugrade::error) for a word not of the schema's form.
  hint_code(std::string word, std::string hidden_words, bool causes_memory_faults = false);
  /// A code known by its word alone: a code read back from a report, or one a test looks for.
  /// A shared code gets its hidden words; another kind's code has none (hidden_words() is "").
  explicit hint_code(std::string_view word);

  [[nodiscard]] const std::string& word() const { return m_word; }
  [[nodiscard]] const std::string& hidden_words() const { return m_hidden_words; }
  [[nodiscard]] bool causes_memory_faults() const { return m_causes_memory_faults; }

  /// Codes are the same mistake when their words are.
  friend bool operator==(const hint_code& a, const hint_code& b) { return a.m_word == b.m_word; }
  friend auto operator<=>(const hint_code& a, const hint_code& b) { return a.m_word <=> b.m_word; }

  /// The codes every kind shares, in the order of the catalogue (docs/hints.md).
  [[nodiscard]] static std::vector<hint_code> shared_codes();

  /// Whether `word` has a code's form: [a-z][a-z0-9_]*, at most 64 characters.
  [[nodiscard]] static bool well_formed(std::string_view word);

  // The codes every kind shares.
  static const hint_code boundary_check;
  static const hint_code poison_left;
  static const hint_code canary_overwritten;
  static const hint_code race;
  static const hint_code barrier_divergence;
  static const hint_code out_of_bounds;
  static const hint_code launch_failure;
  static const hint_code device_assert;
  static const hint_code misaligned_address;
  static const hint_code timeout;
  static const hint_code missing_launcher;
  static const hint_code forbidden_symbol;
  static const hint_code build_error;
  static const hint_code wrong_result;
  static const hint_code input_modified;
  static const hint_code not_cleared;
  static const hint_code stale_result;
  static const hint_code size_threshold;
  static const hint_code bytes_for_elements;

private:
  std::string m_word;
  std::string m_hidden_words;
  bool m_causes_memory_faults = false;
};

/// The code's word, as reports write it.
[[nodiscard]] inline const std::string& to_string(const hint_code& c) {
  return c.word();
}

} // namespace cugrade::reports
