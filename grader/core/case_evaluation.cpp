#include "grader/core/case_evaluation.h"

#include "grader/core/buffer_names.h"
#include "grader/core/detail/diagnosis_kinds.h"
#include "grader/core/printed_assertions.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <regex>

namespace cugrade::grader {

namespace {

using reports::fault_kind;
using reports::test_status;

case_outcome error_outcome(fault_kind kind, std::string message) {
  case_outcome o;
  o.status = test_status::error;
  o.error_kind = kind;
  o.location = source_location_in(message);
  o.message = std::move(message);
  return o;
}

// The case during which the runner stopped without reporting its end.
case_outcome abnormal_end(const protocol::runner_log& log, const runner_exit& exit) {
  if (exit.timed_out) {
    case_outcome o;
    o.status = test_status::timeout;
    o.error_kind = fault_kind::timeout;
    o.message =
        (exit.launcher.empty() ? "the kernel" : exit.launcher + " (the launcher and its kernels)") +
        " did not finish within the time limit of " +
        std::to_string(static_cast<int>(exit.time_limit_seconds)) + " s; the runner was stopped";
    // In emulation the thread inside a kernel says where it was when the limit stopped it.
    if (log.fault_kind == fault_kind::timeout && !log.fault_message.empty()) {
      o.message += " (" + log.fault_message + ")";
    }
    return o;
  }
  if (log.fault_kind) {
    return error_outcome(*log.fault_kind, log.fault_message);
  }
  if (exit.term_signal != 0) {
    return error_outcome(fault_kind::crash,
                         std::string("the runner died with signal ") +
                             sigabbrev_np(exit.term_signal) + " (" + strsignal(exit.term_signal) +
                             ") during this case; host code in the launcher may have "
                             "dereferenced a device pointer");
  }
  // The runner's stderr is the submission's output as much as the runner's: quoted, capped and
  // labelled, never mixed into the grader's own words.
  return error_outcome(
      fault_kind::crash,
      "the runner stopped during this case (exit code " + std::to_string(exit.exit_code) + ")" +
          (exit.stderr_tail.empty() ? std::string()
                                    : "\n[runner stderr, last bytes; may be written by the "
                                      "submission]\n" +
                                          exit.stderr_tail));
}

struct case_data {
  std::vector<problems::buffer> inputs;
  std::vector<double> expected;
};

// Where the runner says it put a case's buffers (empty when it did not say).
const std::vector<protocol::buffer_place>& places_in(const protocol::runner_log& log,
                                                     std::size_t case_index) {
  static const std::vector<protocol::buffer_place> none;
  const auto it = log.buffers.find(case_index);
  return it == log.buffers.end() ? none : it->second;
}

case_outcome evaluate_run(const problems::problem& problem, const problems::test_case& tc,
                          const protocol::run_record& r, const case_data& data,
                          const std::filesystem::path& output_dir,
                          std::optional<problems::buffer>* output,
                          const std::vector<protocol::buffer_place>& places) {
  if (r.error_kind) {
    return error_outcome(*r.error_kind, with_buffer_names(r.message, problem, tc.dims, places));
  }
  if (r.canary_overwritten) {
    auto o = error_outcome(fault_kind::out_of_bounds,
                           "a store past the end of " + output_words(problem, tc.dims) +
                               " overwrote the guard words placed after it");
    o.canary_overwritten = true;
    return o;
  }
  if (r.input_modified) {
    auto o = error_outcome(fault_kind::input_mutation,
                           "the launcher modified an input buffer (inputs are read-only)");
    o.input_modified = true;
    return o;
  }
  *output = protocol::read_output(output_dir / r.output_file, problem.output(tc.dims));
  if (!r.completed || !output->has_value()) {
    return error_outcome(fault_kind::cuda_error,
                         "the output could not be read back from the device");
  }
  case_outcome o;
  o.comparison = problem.compare(tc, data.inputs, data.expected, **output);
  o.status = o.comparison->passed ? test_status::passed : test_status::failed;
  return o;
}

// What only a wrong output's values show (output_patterns.h). Earlier answers are matched by
// diagnosis, which sees every case of the kernel.
output_evidence evidence_of(const problems::test_case& tc, const case_data& data,
                            const problems::buffer& output) {
  output_evidence ev;
  if (output.count() > kept_output_elements) {
    return ev;
  }
  ev.expected = data.expected;
  ev.got = output_values(output);
  if (const auto read = detail::diagnosis_of(tc.problem).read_output) {
    read(data.inputs, ev);
  }
  return ev;
}

// Did a second run (another thread order, or simply another run) give a different answer?
// Identical bytes always agree, even where both hold NaN (NaN is never "close" to anything).
bool runs_disagree(const problems::problem& problem, const problems::test_case& tc,
                   const case_data& data, const case_outcome& first,
                   const std::optional<problems::buffer>& first_output, const case_outcome& second,
                   const std::optional<problems::buffer>& second_output) {
  if (first_output && second_output && first_output->bytes == second_output->bytes) {
    return false;
  }
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
                           const std::filesystem::path& output_dir,
                           const std::vector<protocol::buffer_place>& places) {
  case_data data;
  data.inputs = problem.generate(tc);
  data.expected = problem.reference(tc, data.inputs);
  std::optional<problems::buffer> first_output;
  case_outcome first = evaluate_run(problem, tc, *runs[0], data, output_dir, &first_output, places);
  if (first.status == test_status::failed && first_output) {
    first.evidence = evidence_of(tc, data, *first_output);
  } else if (first.status == test_status::passed && data.expected.size() <= kept_output_elements) {
    first.evidence.expected = data.expected; // a later wrong output may be this answer
  }
  for (std::size_t r = 1; r < runs.size() && first.status != test_status::error; ++r) {
    std::optional<problems::buffer> later_output;
    const case_outcome later =
        evaluate_run(problem, tc, *runs[r], data, output_dir, &later_output, places);
    if (later.status == test_status::error) {
      return later;
    }
    if (runs_disagree(problem, tc, data, first, first_output, later, later_output)) {
      // A first run that passed has no wrong values to show: the later run's are the evidence.
      if (first.status == test_status::passed && later.status == test_status::failed &&
          later_output) {
        first.evidence = evidence_of(tc, data, *later_output);
      }
      first.schedule_dependent = true;
      first.status = test_status::failed;
      first.message = "the result changed between two runs of the same inputs";
    }
  }
  return first;
}

} // namespace

std::vector<std::string> source_locations_in(const std::string& message) {
  static const std::regex location(R"(([A-Za-z0-9_.+-]+\.cuh?):([0-9]+))");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(message.begin(), message.end(), location);
       it != std::sregex_iterator(); ++it) {
    std::string where = (*it)[1].str() + ":" + (*it)[2].str();
    if (std::find(found.begin(), found.end(), where) == found.end()) {
      found.push_back(std::move(where));
    }
  }
  return found;
}

std::string source_location_in(const std::string& message) {
  static const std::regex last_location(R"(.*\b([A-Za-z0-9_.+-]+\.cuh?):([0-9]+))");
  std::smatch m;
  return std::regex_search(message, m, last_location) ? m[1].str() + ":" + m[2].str() : "";
}

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
      if (out[i].status == test_status::error) { // the emulator's fault line names an address
        out[i].message =
            with_buffer_names(out[i].message, problem, cases[i].tc.dims, places_in(log, i));
      }
      stopped = true;
    } else if (!runs[i].empty()) {
      out[i] = evaluate_case(problem, cases[i].tc, runs[i], output_dir, places_in(log, i));
      out[i].output = runs[i].front()->output;
      out[i].output_bytes = runs[i].front()->output_bytes;
      if (out[i].error_kind == fault_kind::device_assert) { // a GPU prints which one failed
        out[i].message = with_printed_assertion(std::move(out[i].message), out[i].output);
        out[i].location = source_location_in(out[i].message);
      }
      stopped = out[i].status == test_status::error && !runs[i].back()->completed;
    } else {
      out[i].message = "not run";
    }
  }
  return out;
}

} // namespace cugrade::grader
