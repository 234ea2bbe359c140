#include "grader/core/layout.h"

#include <cstdlib>
#include <system_error>
#include <vector>

#ifndef CUGRADE_SOURCE_DIR
#define CUGRADE_SOURCE_DIR ""
#endif

namespace cugrade::grader {

namespace {

namespace fs = std::filesystem;

bool is_root(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_directory(p / "assignments", ec) &&
         fs::is_directory(p / "reference", ec);
}

fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

fs::path cache_home() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return fs::path(xdg) / "cugrade";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return fs::path(home) / ".cache" / "cugrade";
  }
  return fs::temp_directory_path() / "cugrade-cache";
}

} // namespace

result<layout> discover_layout() {
  layout l;
  l.bin_dir = executable_dir();
  l.lib_dir = l.bin_dir.parent_path() / "lib";
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("CUGRADE_ROOT"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  }
  candidates.emplace_back(CUGRADE_SOURCE_DIR);
  candidates.push_back(l.bin_dir.parent_path());
  for (const auto& c : candidates) {
    if (is_root(c)) {
      l.root = fs::absolute(c);
      break;
    }
  }
  if (l.root.empty()) {
    return fail("cannot find cugrade's data (a folder holding assignments/ and reference/): "
                "set CUGRADE_ROOT to the cugrade source or install tree");
  }
  l.emu_include_dir = l.root / "harness" / "emu" / "include";
  l.cache_dir = cache_home();
  return l;
}

} // namespace cugrade::grader
