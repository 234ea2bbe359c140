#pragma once
// Synthetic cases and outcomes for the core's pure functions.

#include "grader/core/case_evaluation.h"
#include "grader/core/diagnosis.h"

#include <string>
#include <vector>

namespace cugrade::grader::testing_support {

inline graded_case matmul_case(long j, long k, long l, const std::string& dist = "real") {
  const std::string shape = std::to_string(j) + "x" + std::to_string(k) + "x" + std::to_string(l);
  return {0,
          {shape + "/" + dist, problems::kind_named("matmul"), {.j = j, .k = k, .l = l}, dist, 1}};
}

inline graded_case n_case(problems::kind kind, long n, const std::string& dist) {
  return {0, {"n=" + std::to_string(n) + "/" + dist, kind, {.n = n}, dist, 1}};
}

inline case_outcome passed() {
  case_outcome o;
  o.status = reports::test_status::passed;
  o.comparison = problems::comparison{};
  o.comparison->passed = true;
  return o;
}

inline case_outcome failed(std::size_t mismatches = 1, std::size_t elements = 1) {
  case_outcome o;
  o.status = reports::test_status::failed;
  o.comparison = problems::comparison{};
  o.comparison->mismatches = mismatches;
  o.comparison->element_count = elements;
  o.comparison->first = problems::mismatch{0, 1.0, 2.0};
  o.comparison->max_rel_error = 1.0;
  return o;
}

inline case_outcome fault(reports::fault_kind kind, const std::string& message) {
  case_outcome o;
  o.status = reports::test_status::error;
  o.error_kind = kind;
  o.message = message;
  o.location = source_location_in(message);
  return o;
}

/// Owns what a diagnosis_input points at.
struct kernel_results {
  problems::kind problem = problems::kind_named("matmul");
  std::string kernel = "matmul_tiled";
  std::vector<graded_case> cases;
  std::vector<case_outcome> outcomes;
  std::vector<bool> hidden; ///< per case
  source_facts source{};

  void add(graded_case c, case_outcome o, bool is_hidden = false) {
    cases.push_back(std::move(c));
    outcomes.push_back(std::move(o));
    hidden.push_back(is_hidden);
  }
  [[nodiscard]] std::vector<reports::hint> hints() const {
    return diagnose({problem, kernel, &cases, &outcomes, hidden, 60, source, "matmul.cu"});
  }
};

inline bool has_code(const std::vector<reports::hint>& hints, reports::hint_code code) {
  for (const auto& h : hints) {
    if (h.code == code) {
      return true;
    }
  }
  return false;
}

} // namespace cugrade::grader::testing_support
