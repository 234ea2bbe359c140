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
  if (format == "gradescope") {
    return student + ".gradescope.json";
  }
  if (format == "junit") {
    return student + ".junit.xml";
  }
  if (format == "text") {
    return student + ".txt";
  }
  return student + ".json";
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
  const auto json = read_text(out_dir / report_path_of(student));
  if (!json) {
    return fail((out_dir / report_path_of(student)).string() +
                ": written but unreadable; check the folder's permissions");
  }
  return written_report{report_path_of(student), sha256_hex(*json)};
}

bool report_files_intact(const std::filesystem::path& out_dir, const std::string& student,
                         const std::string& sha256, const std::vector<std::string>& formats) {
  for (const auto& f : with_json(formats)) {
    if (!std::filesystem::exists(out_dir / "reports" / file_name(student, f))) {
      return false;
    }
  }
  const auto json = read_text(out_dir / report_path_of(student));
  return json && sha256_hex(*json) == sha256;
}

} // namespace cugrade::batch
