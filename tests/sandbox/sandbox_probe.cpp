// A tiny program run inside the sandbox by the tests: each mode tries one thing and prints what
// happened ("ok ..." or "denied <errno text>"), exit status 0 either way unless noted.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

int report(bool ok, const std::string& what) {
  if (ok) {
    std::printf("ok %s\n", what.c_str());
  } else {
    std::printf("denied %s\n", std::strerror(errno));
  }
  return 0;
}

int read_file(const char* path) {
  FILE* f = std::fopen(path, "r");
  if (f == nullptr) {
    return report(false, "");
  }
  char buf[4096] = {};
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  return report(true, std::string(buf, n));
}

int write_file(const char* path) {
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    return report(false, "");
  }
  const bool ok = ::write(fd, "written\n", 8) == 8;
  ::close(fd);
  return report(ok, path);
}

int connect_to(const char* port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    return report(false, "");
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(std::atoi(port)));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return report(ok, "connected");
}

int unix_socket() {
  int fds[2];
  return report(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0, "socketpair");
}

int fork_child() {
  const pid_t pid = ::fork();
  if (pid == 0) {
    _exit(0);
  }
  if (pid > 0) {
    ::waitpid(pid, nullptr, 0);
  }
  return report(pid > 0, "forked");
}

int start_thread() {
  int value = 0;
  std::thread worker([&value] { value = 42; });
  worker.join();
  return report(value == 42, "thread");
}

int trace_parent() {
  return report(::ptrace(PTRACE_ATTACH, ::getppid(), nullptr, nullptr) == 0, "attached");
}

int signal_pid(const char* pid) {
  return report(::kill(static_cast<pid_t>(std::atol(pid)), SIGTERM) == 0, "signalled");
}

int memfd() {
  const int fd = static_cast<int>(::syscall(SYS_memfd_create, "probe", 0));
  return report(fd >= 0, "memfd");
}

int make_fifo(const char* path) {
  return report(::mkfifo(path, 0600) == 0, "fifo");
}

int make_device_node(const char* path) {
  return report(::mknod(path, S_IFCHR | 0600, ::makedev(1, 3)) == 0, "node");
}

// Touches `mib` MiB; dies (OOM kill) or reports a failed allocation under a ceiling.
int allocate(const char* mib) {
  const std::size_t bytes = static_cast<std::size_t>(std::atol(mib)) << 20;
  char* p = static_cast<char*>(std::malloc(bytes));
  if (p == nullptr) {
    return report(false, "");
  }
  for (std::size_t at = 0; at < bytes; at += 4096) {
    p[at] = 1;
  }
  return report(true, "allocated");
}

} // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const char* arg = argc > 2 ? argv[2] : "";
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  if (mode == "id") {
    std::printf("uid %d gid %d pid %d\n", ::getuid(), ::getgid(), ::getpid());
    return 0;
  }
  if (mode == "env") {
    const char* value = std::getenv(arg);
    std::printf("%s=%s\n", arg, value == nullptr ? "(unset)" : value);
    return 0;
  }
  if (mode == "read") {
    return read_file(arg);
  }
  if (mode == "write") {
    return write_file(arg);
  }
  if (mode == "connect") {
    return connect_to(arg);
  }
  if (mode == "unix") {
    return unix_socket();
  }
  if (mode == "fork") {
    return fork_child();
  }
  if (mode == "thread") {
    return start_thread();
  }
  if (mode == "ptrace") {
    return trace_parent();
  }
  if (mode == "kill") {
    return signal_pid(arg);
  }
  if (mode == "memfd") {
    return memfd();
  }
  if (mode == "fifo") {
    return make_fifo(arg);
  }
  if (mode == "node") {
    return make_device_node(arg);
  }
  if (mode == "alloc") {
    return allocate(arg);
  }
  std::fprintf(stderr, "usage: sandbox_probe id|env NAME|read F|write F|connect PORT|unix|fork|"
                       "thread|ptrace|kill PID|memfd|fifo F|node F|alloc MIB\n");
  return 2;
}
