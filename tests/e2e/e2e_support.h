#pragma once
// Running the real `cugrade` binary from tests and reading what it wrote.

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cugrade::e2e {

struct cli_result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `cugrade args...` (the binary built with the tests) with a private cache folder.
[[nodiscard]] cli_result run_cugrade(const std::vector<std::string>& args);

/// A file's bytes, or empty when it cannot be read.
[[nodiscard]] std::string text_of(const std::filesystem::path& path);

/// Reads <dir>/<basename>.json.
[[nodiscard]] nlohmann::json read_json(const std::filesystem::path& path);

/// Schema problems of a written report (empty when valid).
[[nodiscard]] std::vector<std::string> schema_errors(const nlohmann::json& report);

/// The kernel entry named `name` in a report, or a null json.
[[nodiscard]] nlohmann::json kernel_named(const nlohmann::json& report, const std::string& name);

/// True when some diagnosis hint of `kernel` has code `code`.
[[nodiscard]] bool has_hint(const nlohmann::json& kernel, const std::string& code);

/// A report without what differs between two gradings of the same bytes: the time it was made
/// and how long things took (every "created_at" and "*seconds" key).
[[nodiscard]] nlohmann::json without_times(nlohmann::json j);

/// Every JSON file of <out>/reports by name, without times (for comparing two batches).
[[nodiscard]] std::map<std::string, std::string>
reports_without_times(const std::filesystem::path& out);

/// A fresh folder under the system temp dir, removed by the caller when it likes.
[[nodiscard]] std::filesystem::path fresh_dir(const std::string& tag);

/// Every fixture folder holding an expect.json.
[[nodiscard]] std::vector<std::string> fixture_names();
[[nodiscard]] std::filesystem::path fixtures_dir();
/// Every assignment folder under the source tree's assignments/ holding an assignment.json.
[[nodiscard]] std::vector<std::string> assignment_names();
/// The cugrade source tree ($CUGRADE_ROOT when set, e.g. in a device bundle).
[[nodiscard]] std::filesystem::path source_root();

/// Why the GPU backend cannot run here, or empty when it can.
[[nodiscard]] std::string gpu_unavailable_reason();

} // namespace cugrade::e2e
