// Hints from faults at run time: what the runner or the emulator stopped on, with the source
// line it names. A memory fault is a symptom: the shape patterns that explain it rank above it.
#include "grader/core/detail/diagnosis_evidence.h"
#include "grader/core/printed_cuda_checks.h"
#include "grader/perf/fault_address.h"

#include <fmt/format.h>

#include <charconv>
#include <regex>
#include <string_view>
#include <utility>

namespace cugrade::grader::detail {

namespace {

using reports::fault_kind;
using reports::hint_code;

using fault_filter = bool (*)(fault_kind);

bool has_fault(const evidence& ev, std::size_t i, fault_filter matches) {
  const auto& k = ev.outcome(i).error_kind;
  return k && matches(*k);
}

std::optional<std::size_t> first_fault(const evidence& ev, fault_filter matches) {
  return ev.first([&](std::size_t i) { return has_fault(ev, i, matches); });
}

// A fault explains the cases that stopped on it, and predicts nothing about the others.
candidate fault_candidate(const evidence& ev, std::size_t i, fault_filter matches, hint_code code,
                          specificity rank, std::string message) {
  const auto& o = ev.outcome(i);
  candidate c{code, rank, std::move(message), o.location, {}, {}};
  c.support.push_back(fmt::format("{} on {}", reports::to_string(*o.error_kind), ev.name(i)));
  c.failures_explained = ev.count([&](std::size_t k) { return has_fault(ev, k, matches); });
  return c;
}

std::string barrier_advice(problems::kind problem) {
  return problems::get(problem).advice(problems::advice_topic::barrier);
}

} // namespace

bool is_barrier_fault(fault_kind k) {
  return k == fault_kind::barrier_divergence || k == fault_kind::deadlock ||
         k == fault_kind::synchronization_error;
}

std::optional<candidate> barrier_fault(const evidence& ev) {
  const auto i = first_fault(ev, is_barrier_fault);
  if (!i) {
    return std::nullopt;
  }
  const auto lines = source_locations_in(ev.outcome(*i).message);
  const std::string barriers =
      lines.size() > 1 ? fmt::format(" (the barriers involved: {})", fmt::join(lines, ", ")) : "";
  return fault_candidate(ev, *i, is_barrier_fault, hint_code::barrier_divergence,
                         specificity::cause,
                         "a __syncthreads() reached by only some threads of a block" + barriers +
                             ": " + barrier_advice(ev.problem()));
}

namespace {

// A misaligned access has its own rule (misaligned_fault).
bool is_bounds_fault(fault_kind k) {
  return reports::is_memory_fault(k) && k != fault_kind::misaligned_address;
}

} // namespace

std::optional<candidate> memory_fault(const evidence& ev) {
  const auto i = first_fault(ev, is_bounds_fault);
  if (!i) {
    return std::nullopt;
  }
  if (ev.outcome(*i).canary_overwritten) {
    return fault_candidate(ev, *i, is_bounds_fault, hint_code::canary_overwritten,
                           specificity::symptom,
                           "a store past the end of the output (it overwrote the guard words "
                           "after it): guard every store with the output's bounds");
  }
  if (const auto shared = shared_access_in(ev.outcome(*i).message)) {
    return fault_candidate(ev, *i, is_bounds_fault, hint_code::out_of_bounds, specificity::symptom,
                           shared_array_advice(*shared));
  }
  // The emulator's words for a kernel handed host memory (harness/emu/src/memory_reach.cpp).
  if (ev.outcome(*i).message.find(perf::reaches_host_memory) != std::string::npos) {
    return fault_candidate(ev, *i, is_bounds_fault, hint_code::out_of_bounds, specificity::cause,
                           std::string(perf::host_memory_advice));
  }
  // The fault's own words are the kernel's message; the hint does not repeat them.
  if (ev.outcome(*i).message.find("__shared__") != std::string::npos) {
    return fault_candidate(ev, *i, is_bounds_fault, hint_code::out_of_bounds, specificity::symptom,
                           "an access outside a __shared__ array (the kernel's message names the "
                           "array, the index and the thread): check the index against the "
                           "array's size, also where n is not a multiple of the block");
  }
  return fault_candidate(ev, *i, is_bounds_fault, hint_code::out_of_bounds, specificity::symptom,
                         "an access outside a device buffer (the kernel's message names the "
                         "thread and the buffer): check the bounds of this load or store");
}

// A shared-memory hazard the emulator's detector (or racecheck) named, with both lines.
std::optional<candidate> race_fault(const evidence& ev) {
  const auto i = first_fault(ev, [](fault_kind k) { return k == fault_kind::race; });
  if (!i) {
    return std::nullopt;
  }
  const auto lines = source_locations_in(ev.outcome(*i).message);
  const std::string where = lines.size() > 1 ? fmt::format(" ({})", fmt::join(lines, " and ")) : "";
  return fault_candidate(
      ev, *i, [](fault_kind k) { return k == fault_kind::race; }, hint_code::race,
      specificity::cause,
      "threads of different warps use the same shared memory" + where +
          " with no __syncthreads() between: " +
          problems::get(ev.problem()).advice(problems::advice_topic::race));
}

// Which of the launcher's CUDA calls a launch_failure came from. The emulator names the call
// (" in the launcher (", harness/backends/emu_backend.cpp); a GPU's runtime keeps only the last
// error, which the runner reads after the launcher returns ("at launch"), so there the error
// itself says what it could have come from.
enum class failed_call { named, launch, runtime_call, launch_or_runtime_call };

// The two backends' words before the error's description.
constexpr std::string_view named_in_launcher = " in the launcher (";
constexpr std::string_view gpu_at_launch = " at launch: ";

failed_call call_behind(const std::string& message) {
  if (message.find(named_in_launcher) != std::string::npos) {
    return failed_call::named;
  }
  for (const char* only_calls : {"cudaErrorInvalidMemcpyDirection", "cudaErrorInvalidDevicePointer",
                                 "cudaErrorMemoryAllocation", "cudaErrorInvalidSymbol"}) {
    if (message.starts_with(only_calls)) {
      return failed_call::runtime_call;
    }
  }
  // A launch gives it for too big a block (CUDA 13) or too much dynamic shared memory, cudaMemcpy
  // for a wrong direction.
  if (message.starts_with("cudaErrorInvalidValue")) {
    return failed_call::launch_or_runtime_call;
  }
  return failed_call::launch;
}

constexpr const char* copy_advice =
    "Every pointer the launcher is handed is device memory already: copy between it and a host "
    "array with the direction that names each side (cudaMemcpyHostToDevice into it, "
    "cudaMemcpyDeviceToHost out of it), and check each call's cudaError_t";
constexpr const char* launch_advice =
    "A block has at most 1024 threads, grid and block dimensions must be positive, and dynamic "
    "shared memory above 48 KiB needs cudaFuncSetAttribute";

// What the message says of the error: its name ("cudaErrorInvalidValue") and its words, after
// "at launch: " (a GPU's runner) or in the parentheses after " in the launcher (" (the emulator).
std::pair<std::string, std::string> error_of(const std::string& message) {
  std::string name = message.starts_with("cudaError") ? message.substr(0, message.find(' ')) : "";
  std::string words;
  if (const auto at = message.find(gpu_at_launch); at != std::string::npos) {
    words = message.substr(at + gpu_at_launch.size());
  } else if (const auto in = message.find(named_in_launcher); in != std::string::npos) {
    const auto open = in + named_in_launcher.size();
    words = message.substr(open, message.find(')', open) - open);
  }
  return {std::move(name), std::move(words)};
}

// The failed call as the launcher's own check showed it: the call it printed, or the call on the
// source line it printed (gpuErrchk prints only __FILE__ and __LINE__).
struct shown_call {
  std::string call;     // "cudaMemcpy"
  std::string shown;    // what the hint says the check showed
  std::string location; // "reduction.cu:61", or ""
};

std::optional<shown_call> call_shown(const evidence& ev, const printed_cuda_check& printed) {
  if (!printed.call.empty()) {
    return shown_call{printed.call, fmt::format("printed \"{}\"", printed.line), printed.location};
  }
  const auto colon = printed.location.rfind(':');
  if (printed.location.substr(0, colon) != ev.source_file()) {
    return std::nullopt;
  }
  int line = 0;
  const std::string number = printed.location.substr(colon + 1);
  if (std::from_chars(number.data(), number.data() + number.size(), line).ec != std::errc()) {
    return std::nullopt;
  }
  for (const runtime_call_site& site : ev.runtime_calls()) {
    if (site.line == line) {
      return shown_call{
          site.call,
          fmt::format("printed the error with {}, which reads `{}`", printed.location, site.text),
          printed.location};
    }
  }
  return std::nullopt;
}

// The launcher's own check showed which call failed: what a GPU's runtime does not say.
std::string shown_call_words(const std::string& message, const shown_call& shown) {
  return fmt::format("a CUDA call in the launcher failed: {}; the launcher's own check {}, so it "
                     "was {}{}. {}",
                     message, shown.shown, shown.call,
                     shown.location.empty() ? "" : " at " + shown.location,
                     shown.call.starts_with("cudaMemcpy")
                         ? copy_advice
                         : "Check that call's arguments, and each call's cudaError_t");
}

// What the launcher showed of the failed call, where the error leaves the call open (a GPU's).
std::optional<shown_call> shown_failed_call(const evidence& ev, const case_outcome& o,
                                            failed_call call) {
  if (call != failed_call::runtime_call && call != failed_call::launch_or_runtime_call) {
    return std::nullopt;
  }
  const auto [name, words] = error_of(o.message);
  const auto printed = find_printed_cuda_check(o.output, name, words);
  return printed ? call_shown(ev, *printed) : std::nullopt;
}

std::string launch_failure_words(const std::string& message, failed_call call) {
  switch (call) {
  case failed_call::named:
    return fmt::format("a CUDA call in the launcher failed: {}. {}", message, copy_advice);
  case failed_call::runtime_call:
    return fmt::format("a CUDA call in the launcher failed: {} (the GPU's runtime does not say "
                       "which call). {}",
                       message, copy_advice);
  case failed_call::launch_or_runtime_call:
    return fmt::format("a CUDA call in the launcher failed: {}. The GPU's runtime does not say "
                       "which: a kernel launch gives this error for a block of more than 1024 "
                       "threads or more dynamic shared memory than a block may have (above 48 KiB "
                       "needs cudaFuncSetAttribute), and a runtime call such as cudaMemcpy for an "
                       "argument it refuses, most often a copy whose direction does not name "
                       "where each pointer lives. {}",
                       message, copy_advice);
  case failed_call::launch:
    break;
  }
  return fmt::format("the kernel launch failed: {}. {}", message, launch_advice);
}

std::optional<candidate> launch_fault(const evidence& ev) {
  const fault_filter launch = [](fault_kind k) { return k == fault_kind::launch_failure; };
  const auto i = first_fault(ev, launch);
  if (!i) {
    return std::nullopt;
  }
  const case_outcome& o = ev.outcome(*i);
  const failed_call call = call_behind(o.message);
  const auto shown = shown_failed_call(ev, o, call);
  candidate c = fault_candidate(ev, *i, launch, hint_code::launch_failure, specificity::cause,
                                shown ? shown_call_words(o.message, *shown)
                                      : launch_failure_words(o.message, call));
  if (shown && c.location.empty()) {
    c.location = shown->location;
  }
  return c;
}

std::optional<candidate> timeout_fault(const evidence& ev) {
  const fault_filter timeout = [](fault_kind k) { return k == fault_kind::timeout; };
  const auto i = first_fault(ev, timeout);
  if (!i) {
    return std::nullopt;
  }
  return fault_candidate(ev, *i, timeout, hint_code::timeout, specificity::cause,
                         fmt::format("a run exceeded the time limit of {:.0f} s: an infinite "
                                     "loop, or a spin-wait or barrier that some threads never "
                                     "reach",
                                     ev.time_limit()));
}

std::optional<candidate> input_fault(const evidence& ev) {
  const fault_filter mutation = [](fault_kind k) { return k == fault_kind::input_mutation; };
  const auto i = first_fault(ev, mutation);
  if (!i) {
    return std::nullopt;
  }
  return fault_candidate(ev, *i, mutation, hint_code::input_modified, specificity::cause,
                         "the launcher changed an input buffer (inputs are read-only): reduce "
                         "in a scratch buffer of your own (cudaMalloc), never in place");
}

// A failed assert() in a kernel: the emulator's message, or what a GPU printed (added to the
// case's message by case_evaluation), names the assertion and its line.
std::optional<candidate> assert_fault(const evidence& ev) {
  const fault_filter failed = [](fault_kind k) { return k == fault_kind::device_assert; };
  const auto i = first_fault(ev, failed);
  if (!i) {
    return std::nullopt;
  }
  const std::string& message = ev.outcome(*i).message;
  static const std::regex assertion("assertion `(.*)` failed");
  std::smatch m;
  const std::string which = std::regex_search(message, m, assertion)
                                ? fmt::format("the assertion `{}`", m[1].str())
                                : std::string("an assert()");
  const std::string& location = ev.outcome(*i).location;
  return fault_candidate(
      ev, *i, failed, hint_code::device_assert, specificity::cause,
      fmt::format("{}{} failed in a thread of the kernel: a failed assert stops the whole launch, "
                  "and every later CUDA call fails (cudaErrorAssert). Check what it assumes "
                  "against every thread the launch runs, also the threads of the last block past "
                  "the end of the data",
                  which, location.empty() ? "" : " at " + location));
}

// A load or store at an address not aligned to its type (float4 through a cast pointer).
std::optional<candidate> misaligned_fault(const evidence& ev) {
  const fault_filter misaligned = [](fault_kind k) { return k == fault_kind::misaligned_address; };
  const auto i = first_fault(ev, misaligned);
  if (!i) {
    return std::nullopt;
  }
  return fault_candidate(
      ev, *i, misaligned, hint_code::misaligned_address, specificity::cause,
      "a load or store at an address that is not a multiple of its type's size (the kernel's "
      "message names it): a float4 or int4 must be read at a multiple of 16 bytes, a float2 or "
      "double at a multiple of 8. cudaMalloc's buffers start aligned, so cast `p + k` to a vector "
      "pointer only where k elements are a multiple of 16 bytes, and handle the elements before "
      "and after the aligned part one at a time");
}

// Any other fault (a crash in the launcher, another CUDA error): named as it is. A crash is the
// launcher's own host code ending the runner (a device pointer dereferenced on the host, exit()):
// the fault is the mistake, and it ranks as a cause over the size pattern its cases draw (a host
// loop over per-block results crashes only from the second block on).
std::optional<candidate> other_fault(const evidence& ev) {
  const fault_filter other = [](fault_kind k) {
    return k == fault_kind::crash || k == fault_kind::cuda_error ||
           k == fault_kind::illegal_instruction || k == fault_kind::stack_overflow;
  };
  const auto i = first_fault(ev, other);
  if (!i) {
    return std::nullopt;
  }
  const auto& o = ev.outcome(*i);
  return fault_candidate(
      ev, *i, other, hint_code::wrong_result,
      o.error_kind == fault_kind::crash ? specificity::cause : specificity::symptom,
      fmt::format("a fault at run time ({}): {}", reports::to_string(*o.error_kind), o.message));
}

} // namespace cugrade::grader::detail
