#include "harness/runner/prepared_inputs.h"

#include "harness/protocol/timing.h"

#include <algorithm>

namespace cugrade::runner {

namespace {

std::size_t input_bytes(const problems::problem& problem, const problems::shape& dims) {
  std::size_t bytes = 0;
  for (const auto& spec : problem.inputs(dims)) {
    bytes += spec.count * problems::element_size(spec.type);
  }
  return bytes;
}

problems::test_case benchmark_case(const protocol::plan& plan, const protocol::planned_case& c) {
  return {c.name, plan.problem, c.dims, c.distribution, c.seed};
}

} // namespace

prepared_inputs prepared_inputs::prepare(const problems::problem& problem,
                                         const protocol::plan& plan, std::size_t budget_bytes) {
  prepared_inputs out;
  if (!plan.timing.enabled) {
    return out;
  }
  const int sets = std::max(1, plan.timing.input_sets);
  // The fresh-contents set is used only where outputs are saved (protocol.h, save_outputs).
  const int last = plan.timing.save_outputs ? sets : sets - 1;
  for (const auto& planned : plan.cases) {
    const auto tc = benchmark_case(plan, planned);
    const auto bytes = input_bytes(problem, tc.dims);
    for (int set = 0; set <= last; ++set) {
      if (out.m_bytes + bytes > budget_bytes) {
        return out; // the rest is generated in the hold, in the order the runner needs it
      }
      if (out.find(tc, set) == nullptr) {
        out.add(tc, set, protocol::input_set_inputs(problem, tc, set, sets));
      }
    }
  }
  return out;
}

const std::vector<problems::buffer>* prepared_inputs::find(const problems::test_case& tc,
                                                           int set) const {
  const auto found = m_sets.find(key_of(tc, set));
  return found == m_sets.end() ? nullptr : &found->second;
}

void prepared_inputs::add(const problems::test_case& tc, int set,
                          std::vector<problems::buffer> inputs) {
  const auto size = [](const std::vector<problems::buffer>& buffers) {
    std::size_t bytes = 0;
    for (const auto& b : buffers) {
      bytes += b.bytes.size();
    }
    return bytes;
  };
  auto& kept = m_sets[key_of(tc, set)];
  m_bytes = m_bytes - size(kept) + size(inputs);
  kept = std::move(inputs);
}

prepared_inputs::key prepared_inputs::key_of(const problems::test_case& tc, int set) {
  return {tc.name, tc.distribution, tc.seed, tc.dims.j, tc.dims.k, tc.dims.l, tc.dims.n, set};
}

} // namespace cugrade::runner
