#include "grader/layout/layout.h"

#include <cstdlib>
#include <optional>
#include <system_error>

#ifndef CUGRADE_SOURCE_DIR
#define CUGRADE_SOURCE_DIR ""
#endif

namespace cugrade::grader {

namespace {

namespace fs = std::filesystem;

bool is_folder(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_directory(p, ec);
}

// A source tree has harness/emu/include, an installation emu/include; neither needs reference/
// (the students' copy and the `student` component have none).
bool is_root(const fs::path& p) {
  return is_folder(p / "assignments") &&
         (is_folder(p / "harness" / "emu" / "include") || is_folder(p / "emu" / "include"));
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

// The emulator's runtime sits with the programs it was built with: PREFIX/lib/cugrade for an
// installed program, the build's lib/ otherwise.
fs::path lib_dir_beside(const fs::path& bin_dir) {
  const fs::path installed = bin_dir.parent_path() / "lib" / "cugrade";
  return is_folder(installed) ? installed : bin_dir.parent_path() / "lib";
}

// An installed tree (cmake --install, the .deb): PREFIX/bin holds the programs,
// PREFIX/lib/cugrade the shared libraries, PREFIX/share/cugrade the data with the emulator's
// headers in emu/include.
std::optional<layout> installed_tree(const fs::path& prefix, const fs::path& bin_dir) {
  if (!is_root(prefix / "share" / "cugrade")) {
    return std::nullopt;
  }
  layout l;
  l.bin_dir = bin_dir;
  l.root = fs::absolute(prefix / "share" / "cugrade");
  l.lib_dir = lib_dir_beside(bin_dir);
  l.emu_include_dir = l.root / "emu" / "include";
  return l;
}

// A source tree with a build tree's bin/ and lib/ (or the device bundle, which copies bin/ and
// lib/ next to the data): the emulator's headers stay in the source layout.
std::optional<layout> source_tree(const fs::path& root, const fs::path& bin_dir) {
  if (!is_root(root)) {
    return std::nullopt;
  }
  layout l;
  l.bin_dir = bin_dir;
  l.root = fs::absolute(root);
  l.lib_dir = lib_dir_beside(bin_dir);
  l.emu_include_dir = l.root / "harness" / "emu" / "include";
  return l;
}

// CUGRADE_ROOT names either kind of data folder: a source tree or PREFIX/share/cugrade.
std::optional<layout> from_environment(const fs::path& bin_dir) {
  const char* env = std::getenv("CUGRADE_ROOT");
  if (env == nullptr || *env == '\0') {
    return std::nullopt;
  }
  fs::path root = fs::absolute(env).lexically_normal();
  if (root.filename().empty()) { // "…/share/cugrade/"
    root = root.parent_path();
  }
  const bool installed = root.filename() == "cugrade" && root.parent_path().filename() == "share";
  return installed ? installed_tree(root.parent_path().parent_path(), bin_dir)
                   : source_tree(root, bin_dir);
}

} // namespace

result<layout> discover_layout() {
  const fs::path bin_dir = executable_dir();
  // An installed binary prefers the data installed beside it over the source tree it was built
  // from, which may still exist (or be a different version) on the same machine.
  std::optional<layout> l = from_environment(bin_dir);
  if (!l) {
    l = installed_tree(bin_dir.parent_path(), bin_dir);
  }
  if (!l) {
    l = source_tree(CUGRADE_SOURCE_DIR, bin_dir);
  }
  if (!l) {
    l = source_tree(bin_dir.parent_path(), bin_dir);
  }
  if (!l) {
    return fail("cannot find cugrade's data (a folder holding assignments/ and "
                "harness/emu/include/ or emu/include/) "
                "beside " +
                bin_dir.string() +
                ": install cugrade (cmake --install, or the .deb), or set CUGRADE_ROOT to the "
                "cugrade source tree or to PREFIX/share/cugrade");
  }
  l->cache_dir = cache_home();
  return *l;
}

} // namespace cugrade::grader
