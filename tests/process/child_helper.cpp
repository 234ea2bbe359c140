// A tiny program the process tests run as a child: each mode exercises one thing the runner
// must observe or limit. Usage: cugrade_test_child <mode> [args...]

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Exit 0 when `mib` MiB can be allocated, 3 when the allocation fails.
int allocate(long mib, bool touch) {
  const auto bytes = static_cast<std::size_t>(mib) << 20;
  auto* block = static_cast<char*>(std::malloc(bytes));
  if (block == nullptr) {
    return 3;
  }
  if (touch) {
    std::memset(block, 1, bytes);
  }
  std::printf("%d\n", block[bytes - 1]);
  std::free(block);
  return 0;
}

int print_bytes(long count) {
  std::string line;
  for (long i = 0; i < count; ++i) {
    line.push_back(static_cast<char>('a' + i % 26));
  }
  std::fwrite(line.data(), 1, line.size(), stdout);
  return 0;
}

int write_file(const char* path, long bytes) {
  FILE* file = std::fopen(path, "wb");
  if (file == nullptr) {
    return 4;
  }
  const std::vector<char> block(static_cast<std::size_t>(bytes), 'x');
  std::fwrite(block.data(), 1, block.size(), file);
  return std::fclose(file) == 0 ? 0 : 5;
}

int write_fd(int fd, const char* text) {
  return write(fd, text, std::strlen(text)) == static_cast<ssize_t>(std::strlen(text)) ? 0 : 6;
}

int show_env(const char* name) {
  const char* value = std::getenv(name);
  std::printf("%s\n", value != nullptr ? value : "<unset>");
  return 0;
}

int show_cwd() {
  std::vector<char> buffer(4096);
  if (getcwd(buffer.data(), buffer.size()) == nullptr) {
    return 7;
  }
  std::printf("%s\n", buffer.data());
  return 0;
}

// Prints the soft limit of "core", "cpu" or "nproc".
int show_limit(std::string_view name) {
  const int resource = name == "core" ? RLIMIT_CORE : name == "cpu" ? RLIMIT_CPU : RLIMIT_NPROC;
  rlimit limit{};
  getrlimit(resource, &limit);
  std::printf("%llu\n", static_cast<unsigned long long>(limit.rlim_cur));
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    return 64;
  }
  const std::string_view mode = argv[1];
  const char* arg = argc > 2 ? argv[2] : "0";
  if (mode == "exit") {
    return std::atoi(arg);
  }
  if (mode == "segv") {
    std::raise(SIGSEGV);
  }
  if (mode == "alloc" || mode == "touch") {
    return allocate(std::atol(arg), mode == "touch");
  }
  if (mode == "print") {
    return print_bytes(std::atol(arg));
  }
  if (mode == "stderr") {
    std::fputs(arg, stderr);
    return 0;
  }
  if (mode == "file" && argc > 3) {
    return write_file(arg, std::atol(argv[3]));
  }
  if (mode == "fdwrite" && argc > 3) {
    return write_fd(std::atoi(arg), argv[3]);
  }
  if (mode == "fdopen") { // exit 0 when the descriptor is open in the child
    return fcntl(std::atoi(arg), F_GETFD) >= 0 ? 0 : 8;
  }
  if (mode == "env") {
    return show_env(arg);
  }
  if (mode == "cwd") {
    return show_cwd();
  }
  if (mode == "rlimit") {
    return show_limit(arg);
  }
  return 65;
}
