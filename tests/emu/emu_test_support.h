#pragma once
// Helpers for the emulator's tests: loading a kernel module compiled through the emulator's full
// path (rewrite + g++ recipe, done at build time), device buffers, running a piece of a test in a
// forked child (for faults that end the process), and finding a marked line in a kernel source.

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda_runtime_api.h"
#include "cugrade_emu_control.h"

namespace emu_test {

/// Directory holding the modules built for the tests (set by CMake).
inline std::string module_path(const std::string& name) {
  return std::string(EMU_TEST_MODULE_DIR) + "/" + name + ".so";
}

/// A dlopen'ed module; symbols are looked up by name.
class module {
public:
  explicit module(const std::string& name) : m_handle(dlopen(module_path(name).c_str(), RTLD_NOW)) {
    if (m_handle == nullptr) {
      throw std::runtime_error(std::string("dlopen: ") + dlerror());
    }
  }
  ~module() { dlclose(m_handle); }
  module(const module&) = delete;
  module& operator=(const module&) = delete;

  template <class F> F* fn(const char* name) const {
    void* p = dlsym(m_handle, name);
    if (p == nullptr) {
      throw std::runtime_error(std::string("missing symbol ") + name);
    }
    return reinterpret_cast<F*>(p);
  }

private:
  void* m_handle;
};

/// A device buffer of n elements.
template <class T> class device_buffer {
public:
  explicit device_buffer(std::size_t n) : m_n(n) {
    if (cudaMalloc(reinterpret_cast<void**>(&m_ptr), n * sizeof(T)) != cudaSuccess) {
      throw std::runtime_error("cudaMalloc failed");
    }
  }
  ~device_buffer() { cudaFree(m_ptr); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  [[nodiscard]] T* get() const { return m_ptr; }
  void upload(const std::vector<T>& host) {
    cudaMemcpy(m_ptr, host.data(), m_n * sizeof(T), cudaMemcpyHostToDevice);
  }
  [[nodiscard]] std::vector<T> download() const {
    std::vector<T> host(m_n);
    cudaMemcpy(host.data(), m_ptr, m_n * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }
  void fill(int byte) { cudaMemset(m_ptr, byte, m_n * sizeof(T)); }

private:
  std::size_t m_n;
  T* m_ptr = nullptr;
};

/// What a forked child did: its exit status (or signal) and what it wrote to the fault fd and to
/// stdout.
struct child_result {
  bool exited = false;
  int exit_status = -1;
  int signal = 0;
  std::string fault_report;
  std::string stdout_text;
};

inline std::string read_all(int fd) {
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) {
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

/// Runs `body` in a forked child whose fault reports go to a pipe; the child exits 0 after body.
/// `kill_after` > 0 sends SIGTERM to the child after that long (for the stop test).
inline child_result run_in_child(const std::function<void()>& body,
                                 std::chrono::milliseconds kill_after = {}) {
  int faults[2];
  int out[2];
  if (pipe(faults) != 0 || pipe(out) != 0) {
    throw std::runtime_error("pipe failed");
  }
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    close(faults[0]);
    close(out[0]);
    dup2(out[1], 1);
    cugrade::emu::set_fault_report_fd(faults[1]);
    try {
      body();
    } catch (const std::exception& e) {
      std::printf("exception: %s\n", e.what());
      std::fflush(stdout);
      _exit(3);
    }
    std::fflush(stdout);
    _exit(0);
  }
  close(faults[1]);
  close(out[1]);
  if (kill_after.count() > 0) {
    std::this_thread::sleep_for(kill_after);
    kill(pid, SIGTERM);
  }
  child_result r;
  r.stdout_text = read_all(out[0]);
  r.fault_report = read_all(faults[0]);
  close(faults[0]);
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exited = WIFEXITED(status);
  r.exit_status = r.exited ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return r;
}

/// 1-based line of the first line of `file` containing `marker` (0 if none): tests name the line
/// a diagnostic must point at by a comment in the kernel source.
inline int line_of(const std::string& file, const std::string& marker) {
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find(marker) != std::string::npos) {
      return n;
    }
  }
  return 0;
}

inline std::string kernel_source(const std::string& name) {
  return std::string(EMU_TEST_SOURCE_DIR) + "/kernels/" + name;
}

} // namespace emu_test
