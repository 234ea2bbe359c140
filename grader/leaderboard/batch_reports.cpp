#include "grader/leaderboard/batch_reports.h"

#include "harness/core/file_io.h"
#include "reports/report_json.h"

#include <algorithm>

namespace cugrade::leaderboard {

namespace {

constexpr std::string_view report_schema_prefix = "cugrade.report/";

// The file's report, or nullopt when the file is some other JSON (a Gradescope results file).
std::optional<student_report> read_one(const std::filesystem::path& file) {
  student_report out{file.stem().string(), std::nullopt, {}};
  const auto text = read_file(file);
  if (!text) {
    out.problem = text.error();
    return out;
  }
  const auto j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded()) {
    out.problem = file.string() + ": not JSON";
    return out;
  }
  const auto schema = j.is_object() ? j.value("schema", std::string()) : std::string();
  if (!schema.starts_with(report_schema_prefix)) {
    return std::nullopt;
  }
  std::string err;
  out.report = reports::report_from_json(j, &err);
  if (!out.report) {
    out.problem = file.string() + ": " + err;
  }
  return out;
}

} // namespace

result<std::vector<student_report>> read_batch_reports(const std::filesystem::path& batch_dir) {
  const auto folder = batch_dir / "reports";
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) {
    return fail_usage(folder.string() +
                      ": no such folder; give the --out folder of a `cugrade batch` run");
  }
  std::vector<student_report> out;
  for (const auto& item : std::filesystem::directory_iterator(folder, ec)) {
    if (item.path().extension() == ".json" && item.is_regular_file()) {
      if (auto one = read_one(item.path())) {
        out.push_back(std::move(*one));
      }
    }
  }
  if (ec) {
    return fail(folder.string() + ": " + ec.message());
  }
  if (out.empty()) {
    return fail_usage(folder.string() +
                      ": no cugrade report in it; run `cugrade batch` into that folder first");
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.student < b.student; });
  return out;
}

} // namespace cugrade::leaderboard
