#include "grader/batch/report_files.h"

#include "harness/core/sha256.h"
#include "reports/report_json.h"
#include "reports/writers.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace cugrade::batch {

namespace {

// The file name write_report gives each format.
std::string file_name(const std::string& student, const std::string& format) {
  return student + std::string(reports::report_file_suffix(format));
}

std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> with_json(std::vector<std::string> formats) {
  if (std::find(formats.begin(), formats.end(), "json") == formats.end()) {
    formats.insert(formats.begin(), "json");
  }
  return formats;
}

} // namespace

std::string report_path_of(const std::string& student) {
  return "reports/" + file_name(student, "json");
}

result<reports::report> journaled_report(const std::string& report_json) {
  const auto j = nlohmann::json::parse(report_json, nullptr, false);
  std::string err;
  auto r = j.is_discarded() ? std::nullopt : reports::report_from_json(j, &err);
  if (!r) {
    return fail("the journal holds an unreadable report (" +
                (err.empty() ? std::string("not JSON") : err) +
                "); regrade the student with --regrade STUDENT");
  }
  return *r;
}

result<written_report> write_report_files(const std::filesystem::path& out_dir,
                                          const std::string& student,
                                          const std::string& report_json,
                                          const std::vector<std::string>& formats) {
  auto r = journaled_report(report_json);
  if (!r) {
    return fail(r.error());
  }
  const auto w = reports::write_report(*r, out_dir / "reports", student, with_json(formats));
  if (!w.ok()) {
    return fail(w.error);
  }
  written_report out;
  for (const auto& f : with_json(formats)) {
    const std::string path = "reports/" + file_name(student, f);
    const auto bytes = read_text(out_dir / path);
    if (!bytes) {
      return fail((out_dir / path).string() +
                  ": written but unreadable; check the folder's permissions");
    }
    out.files.push_back({path, sha256_hex(*bytes)});
  }
  return out;
}

report_files_state check_report_files(const std::filesystem::path& out_dir, const journal_entry& e,
                                      const std::vector<std::string>& formats) {
  std::vector<written_file> recorded = e.report_files;
  if (recorded.empty()) {
    recorded.push_back({report_path_of(e.student), e.report_sha256});
  }
  report_files_state state;
  for (const auto& f : with_json(formats)) {
    const std::string path = "reports/" + file_name(e.student, f);
    const auto bytes = read_text(out_dir / path);
    const auto written = std::find_if(recorded.begin(), recorded.end(),
                                      [&](const written_file& w) { return w.path == path; });
    if (!bytes) {
      state.missing = true;
    } else if (written != recorded.end() && sha256_hex(*bytes) != written->sha256) {
      state.changed.push_back(path);
    }
  }
  return state;
}

} // namespace cugrade::batch
