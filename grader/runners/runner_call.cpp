#include "grader/runners/runner_call.h"

#include "grader/process/process.h"
#include "grader/sandbox/sandbox.h"
#include "harness/core/file_io.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <memory>
#include <utility>

namespace cugrade::runners {

namespace {

std::string tail(const std::string& text, std::size_t max_bytes) {
  return text.size() <= max_bytes ? text : "..." + text.substr(text.size() - max_bytes);
}

constexpr std::size_t emu_runner_memory = std::size_t{4} << 30;
constexpr std::size_t gpu_runner_memory = std::size_t{16} << 30; // host memory only

// What a runner sees: its own programs and libraries, the student's library (read-only), and
// its output folder, where the plan is read-only and the events file is hidden (the runner
// writes it through a descriptor the grader opened).
sandbox::profile runner_view(const std::filesystem::path& runner, const protocol::plan& plan,
                             bool wrapped, const std::vector<std::filesystem::path>& tool_dirs) {
  const bool gpu = runner.filename().string().find("gpu") != std::string::npos;
  sandbox::profile view;
  view.kind = !gpu ? sandbox::role::runner
                   : (wrapped ? sandbox::role::gpu_wrapper : sandbox::role::gpu_runner);
  const auto bin = std::filesystem::absolute(runner).parent_path();
  view.read_only = {bin, bin.parent_path() / "lib",
                    std::filesystem::absolute(plan.library).parent_path(),
                    std::filesystem::absolute(plan.output_dir / "plan.json")};
  view.read_only.insert(view.read_only.end(), tool_dirs.begin(), tool_dirs.end());
  view.writable = {std::filesystem::absolute(plan.output_dir)};
  view.masked = {std::filesystem::absolute(plan.output_dir / protocol::events_file_name)};
  view.memory_bytes = gpu ? gpu_runner_memory : emu_runner_memory;
  return view;
}

struct fd_closer {
  explicit fd_closer(int descriptor) : fd(descriptor) {}
  int fd;
  fd_closer(const fd_closer&) = delete;
  fd_closer& operator=(const fd_closer&) = delete;
  ~fd_closer() { ::close(fd); }
};

result<int> open_events_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    return fail("cannot create " + path.string() + ": " + std::strerror(errno));
  }
  return fd;
}

void note_memory_ceiling(runner_outcome& out, const sandbox::confinement& box,
                         std::size_t ceiling) {
  if (box.memory_exhausted() && !out.log.fault_kind && !out.log.finished) {
    out.log.fault_kind = fault_kind::out_of_memory;
    out.log.fault_message = "the runner reached its memory ceiling of " +
                            std::to_string(ceiling >> 20) + " MiB and was stopped";
  }
}

} // namespace

bool runner_outcome::clean() const {
  return log.started && log.finished && !timed_out && term_signal == 0 && exit_code == 0;
}

std::string runner_outcome::ending() const {
  if (timed_out) {
    return "the run exceeded its time limit and was stopped";
  }
  if (term_signal != 0) {
    return std::string("the runner died with signal ") + sigabbrev_np(term_signal);
  }
  if (log.fault_kind) {
    return "the runner stopped on a fault (" + std::string(to_string(*log.fault_kind)) +
           "): " + log.fault_message;
  }
  if (exit_code != 0) {
    return "the runner exited with status " + std::to_string(exit_code) + ": " + stderr_tail;
  }
  return log.finished ? "the run completed" : "the runner stopped before reporting its end";
}

namespace {

// What a gated start adds to a runner's command: the child's end of the gate and the clock its
// time limit counts from.
struct gate_setup {
  int child_fd = -1;
  std::shared_ptr<const process::limit_clock> clock;
};

result<runner_outcome> run_runner_process(
    const run_context& context, const std::filesystem::path& runner, const protocol::plan& plan,
    double time_limit_seconds, const std::vector<std::string>& wrapper, std::size_t file_size_bytes,
    const gate_setup* gate, const std::vector<std::filesystem::path>& tool_dirs = {}) {
  std::filesystem::create_directories(plan.output_dir);
  const auto plan_path = plan.output_dir / "plan.json";
  if (const auto written = write_file_atomically(plan_path, protocol::to_json_text(plan));
      !written) {
    return fail("cannot write the runner's plan: " + written.error());
  }
  auto events_fd = open_events_file(plan.output_dir / protocol::events_file_name);
  if (!events_fd) {
    return fail(events_fd.error());
  }
  const fd_closer events_closer{*events_fd};
  process::spawn_options opts;
  opts.argv = wrapper;
  opts.argv.insert(opts.argv.end(), {runner.string(), "--plan", plan_path.string(), "--events-fd",
                                     std::to_string(*events_fd)});
  opts.inherit_fds = {*events_fd};
  if (gate != nullptr) {
    opts.argv.insert(opts.argv.end(), {"--gate-fd", std::to_string(gate->child_fd)});
    opts.inherit_fds.push_back(gate->child_fd);
    opts.limit_starts = gate->clock;
  }
  opts.time_limit_seconds = time_limit_seconds;
  opts.stop_grace_seconds = 1; // the emulator reports where a stopped kernel's threads were
  opts.file_size_bytes = file_size_bytes;
  opts.capture_limit_bytes = std::size_t{256} << 10;
  opts.env_add = runner_environment(context);
  const auto view = runner_view(runner, plan, !wrapper.empty(), tool_dirs);
  auto box = sandbox::confine(view, opts);
  if (!box) {
    return fail(box.error());
  }
  const auto proc = process::run_process(opts);
  if (!proc) {
    return fail((wrapper.empty() ? "cannot start the runner " : "cannot start ") +
                opts.argv.front() + ": " + proc.error());
  }
  runner_outcome out;
  out.log = protocol::read_events(plan.output_dir / protocol::events_file_name);
  out.timed_out = proc->timed_out;
  out.exit_code = proc->exit_code;
  out.term_signal = proc->timed_out ? 0 : proc->term_signal;
  out.stderr_tail = tail(proc->stderr_text, 2000);
  out.wall_seconds = proc->wall_seconds;
  note_memory_ceiling(out, *box, view.memory_bytes);
  return out;
}

} // namespace

std::optional<std::filesystem::path> find_cuda_tool(const std::filesystem::path& nvcc,
                                                    const std::string& name) {
  const std::filesystem::path beside = nvcc.parent_path() / name;
  std::error_code ec;
  if (!nvcc.empty() && std::filesystem::exists(beside, ec)) {
    return beside;
  }
  return process::find_program(name);
}

result<runner_outcome> run_runner(const run_context& context, const std::filesystem::path& runner,
                                  const protocol::plan& plan, double time_limit_seconds,
                                  const std::vector<std::string>& wrapper,
                                  std::size_t file_size_bytes,
                                  const std::vector<std::filesystem::path>& tool_dirs) {
  return run_runner_process(context, runner, plan, time_limit_seconds, wrapper, file_size_bytes,
                            nullptr, tool_dirs);
}

result<std::unique_ptr<gated_runner>> gated_runner::start(const run_context& context,
                                                          const std::filesystem::path& runner,
                                                          const protocol::plan& plan,
                                                          double time_limit_seconds) {
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    return fail(std::string("cannot make a runner's gate: ") + std::strerror(errno));
  }
  std::unique_ptr<gated_runner> g(new gated_runner(ends[0]));
  const int child_fd = ends[1];
  auto clock = g->m_clock;
  g->m_run =
      std::async(std::launch::async, [context, runner, plan, time_limit_seconds, child_fd, clock] {
        const fd_closer child_end{child_fd};
        const gate_setup gate{child_fd, clock};
        return run_runner_process(context, runner, plan, time_limit_seconds, {},
                                  runner_file_size_bytes, &gate);
      });
  return g;
}

gated_runner::gated_runner(int gate_fd)
    : m_gate(gate_fd), m_clock(std::make_shared<process::limit_clock>()) {}

gated_runner::~gated_runner() {
  if (m_run.valid()) {
    cancel();
  }
  if (m_gate >= 0) {
    ::close(m_gate);
  }
}

bool gated_runner::wait_ready(double seconds) {
  if (m_ready || !m_run.valid()) {
    return m_ready;
  }
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(seconds, 0.0));
  while (m_run.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    pollfd p{m_gate, POLLIN, 0};
    if (::poll(&p, 1, 20) > 0) {
      char byte = 0;
      m_ready = ::recv(m_gate, &byte, 1, 0) == 1 && byte == protocol::gate_ready;
      return m_ready;
    }
    if (std::chrono::steady_clock::now() >= until) {
      return false;
    }
  }
  return false; // it ended before it was ready: go() returns how
}

result<runner_outcome> gated_runner::go() {
  m_clock->start();
  // A runner that already ended says how in its outcome.
  (void)protocol::send_gate_byte(m_gate, protocol::gate_go);
  return m_run.get();
}

void gated_runner::cancel() {
  if (m_gate >= 0) {
    ::shutdown(m_gate, SHUT_RDWR); // the runner reads the end of its gate and exits
  }
  m_clock->start(); // a runner that never reads its gate ends at its time limit
  if (m_run.valid()) {
    (void)m_run.get();
  }
}

} // namespace cugrade::runners
