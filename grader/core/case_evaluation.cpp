#include "grader/core/case_evaluation.h"

#include <csignal>
#include <cstring>
#include <fstream>

namespace cugrade::grader {

namespace {

using reports::test_status;

case_outcome error_outcome(std::string kind, std::string message) {
  case_outcome o;
  o.status = test_status::error;
  o.error_kind = std::move(kind);
  o.message = std::move(message);
  return o;
}

// The case during which the runner stopped without reporting its end.
case_outcome abnormal_end(const protocol::runner_log& log, const runner_exit& exit) {
  if (exit.timed_out) {
    case_outcome o;
    o.status = test_status::timeout;
    o.error_kind = "timeout";
    o.message =
        (exit.launcher.empty() ? "the kernel" : exit.launcher + " (the launcher and its kernels)") +
        " did not finish within the time limit of " +
        std::to_string(static_cast<int>(exit.time_limit_seconds)) + " s; the runner was stopped";
    // In emulation the thread inside a kernel says where it was when the limit stopped it.
    if (log.fault_kind == "timeout" && !log.fault_message.empty()) {
      o.message += " (" + log.fault_message + ")";
    }
    return o;
  }
  if (!log.fault_kind.empty()) {
    return error_outcome(log.fault_kind, log.fault_message);
  }
  if (exit.term_signal != 0) {
    return error_outcome("crash", std::string("the runner died with signal ") +
                                      sigabbrev_np(exit.term_signal) + " (" +
                                      strsignal(exit.term_signal) +
                                      ") during this case; host code in the launcher may have "
                                      "dereferenced a device pointer");
  }
  // The runner's stderr is the submission's output as much as the runner's: quoted, capped and
  // labelled, never mixed into the grader's own words.
  return error_outcome("crash", "the runner stopped during this case (exit code " +
                                    std::to_string(exit.exit_code) + ")" +
                                    (exit.stderr_tail.empty()
                                         ? std::string()
                                         : "\n[runner stderr, last bytes; may be written by the "
                                           "submission]\n" +
                                               exit.stderr_tail));
}

struct case_data {
  std::vector<problems::buffer> inputs;
  std::vector<double> expected;
};

case_outcome evaluate_run(const problems::problem& problem, const problems::test_case& tc,
                          const protocol::run_record& r, const case_data& data,
                          const std::filesystem::path& output_dir,
                          std::optional<problems::buffer>* output) {
  if (!r.error_kind.empty()) {
    return error_outcome(r.error_kind, r.message);
  }
  if (r.canary_overwritten) {
    return error_outcome("out_of_bounds", "a store past the end of the output overwrote the "
                                          "guard words placed after it");
  }
  if (r.input_modified) {
    return error_outcome("input_mutation", "the launcher modified an input buffer (inputs are "
                                           "read-only)");
  }
  *output = read_output(output_dir / r.output_file, problem.output(tc.dims));
  if (!r.completed || !output->has_value()) {
    return error_outcome("cuda_error", "the output could not be read back from the device");
  }
  case_outcome o;
  o.comparison = problem.compare(tc, data.inputs, data.expected, **output);
  o.status = o.comparison->passed ? test_status::passed : test_status::failed;
  return o;
}

// Did a second run (another thread order, or simply another run) give a different answer?
bool runs_disagree(const problems::problem& problem, const problems::test_case& tc,
                   const case_data& data, const case_outcome& first,
                   const std::optional<problems::buffer>& first_output, const case_outcome& second,
                   const std::optional<problems::buffer>& second_output) {
  if (first.status != second.status) {
    return true;
  }
  if (!first_output || !second_output) {
    return false;
  }
  std::vector<double> first_values;
  const auto spec = problem.output(tc.dims);
  for (std::size_t i = 0; i < first_output->count(); ++i) {
    first_values.push_back(spec.type == problems::element_type::f32
                               ? static_cast<double>(first_output->as<float>()[i])
                               : static_cast<double>(first_output->as<std::uint32_t>()[i]));
  }
  return !problem.compare(tc, data.inputs, first_values, *second_output).passed;
}

case_outcome evaluate_case(const problems::problem& problem, const problems::test_case& tc,
                           const std::vector<const protocol::run_record*>& runs,
                           const std::filesystem::path& output_dir) {
  case_data data;
  data.inputs = problem.generate(tc);
  data.expected = problem.reference(tc, data.inputs);
  std::optional<problems::buffer> first_output;
  case_outcome first = evaluate_run(problem, tc, *runs[0], data, output_dir, &first_output);
  for (std::size_t r = 1; r < runs.size() && first.status != test_status::error; ++r) {
    std::optional<problems::buffer> later_output;
    const case_outcome later = evaluate_run(problem, tc, *runs[r], data, output_dir, &later_output);
    if (later.status == test_status::error) {
      return later;
    }
    if (runs_disagree(problem, tc, data, first, first_output, later, later_output)) {
      first.schedule_dependent = true;
      first.status = test_status::failed;
      first.message = "the result changed between two runs of the same inputs";
    }
  }
  return first;
}

} // namespace

std::size_t stopping_case(const std::vector<case_outcome>& outcomes) {
  for (std::size_t i = 0; i + 1 < outcomes.size(); ++i) {
    const auto s = outcomes[i].status;
    if ((s == test_status::error || s == test_status::timeout) &&
        outcomes[i + 1].status == test_status::not_run) {
      return i;
    }
  }
  return outcomes.size();
}

std::optional<problems::buffer> read_output(const std::filesystem::path& path,
                                            const problems::buffer_spec& spec) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  problems::buffer b;
  b.type = spec.type;
  b.bytes.resize(spec.count * problems::element_size(spec.type));
  in.read(reinterpret_cast<char*>(b.bytes.data()), static_cast<std::streamsize>(b.bytes.size()));
  if (in.gcount() != static_cast<std::streamsize>(b.bytes.size())) {
    return std::nullopt;
  }
  return b;
}

std::vector<case_outcome> evaluate_cases(const problems::problem& problem,
                                         const std::vector<graded_case>& cases,
                                         const protocol::runner_log& log,
                                         const std::filesystem::path& output_dir,
                                         const runner_exit& exit) {
  std::vector<std::vector<const protocol::run_record*>> runs(cases.size());
  for (const auto& r : log.runs) {
    if (r.case_index < cases.size()) {
      runs[r.case_index].push_back(&r);
    }
  }
  std::vector<case_outcome> out(cases.size());
  bool stopped = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (stopped) {
      out[i].message = "not run: an earlier case stopped this kernel's runner";
      continue;
    }
    if (log.open_case == i || (runs[i].empty() && !log.finished)) {
      out[i] = abnormal_end(log, exit);
      stopped = true;
    } else if (!runs[i].empty()) {
      out[i] = evaluate_case(problem, cases[i].tc, runs[i], output_dir);
      stopped = out[i].status == test_status::error && !runs[i].back()->completed;
    } else {
      out[i].message = "not run";
    }
  }
  return out;
}

} // namespace cugrade::grader
