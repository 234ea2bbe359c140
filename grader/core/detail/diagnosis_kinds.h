#pragma once
/// \file
/// Private to diagnosis: what one problem kind adds to diagnosis, registered by the kind's name.
///
/// The shared rules (faults, boundaries, sizes, races, precision, unwritten output) hold for
/// every kind and ask the kind only for its words and for what its outputs mean. A kind's own
/// mistakes (matmul's wrong dimension, a histogram's private bins, a scan's missing carry) are its
/// rules, with its own hint codes, defined in its file (diagnosis_<kind>.cpp) and listed once, in
/// diagnosis_kinds.cpp's registration list. No shared rule asks which kind it is looking at.

#include "grader/core/detail/diagnosis_evidence.h"
#include "grader/core/output_patterns.h"
#include "harness/problems/problem.h"

#include <span>
#include <string>
#include <vector>

namespace cugrade::grader::detail {

/// Where a kind's rule stands among the shared rules (rules_for()), which breaks ties between
/// hints that explain the evidence equally. Named by the shared rule it follows.
enum class rule_place {
  after_faults,        ///< the kind's named mistakes, read from its output values (after the
                       ///< faults and a count of elements given where bytes are meant)
  after_early_exits,   ///< before the boundary and size patterns
  after_size_patterns, ///< before the race pattern
  after_precision,     ///< before the memory-fault symptom
  after_memory_faults  ///< before unwritten and NaN output
};

struct kind_rule {
  rule_place place = rule_place::after_faults;
  rule check = nullptr;
};

/// One kind's part of diagnosis. Every hook may be left empty: the shared rules then use their
/// own words and read nothing more of the output.
struct kind_diagnosis {
  std::string kind{};                      ///< the registered problem kind's name, e.g. "matmul"
  std::vector<kind_rule> rules{};          ///< in their tie-breaking order within each place
  std::vector<reports::hint_code> codes{}; ///< the codes of the kind's own mistakes its rules give
  /// "a multiple of the tile width 16": what every size of a shape that passes is, in the
  /// boundary hint's words; "a multiple of 16" when empty.
  std::string alignment_words{};
  /// Whether a failing case of this shape shows a boundary mistake on its own (matmul: a square
  /// one; a rectangle may be a wrong dimension); every shape when empty.
  bool (*shows_boundary_alone)(const problems::shape& s) = nullptr;
  /// Whether results that change between runs are elements at the edge nobody wrote rather than
  /// a race (matmul: a tile hanging over the edge, left unfilled, when only boundaries fail).
  bool (*changes_are_unwritten_edges)(const evidence& ev) = nullptr;
  /// Whether the output was accumulated into without being cleared first (a histogram's bins, a
  /// reduction's result): poison or NaN left in it is then that, not elements the grid never
  /// reached or a read past the end.
  bool (*output_not_cleared)(const evidence& ev) = nullptr;
  /// A case's size in the size-limit hint ("17x33x9 (largest dimension 33)"); "n = 1,000" when
  /// empty.
  std::string (*size_words)(const evidence& ev, std::size_t i) = nullptr;
  /// Reads what only this kind's output values show into `out` (a reduction: which partial sum
  /// its one value equals). Runs where the case's output values are kept.
  void (*read_output)(std::span<const problems::buffer> inputs, output_evidence& out) = nullptr;
};

/// The kind's registered diagnosis, or an empty one (shared rules only) for a kind without one.
[[nodiscard]] const kind_diagnosis& diagnosis_of(problems::kind k);
/// Every registered kind's diagnosis, in the registration list's order.
[[nodiscard]] const std::vector<kind_diagnosis>& registered_diagnoses();

/// The shared rules and the kind's, in their tie-breaking order.
[[nodiscard]] std::vector<rule> rules_for(problems::kind k);

} // namespace cugrade::grader::detail
