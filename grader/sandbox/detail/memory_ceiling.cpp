#include "grader/sandbox/detail/memory_ceiling.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace cugrade::sandbox {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

// The grader's own cgroup in a hierarchy: "4:memory:/a/b" for v1, "0::/a/b" for v2.
std::optional<std::string> own_cgroup(const std::string& controller) {
  std::istringstream lines(read_text("/proc/self/cgroup"));
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) {
      continue;
    }
    const std::string names = line.substr(first + 1, second - first - 1);
    std::istringstream list(names);
    std::string name;
    while (std::getline(list, name, ',')) {
      if (name == controller) {
        return line.substr(second + 1);
      }
    }
    if (controller.empty() && names.empty()) {
      return line.substr(second + 1);
    }
  }
  return std::nullopt;
}

std::string unique_name() {
  static std::atomic<unsigned> counter{0};
  return "cugrade-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
}

std::optional<fs::path> make_child(const fs::path& hierarchy, const std::string& controller) {
  const auto own = own_cgroup(controller);
  if (!own) {
    return std::nullopt;
  }
  const fs::path dir = hierarchy / own->substr(own->front() == '/' ? 1 : 0) / unique_name();
  if (::mkdir(dir.c_str(), 0755) != 0) {
    return std::nullopt;
  }
  return dir;
}

bool has_word(const std::string& text, const std::string& word) {
  std::istringstream words(text);
  std::string w;
  while (words >> w) {
    if (w == word) {
      return true;
    }
  }
  return false;
}

void kill_all(const fs::path& dir) {
  for (int round = 0; round < 200; ++round) {
    std::istringstream pids(read_text(dir / "cgroup.procs"));
    pid_t pid = 0;
    bool any = false;
    while (pids >> pid) {
      any = true;
      ::kill(pid, SIGKILL);
    }
    if (!any) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

} // namespace

std::unique_ptr<memory_ceiling> memory_ceiling::create(std::size_t memory_bytes, int max_pids) {
  std::unique_ptr<memory_ceiling> c(new memory_ceiling());
  const std::string bytes = std::to_string(memory_bytes);
  // v2: our cgroup must delegate the memory controller to its children.
  const bool unified = fs::exists("/sys/fs/cgroup/cgroup.controllers");
  if (auto dir = unified ? make_child("/sys/fs/cgroup", "") : std::nullopt) {
    if (has_word(read_text(*dir / "cgroup.controllers"), "memory") &&
        write_text(*dir / "memory.max", bytes)) {
      write_text(*dir / "memory.swap.max", "0");
      write_text(*dir / "pids.max", std::to_string(max_pids));
      c->m_kind = "cgroup v2";
      c->m_dirs.push_back(*dir);
      c->m_procs.push_back(*dir / "cgroup.procs");
      return c;
    }
    ::rmdir(dir->c_str());
  }
  // v1: separate memory and pids hierarchies.
  if (auto dir = make_child("/sys/fs/cgroup/memory", "memory")) {
    if (!write_text(*dir / "memory.limit_in_bytes", bytes)) {
      ::rmdir(dir->c_str());
      return nullptr;
    }
    write_text(*dir / "memory.memsw.limit_in_bytes", bytes); // absent without swap accounting
    c->m_kind = "cgroup v1";
    c->m_dirs.push_back(*dir);
    c->m_procs.push_back(*dir / "cgroup.procs");
    if (auto pids = make_child("/sys/fs/cgroup/pids", "pids")) {
      if (write_text(*pids / "pids.max", std::to_string(max_pids))) {
        c->m_dirs.push_back(*pids);
        c->m_procs.push_back(*pids / "cgroup.procs");
      } else {
        ::rmdir(pids->c_str());
      }
    }
    return c;
  }
  return nullptr;
}

memory_ceiling::~memory_ceiling() {
  for (const auto& dir : m_dirs) {
    kill_all(dir);
    ::rmdir(dir.c_str());
  }
}

bool memory_ceiling::exhausted() const {
  if (m_dirs.empty()) {
    return false;
  }
  // v2: memory.events; v1: memory.oom_control (kernels since 4.13). Both say "oom_kill N".
  const fs::path file =
      m_dirs.front() / (m_kind == "cgroup v2" ? "memory.events" : "memory.oom_control");
  std::istringstream pairs(read_text(file));
  std::string key;
  long value = 0;
  while (pairs >> key >> value) {
    if (key == "oom_kill" && value > 0) {
      return true;
    }
  }
  return false;
}

} // namespace cugrade::sandbox
