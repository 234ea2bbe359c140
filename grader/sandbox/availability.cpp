// Finding bubblewrap and trying it once: a sandbox that cannot start is found before grading,
// with words that say what to do, instead of as a failed compile.

#include "grader/sandbox/sandbox.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace cugrade::sandbox {
namespace {

namespace fs = std::filesystem;

std::atomic<mode> g_mode{mode::confined};

constexpr const char* fix_words =
    "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) or point CUGRADE_BWRAP at a "
    "bwrap binary; allow user namespaces (Debian: sysctl kernel.unprivileged_userns_clone=1; "
    "Ubuntu 24.04: sysctl kernel.apparmor_restrict_unprivileged_userns=0, or run cugrade as "
    "root; in a container, start it with user namespaces allowed); or grade without "
    "confinement with --no-sandbox, only for code you trust";

// CUGRADE_BWRAP, then a bwrap next to the running cugrade (a device bundle), then PATH.
std::optional<fs::path> find_bwrap() {
  if (const char* given = std::getenv("CUGRADE_BWRAP"); given != nullptr && *given != '\0') {
    return process::find_program(given);
  }
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    if (auto beside = process::find_program((self.parent_path() / "bwrap").string())) {
      return beside;
    }
  }
  return process::find_program("bwrap");
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// bwrap --version, then /usr/bin/true inside the strictest profile.
void try_bwrap(availability& a) {
  process::spawn_options version;
  version.argv = {a.bwrap.string(), "--version"};
  version.time_limit_seconds = 10;
  auto v = process::run_process(version);
  if (!v || !v->succeeded()) {
    a.problem =
        a.bwrap.string() + " --version failed: " + (v ? first_line(v->stderr_text) : v.error());
    return;
  }
  a.version = first_line(v->stdout_text);
  const auto truth = process::find_program("true");
  process::spawn_options smoke;
  smoke.argv = {truth ? truth->string() : "/usr/bin/true"};
  smoke.time_limit_seconds = 10;
  profile strictest;
  strictest.kind = role::tool;
  auto box = detail::confine_with(a, strictest, smoke);
  if (!box) {
    a.problem = box.error();
    return;
  }
  auto run = process::run_process(smoke);
  if (!run || !run->succeeded()) {
    a.problem = "bwrap cannot create the sandbox here: " +
                (run ? first_line(run->stderr_text) : run.error());
    return;
  }
  a.works = true;
}

} // namespace

void set_mode(mode m) noexcept {
  g_mode = m;
}

mode current_mode() noexcept {
  return g_mode;
}

const availability& probe() {
  static availability found;
  static std::once_flag once;
  std::call_once(once, [] {
    found.fix = fix_words;
    if (auto bwrap = find_bwrap()) {
      found.bwrap = *bwrap;
      try_bwrap(found);
    } else {
      found.problem = "bwrap (bubblewrap) was not found (CUGRADE_BWRAP, next to cugrade, PATH)";
    }
  });
  return found;
}

std::string environment_word() {
  return current_mode() == mode::confined && probe().works ? probe().version : "none";
}

result<void> require_working_sandbox() {
  if (current_mode() == mode::unconfined || probe().works) {
    return {};
  }
  return fail("the sandbox for student code does not work here: " + probe().problem +
              ". To fix: " + probe().fix);
}

} // namespace cugrade::sandbox
