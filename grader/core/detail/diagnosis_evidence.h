#pragma once
/// \file
/// Private to diagnosis: the read-only view of one kernel's outcomes that every rule asks
/// questions of, and the candidate hint a rule returns.

#include "grader/core/diagnosis.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::grader::detail {

/// How specific a hint is: ranking puts higher first. A named cause beats a pattern of shapes,
/// which beats the symptom it produces (a fault), which beats a generic wrong result.
enum class specificity : int {
  generic = 0,  ///< "a wrong result": the fallback
  symptom = 20, ///< a fault or an unwritten output, which some cause produced
  pattern = 40, ///< wrong on a family of shapes or data: boundaries, precision, races
  cause = 60    ///< one named mistake the values or the fault identify
};

/// A hint with its evidence, before ranking.
struct candidate {
  reports::hint_code code = reports::hint_code::wrong_result;
  specificity rank = specificity::generic;
  std::string message;
  std::string location;
  std::vector<std::string> support;        ///< observations for it (at least one)
  std::vector<std::string> contradictions; ///< observations against it: never shown if any
};

class evidence {
public:
  explicit evidence(const diagnosis_input& in) : m_in(in) {}

  [[nodiscard]] problems::kind problem() const { return m_in.problem; }
  [[nodiscard]] const std::string& kernel() const { return m_in.kernel; }
  [[nodiscard]] double time_limit() const { return m_in.time_limit_seconds; }
  [[nodiscard]] std::size_t size() const { return m_in.cases->size(); }
  [[nodiscard]] const graded_case& at(std::size_t i) const { return (*m_in.cases)[i]; }
  [[nodiscard]] const case_outcome& outcome(std::size_t i) const { return (*m_in.outcomes)[i]; }
  [[nodiscard]] const problems::shape& dims(std::size_t i) const { return at(i).tc.dims; }

  [[nodiscard]] bool bad(std::size_t i) const;
  [[nodiscard]] bool good(std::size_t i) const;
  [[nodiscard]] bool ran(std::size_t i) const;
  [[nodiscard]] bool failed_without_fault(std::size_t i) const;

  /// The first case (in plan order) matching `pred`.
  [[nodiscard]] std::optional<std::size_t>
  first(const std::function<bool(std::size_t)>& pred) const;
  /// The first failing case the student may be told about that matches `pred`.
  [[nodiscard]] std::optional<std::size_t>
  visible_bad(const std::function<bool(std::size_t)>& pred) const;
  [[nodiscard]] bool any(const std::function<bool(std::size_t)>& pred) const {
    return first(pred).has_value();
  }
  /// The case's name ("17x33x9/real", "n=1000/uniform"), or "a hidden case" for hidden ones.
  [[nodiscard]] std::string name(std::size_t i) const;
  /// The source line of the first memory fault, or "".
  [[nodiscard]] std::string memory_fault_location() const;

private:
  const diagnosis_input& m_in;
};

using rule = std::optional<candidate> (*)(const evidence&);

// Rules, one family per file.
std::optional<candidate> barrier_fault(const evidence& ev);
std::optional<candidate> memory_fault(const evidence& ev);
std::optional<candidate> race_fault(const evidence& ev);
std::optional<candidate> launch_fault(const evidence& ev);
std::optional<candidate> timeout_fault(const evidence& ev);
std::optional<candidate> input_fault(const evidence& ev);
std::optional<candidate> other_fault(const evidence& ev);

std::optional<candidate> boundary_pattern(const evidence& ev);
std::optional<candidate> dimension_pattern(const evidence& ev);
std::optional<candidate> tile_arithmetic_pattern(const evidence& ev);
std::optional<candidate> race_pattern(const evidence& ev);
std::optional<candidate> precision_pattern(const evidence& ev);
std::optional<candidate> poison_pattern(const evidence& ev);
std::optional<candidate> nan_pattern(const evidence& ev);

std::optional<candidate> not_cleared_bins(const evidence& ev);
std::optional<candidate> not_cleared_result(const evidence& ev);
std::optional<candidate> not_cleared_private_bins(const evidence& ev);
std::optional<candidate> private_bins_pattern(const evidence& ev);
std::optional<candidate> lost_updates_pattern(const evidence& ev);
std::optional<candidate> overcount_pattern(const evidence& ev);
std::optional<candidate> partial_sum_pattern(const evidence& ev);
std::optional<candidate> stale_result_pattern(const evidence& ev);
std::optional<candidate> carry_missing_pattern(const evidence& ev);
std::optional<candidate> exclusive_scan_pattern(const evidence& ev);

/// The rules above in their tie-breaking order.
[[nodiscard]] const std::vector<rule>& all_rules();

/// Shared findings several rules consult (each also a rule of its own).
[[nodiscard]] bool bins_not_cleared(const evidence& ev);
[[nodiscard]] std::optional<std::size_t> first_private_bin_wrong(const evidence& ev);
[[nodiscard]] bool boundary_shaped(const evidence& ev);

/// Drops contradicted candidates, ranks the rest and turns them into hints (one per code).
[[nodiscard]] std::vector<reports::hint> rank(std::vector<candidate> candidates);

} // namespace cugrade::grader::detail
