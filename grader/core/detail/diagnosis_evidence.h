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

/// A hint with its evidence, before ranking. Ranking (docs/hints.md, "How hints are chosen")
/// reads how much of the evidence the hint explains: the failing cases its mistake accounts for
/// first, then its specificity, then the passing cases its mistake predicts.
struct candidate {
  reports::hint_code code = reports::hint_code::wrong_result;
  specificity rank = specificity::generic;
  std::string message;
  std::string location;
  std::vector<std::string> support;        ///< observations for it (at least one)
  std::vector<std::string> contradictions; ///< observations against it: never shown if any
  std::size_t failures_explained = 0;      ///< failing cases the mistake accounts for
  std::size_t passes_predicted = 0;        ///< passing cases the mistake says must pass
};

class evidence {
public:
  explicit evidence(const diagnosis_input& in) : m_in(in) {}

  [[nodiscard]] problems::kind problem() const { return m_in.problem; }
  [[nodiscard]] const std::string& kernel() const { return m_in.kernel; }
  [[nodiscard]] double time_limit() const { return m_in.time_limit_seconds; }
  [[nodiscard]] const std::vector<early_exit>& early_exits() const {
    return m_in.source.early_exits;
  }
  [[nodiscard]] const std::vector<warp_step_run>& unsynced_warp_steps() const {
    return m_in.source.warp_steps;
  }
  [[nodiscard]] const std::vector<signed_byte_index>& signed_byte_indexes() const {
    return m_in.source.signed_bytes;
  }
  [[nodiscard]] const std::vector<runtime_call_site>& runtime_calls() const {
    return m_in.source.runtime_calls;
  }
  /// The submission's source file name, as locations name it: "reduction.cu".
  [[nodiscard]] const std::string& source_file() const { return m_in.source_file; }
  /// `line` of the submission's source, as a hint's location: "reduction.cu:22".
  [[nodiscard]] std::string at_line(int line) const;
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
  /// How many cases match `pred`.
  [[nodiscard]] std::size_t count(const std::function<bool(std::size_t)>& pred) const;
  /// How many failing (or faulty) cases match `pred`.
  [[nodiscard]] std::size_t count_bad(const std::function<bool(std::size_t)>& pred) const {
    return count([&](std::size_t i) { return bad(i) && pred(i); });
  }
  /// How many passing cases match `pred`.
  [[nodiscard]] std::size_t count_good(const std::function<bool(std::size_t)>& pred) const {
    return count([&](std::size_t i) { return good(i) && pred(i); });
  }
  /// The case's size along which a kernel's limits show: n, or a matrix's largest dimension.
  [[nodiscard]] long extent(std::size_t i) const;
  /// The case's name ("17x33x9/real", "n=1000/uniform"), or "a hidden case" for hidden ones.
  [[nodiscard]] std::string name(std::size_t i) const;
  /// The first case whose two runs gave different outputs (a race, or reads of memory nobody
  /// wrote).
  [[nodiscard]] std::optional<std::size_t> first_schedule_dependent() const {
    return first([&](std::size_t i) { return outcome(i).schedule_dependent; });
  }
  /// The source line of the first memory fault, or "".
  [[nodiscard]] std::string memory_fault_location() const;

private:
  const diagnosis_input& m_in;
};

using rule = std::optional<candidate> (*)(const evidence&);

// The shared rules, one family per file (a kind's own rules are in its file: diagnosis_kinds.h).
std::optional<candidate> early_exit_cause(const evidence& ev);
std::optional<candidate> warp_steps_cause(const evidence& ev);
std::optional<candidate> barrier_fault(const evidence& ev);
std::optional<candidate> memory_fault(const evidence& ev);
std::optional<candidate> race_fault(const evidence& ev);
std::optional<candidate> launch_fault(const evidence& ev);
std::optional<candidate> assert_fault(const evidence& ev);
std::optional<candidate> misaligned_fault(const evidence& ev);
std::optional<candidate> timeout_fault(const evidence& ev);
std::optional<candidate> input_fault(const evidence& ev);
std::optional<candidate> other_fault(const evidence& ev);

std::optional<candidate> boundary_pattern(const evidence& ev);
std::optional<candidate> race_pattern(const evidence& ev);
std::optional<candidate> precision_pattern(const evidence& ev);
std::optional<candidate> poison_pattern(const evidence& ev);
std::optional<candidate> nan_pattern(const evidence& ev);

std::optional<candidate> stale_result_pattern(const evidence& ev);
std::optional<candidate> size_threshold_pattern(const evidence& ev);
std::optional<candidate> bytes_for_elements_pattern(const evidence& ev);

/// A fault at a barrier: divergence, a deadlock or another synccheck finding.
[[nodiscard]] bool is_barrier_fault(reports::fault_kind k);

// Shared findings several rules consult.

/// The tile or block width the shared rules test alignment against: every course kernel's.
inline constexpr long alignment_unit = 16;
/// Every size of case `i` that tiles cover is a multiple of alignment_unit.
[[nodiscard]] bool aligned(const evidence& ev, std::size_t i);
/// Failing cases (no fault) whose output values were kept.
[[nodiscard]] std::vector<std::size_t> failing_with_values(const evidence& ev);
[[nodiscard]] bool boundary_shaped(const evidence& ev);
/// Every passing case is smaller (n, or the largest dimension) than every failing one: the
/// largest passing case and the smallest failing one.
struct size_split {
  std::size_t largest_pass = 0;
  std::size_t smallest_fail = 0;
};
[[nodiscard]] std::optional<size_split> split_by_size(const evidence& ev);
/// split_by_size holds and the largest passing size is at least a warp's worth: the kernel is
/// right only up to some size.
[[nodiscard]] bool right_up_to_a_size(const evidence& ev);
/// The size_threshold hint's words: "right for every size up to `up_to` and wrong for every size
/// from `from` on (`how`) ...", with the kind's likely causes.
[[nodiscard]] std::string size_threshold_words(problems::kind problem, const std::string& up_to,
                                               const std::string& from, const std::string& how);
/// 262656 as "262,656".
[[nodiscard]] std::string grouped(long value);

/// Every failing output whose values were kept is right exactly up to a fixed fraction of its
/// elements (1/2, 1/4 or 1/8) and wrong from there on, counters from there on holding more than
/// their count: a cudaMemset or cudaMemcpy given a count of elements where bytes are needed.
struct short_prefix {
  std::size_t parts = 4;          ///< the right part is 1/parts of the output
  std::size_t example = 0;        ///< a failing case showing it
  std::size_t right_elements = 0; ///< in that case
  std::size_t matched = 0;        ///< failing cases showing it
};
[[nodiscard]] std::optional<short_prefix> bytes_for_elements_match(const evidence& ev);

/// An access outside a declared __shared__ array, as a fault message names it: "T[1024] written
/// at scan.cu:52 by thread 512 of block 3; T has 1024 elements" (the emulator's shared bounds).
struct shared_access {
  std::string array;
  long index = 0;
  long elements = 0;
  std::string access;   ///< "written", "read", "updated" or "updated atomically"
  std::string location; ///< "scan.cu:52"
  std::string thread;   ///< "512" or "(512,0,0)"
  std::string block;
};
[[nodiscard]] std::optional<shared_access> shared_access_in(const std::string& message);
/// The hint's words for such an access: the array, the index, its size and what to change.
[[nodiscard]] std::string shared_array_advice(const shared_access& a);

/// Whether `a` explains more of the evidence than `b`: more failing cases, else more specific,
/// else more passing cases predicted. Neither ranks before the other when all three are equal.
[[nodiscard]] bool ranks_before(const candidate& a, const candidate& b);

/// Two output values equal within 1e-5 relative: far above float32 rounding of a correct scan of
/// the tested sizes, far below one element of the data. Infinities only equal themselves.
[[nodiscard]] bool close_values(double a, double b);

/// Drops contradicted candidates, ranks the rest and turns them into hints (one per code).
[[nodiscard]] std::vector<reports::hint> rank(std::vector<candidate> candidates);

} // namespace cugrade::grader::detail
