#include "tests/e2e/e2e_support.h"

#include "grader/process/process.h"
#include "reports/schema_validator.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace cugrade::e2e {

namespace fs = std::filesystem;

namespace {
// A device bundle relocates programs and data: the environment overrides the build paths.
std::string from_env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}
} // namespace

cli_result run_cugrade(const std::vector<std::string>& args) {
  process::spawn_options opts;
  opts.argv = {from_env("CUGRADE_BINARY", CUGRADE_BINARY)};
  opts.argv.insert(opts.argv.end(), args.begin(), args.end());
  opts.env_add = {{"XDG_CACHE_HOME", (fs::temp_directory_path() / "cugrade-e2e-cache").string()},
                  {"NO_COLOR", "1"}};
  opts.time_limit_seconds = 600;
  const auto r = process::run_process(opts);
  if (!r) {
    return {-1, "", r.error()};
  }
  return {r->shell_status(), r->stdout_text, r->stderr_text};
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in, nullptr, false);
}

std::vector<std::string> schema_errors(const nlohmann::json& report) {
  return reports::validate_report(report, CUGRADE_REPORT_SCHEMA);
}

nlohmann::json kernel_named(const nlohmann::json& report, const std::string& name) {
  for (const auto& k : report.value("kernels", nlohmann::json::array())) {
    if (k.value("name", "") == name) {
      return k;
    }
  }
  return nullptr;
}

bool has_hint(const nlohmann::json& kernel, const std::string& code) {
  for (const auto& h : kernel.value("diagnosis", nlohmann::json::array())) {
    if (h.value("code", "") == code) {
      return true;
    }
  }
  return false;
}

nlohmann::json without_times(nlohmann::json j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      if (it.key() == "created_at" || it.key().ends_with("seconds")) {
        it = j.erase(it);
      } else {
        *it = without_times(*it);
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (auto& e : j) {
      e = without_times(e);
    }
  }
  return j;
}

std::map<std::string, std::string> reports_without_times(const fs::path& out) {
  std::map<std::string, std::string> all;
  for (const auto& f : fs::directory_iterator(out / "reports")) {
    if (f.path().extension() == ".json") {
      all[f.path().filename().string()] = without_times(read_json(f.path())).dump(1);
    }
  }
  return all;
}

fs::path fresh_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  const auto dir =
      fs::temp_directory_path() /
      ("cugrade-e2e-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path source_root() {
  return from_env("CUGRADE_ROOT", CUGRADE_SOURCE_DIR);
}

fs::path fixtures_dir() {
  return from_env("CUGRADE_FIXTURES_DIR", CUGRADE_FIXTURES_DIR);
}

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fixtures_dir())) {
    if (fs::exists(entry.path() / "expect.json")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> assignment_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(source_root() / "assignments")) {
    if (fs::exists(entry.path() / "assignment.json")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string gpu_unavailable_reason() {
  process::spawn_options opts;
  const std::string runner = from_env("CUGRADE_GPU_RUNNER", CUGRADE_GPU_RUNNER);
  opts.argv = {runner, "--probe"};
  opts.time_limit_seconds = 60;
  if (!fs::exists(runner)) {
    return "cugrade was built without the GPU backend (no nvcc)";
  }
  const auto r = process::run_process(opts);
  if (!r || !r->succeeded()) {
    return "no usable GPU: " + (r ? r->stderr_text.substr(0, 200) : r.error());
  }
  return "";
}

} // namespace cugrade::e2e
