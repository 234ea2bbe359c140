#pragma once
/// \file
/// The runner protocol: what the grader asks a runner to do (a plan) and what the runner reports
/// back (one JSON event per line, flushed as it happens, so a crash loses nothing before it).
///
/// The grader writes `plan.json`, starts `cugrade-runner-<backend> --plan plan.json`, and reads
/// `events.jsonl` and the raw output files from the plan's output directory. The runner never
/// sees a reference result; the grader never runs student code.

#include "harness/core/fault_kind.h"
#include "harness/core/result.h"
#include "harness/problems/problem.h"
#include "harness/protocol/profile.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::protocol {

/// One case the runner must run, `runs` times.
struct planned_case {
  std::string name;
  problems::shape dims;
  std::string distribution;
  std::uint64_t seed = 0;
};

/// Timing request for benchmark plans; the numbers are docs/timing.md's.
struct timing_request {
  bool enabled = false;
  double warmup_seconds = 0.1; ///< warm-up lasts this long and at least `warmup_calls` calls
  int warmup_calls = 3;
  int min_samples = 20;           ///< kept samples before the stopping rule may stop
  int max_samples = 1000;         ///< timed calls at most, kept or dropped
  double min_seconds = 0;         ///< device time of kept samples before the rule may stop
  double max_seconds = 5.0;       ///< wall time of the sampling at most
  double target_rsd = 0.005;      ///< stop when stddev / mean of kept samples is at most this...
  double target_rse = 0.001;      ///< ...or the relative standard error (rsd / sqrt(n)) is
  double throttle_fraction = 0.9; ///< drop samples taken below this fraction of the max clock
  int input_sets = 4;
  /// Hold the stream with a spinning kernel while the launcher enqueues its work, so the events
  /// time the device work without the host's launch gaps (docs/timing.md, "gated launches").
  bool gate_launches = true;
  /// Save each set's first and last output and make the fresh-contents call, for the grader's
  /// check of the outputs. The control of a cached reference time uses only the samples: its
  /// calls are still fingerprinted (faults, poison, NaN, guard words, inputs), nothing is saved.
  bool save_outputs = true;
};

struct plan {
  problems::kind problem; ///< no default (problems::kind): set by whoever makes one
  std::string launcher;
  /// Launchers run after `launcher`, each over the same cases, in this one process: a sanitizer
  /// pass checks every kernel of a submission, a timing round times every timed kernel, at the
  /// cost of one CUDA start (docs/timing.md, sections 7 and 3). Their cases number on: further
  /// launcher j's case i is case (j + 1) * n + i of n cases.
  std::vector<std::string> more_launchers;
  std::filesystem::path library;    ///< the student's (or reference's) compiled shared object
  std::filesystem::path output_dir; ///< events.jsonl and case outputs go here
  int runs = 2; ///< runs per case; in emulation each run uses another thread order
  /// No guard regions after buffers: for runs under compute-sanitizer, whose memcheck sees only
  /// accesses outside an allocation (the guards would hide a read just past the end).
  bool exact_buffers = false;
  /// The kernel's time limit as the runner enforces it itself, 0 for none. In emulation the
  /// limit counts only time without progress (docs/emulation.md, "The time limit"): a launch
  /// whose blocks keep finishing runs on, up to a cap scaled to its threads, and the grader's
  /// own wall-clock limit is only a backstop.
  double time_limit_seconds = 0;
  /// Profile each case's first run (docs/insight.md): the emulator counts the warps' memory
  /// requests and the runner writes a `profile` event after the case; the GPU runner ignores it
  /// (Nsight Compute measures it from outside).
  bool profile = false;
  std::vector<planned_case> cases;
  timing_request timing;
};

/// Every launcher of the plan in the order the runner runs them: `launcher`, then more_launchers.
[[nodiscard]] std::vector<std::string> plan_launchers(const plan& p);

[[nodiscard]] std::string to_json_text(const plan& p);
[[nodiscard]] result<plan> plan_from_json_text(const std::string& text);

/// Output file name of one run of one case, inside plan::output_dir.
[[nodiscard]] std::string output_file_name(std::size_t case_index, int run);
/// Reads a raw output file a runner wrote (a correctness run's or a timed call's) as a buffer for
/// `spec`; nullopt when the file is missing or holds fewer bytes than the buffer.
[[nodiscard]] std::optional<problems::buffer> read_output(const std::filesystem::path& path,
                                                          const problems::buffer_spec& spec);
inline constexpr const char* events_file_name = "events.jsonl";

/// The gate of a runner started ahead of its turn (`--gate-fd N`, a Unix socket): the runner
/// sends `gate_ready` once its device context is made, then waits; `gate_go` lets it run its
/// plan, anything else or the grader's end closing cancels it (harness/runner/gate.h).
inline constexpr char gate_ready = 'r';
inline constexpr char gate_go = 'g';
/// Sends one byte of the gate (either side); false when the other side is gone. Never raises
/// SIGPIPE.
[[nodiscard]] bool send_gate_byte(int fd, char byte);

/// Where the runner put one of a case's buffers: the contract's name, the device address and
/// the bytes asked for. A fault names an address (compute-sanitizer's report, the emulator's
/// words); the grader finds the buffer around it and names it (harness/problems/buffer_words.h).
struct buffer_place {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
  bool operator==(const buffer_place&) const = default;
};

/// The addresses [begin, end).
struct address_range {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  [[nodiscard]] bool contains(std::uint64_t address) const noexcept {
    return begin <= address && address < end;
  }
  bool operator==(const address_range&) const = default;
};

/// What happened in one run of one case.
struct run_record {
  std::size_t case_index = 0;
  int run = 0;
  bool completed = false; ///< the launcher returned and outputs were read back
  std::optional<cugrade::fault_kind> error_kind; ///< absent when the call had no fault
  std::string message;
  bool canary_overwritten = false;
  bool input_modified = false;
  double seconds = 0;
  std::string output_file;
  /// The first bytes the call wrote to stdout and stderr (the student's debug output), as
  /// written; only a case's first run carries it.
  std::string output;
  std::size_t output_bytes = 0; ///< everything the call wrote, kept or not
  /// With a faulting call on the GPU: the host memory the runner's process could read then
  /// (backends::backend::host_memory), which a GPU's kernel cannot reach. memcheck names only the
  /// address of a bad access; the grader tells a kernel handed a host pointer from it.
  std::vector<address_range> host_memory;
};

/// A saved output of a timed call, for the grader to check against the reference.
struct saved_output {
  int set = 0;
  std::string role; ///< "first" or "last" call on the set, or "fresh" (see timing.h)
  std::string file; ///< inside the plan's output directory
  bool operator==(const saved_output&) const = default;
};

/// The fingerprint of one timed call's output (see timing.h), in sampling order.
struct sample_check {
  int set = 0;
  double sum = 0;
  double abs_sum = 0;
  std::size_t poison_words = 0;
  std::size_t non_finite = 0;
  bool canary_overwritten = false;
  bool operator==(const sample_check&) const = default;
};

/// Timing samples of one case (benchmark plans).
struct timing_record {
  std::size_t case_index = 0;
  std::vector<double> event_ms;     ///< CUDA-event time of each kept sample
  std::vector<double> host_ms;      ///< device-synchronised host clock of the same samples
  std::vector<double> sm_clock_mhz; ///< the lower of the clocks read before and after the sample
  std::vector<int> sample_sets;     ///< the input set of each kept sample
  /// Every kept sample was taken with the stream gated; false when the plan asked for no gate or
  /// the launcher waited on the device inside the call (then no sample is gated).
  bool gated = false;
  int dropped_throttled = 0;   ///< samples taken below throttle_fraction of the max clock
  double max_sm_clock_mhz = 0; ///< the highest clock seen during the case
  int warmup_calls = 0;
  /// Wall time of the sampling loop (every sample, kept or dropped, with its poison, flush,
  /// clock reads and fingerprint), and of the whole case (inputs, warm-up, sampling, saving the
  /// outputs, the fresh call): the cost of the measurement beside what it measured.
  double sampling_seconds = 0;
  double case_seconds = 0;
  std::string stop_reason;          ///< rsd, rse, max_samples, max_seconds or a fault
  std::vector<sample_check> checks; ///< every timed call, kept or dropped
  std::vector<saved_output> saved;
  bool input_modified = false; ///< an input differed from its upload after the calls
  int verified_calls = 0;      ///< outputs saved for verification (= saved.size())
  int verified_failures = 0;
  std::string note;
};

/// Everything the grader learns from a runner's event log.
struct runner_log {
  std::string backend;
  std::string device;
  std::string driver;
  std::string runtime;
  bool started = false;
  bool finished = false;
  std::optional<std::size_t> open_case; ///< a case that began and never ended (crash, timeout)
  int open_run = 0;
  /// The runner's clock at the first case_begin of each case: seconds since it began writing
  /// events, before it made its CUDA context. Written by the process that runs student code, so
  /// only ever used where a false value can cost no one but that submission.
  std::map<std::size_t, double> began_seconds;
  /// Each case's buffers, from the case_begin of its first run. As untrusted as the rest: used
  /// only to name a buffer in that submission's own fault messages.
  std::map<std::size_t, std::vector<buffer_place>> buffers;
  std::vector<run_record> runs;
  std::vector<timing_record> timings;
  std::vector<profile_record> profiles;
  std::optional<cugrade::fault_kind> fault_kind; ///< from a fault line (emulator signal handler)
  std::string fault_message;
  std::string fault_pc_offset;
  std::string fault_object;
  std::string missing_launcher;
  /// Why the log cannot be what the runner wrote (a line after "done", an unknown event, a
  /// case_end without its case_begin, a bad field...), or empty. Student code shares the
  /// runner's process, so the log is untrusted input; a tampered log reads as a "tampering"
  /// fault in its first case and carries no results.
  std::string tampering;
};

/// Reads events.jsonl as untrusted input: enumerated events, checked sequence, capped strings,
/// output files only at the names the protocol gives them. Tolerates a truncated last line (the
/// runner may have died mid-write).
[[nodiscard]] runner_log read_events(const std::filesystem::path& events_path);

/// Longest message or name kept from a runner's events; longer ones are cut.
inline constexpr std::size_t max_event_text = 2000;

} // namespace cugrade::protocol

namespace cugrade::protocol {

struct device_identity {
  std::string backend;
  std::string device;
  std::string driver;
  std::string runtime;
  std::string uuid; ///< the GPU's UUID ("GPU-..."), the key of its lock and timing cache
  std::string arch; ///< compute capability without the dot, e.g. "90" (what to compile for)
};

/// What names one device across processes (its lock, its cached reference timings): the UUID,
/// else the device's name.
[[nodiscard]] inline std::string device_key(const device_identity& d) {
  return d.uuid.empty() ? d.device : d.uuid;
}

/// Appends events to events.jsonl with one write(2) per line, so each line is whole even if the
/// runner dies right after. The file descriptor stays open for fault reports from signal handlers.
class event_writer {
public:
  explicit event_writer(const std::filesystem::path& events_path);
  /// Writes to a descriptor the grader opened (`--events-fd`), outside the sandbox's view.
  explicit event_writer(int fd);
  ~event_writer();
  event_writer(const event_writer&) = delete;
  event_writer& operator=(const event_writer&) = delete;

  [[nodiscard]] int fd() const noexcept { return m_fd; }
  void started(const device_identity& id);
  /// `buffers`: where the case's buffers lie (a case's first run writes them).
  void case_begin(std::size_t case_index, int run, const std::vector<buffer_place>& buffers = {});
  void case_end(const run_record& r);
  void timing(const timing_record& t);
  void profile(const profile_record& p);
  void missing(const std::string& launcher);
  void finished();
  /// Nobody but this writer has written to the file: its size is what this writer wrote. False
  /// once student code (a constructor, a thread) wrote to it through the descriptor.
  [[nodiscard]] bool intact() const;

private:
  void write_line(const std::string& line);
  std::chrono::steady_clock::time_point m_since =
      std::chrono::steady_clock::now(); // case_begin's "t"
  int m_fd = -1;
  std::size_t m_written = 0; // bytes this writer appended
  bool m_regular = false;    // a regular file (a pipe has no size to check)
};

} // namespace cugrade::protocol
