#include "grader/core/report_slot.h"

#include "reports/writers.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>
#include <vector>

namespace cugrade::grader {

namespace fs = std::filesystem;

namespace {

bool is_local(const std::string& submission) {
  std::error_code ec;
  return !submission.empty() && fs::exists(submission, ec);
}

// The path or URL's parts, without empty ones, "." or a ".git" suffix.
std::vector<std::string> parts_of(std::string text) {
  std::vector<std::string> parts;
  std::string part;
  text += '/';
  for (const char c : text) {
    if (c != '/' && c != ':') {
      part += c;
      continue;
    }
    if (part.ends_with(".git")) {
      part.resize(part.size() - 4);
    }
    if (!part.empty() && part != "." && part != "..") {
      parts.push_back(part);
    }
    part.clear();
  }
  return parts;
}

} // namespace

std::string canonical_source(const std::string& submission) {
  if (!is_local(submission)) {
    return submission;
  }
  std::error_code ec;
  const auto canonical = fs::weakly_canonical(fs::absolute(submission), ec);
  return ec ? fs::absolute(submission).lexically_normal().string() : canonical.string();
}

std::string default_student_id(std::string_view submission) {
  const std::string source = canonical_source(std::string(submission));
  auto parts = parts_of(source);
  // A URL's scheme and host ("https", "github.com"; "git@github.com") name no student.
  const std::size_t host_parts = is_local(std::string(submission))         ? 0
                                 : source.find("://") != std::string::npos ? 2
                                 : source.find(':') != std::string::npos   ? 1
                                                                           : 0;
  parts.erase(parts.begin(), parts.begin() + static_cast<long>(std::min(host_parts, parts.size())));
  if (parts.empty()) {
    return "submission";
  }
  return parts.size() == 1 ? parts.back() : parts[parts.size() - 2] + "-" + parts.back();
}

std::optional<existing_report> read_existing_report(const fs::path& json) {
  std::ifstream in(json);
  if (!in) {
    return std::nullopt;
  }
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("submission") || !j["submission"].is_object()) {
    return std::nullopt;
  }
  existing_report r;
  r.source = j["submission"].value("source", "");
  r.gradable = j.value("gradable", true);
  return r;
}

result<void> check_report_id(const std::string& id, bool given) {
  const std::string problem = reports::report_id_problem(id);
  if (problem.empty()) {
    return {};
  }
  return fail_usage(given ? "--student " + id + ": " + problem
                          : "the student id " + id + " (from the submission's path): " + problem +
                                " (--student ID)");
}

result<void> check_same_source(const fs::path& json, const std::string& source) {
  const auto existing = read_existing_report(json);
  if (!existing || existing->source.empty() || canonical_source(existing->source) == source) {
    return {};
  }
  return fail_usage(json.string() + " already holds the report of " + existing->source +
                    ", a different submission than " + source +
                    "; give this one its own id with --student ID, or replace it with --force");
}

std::string report_basename(const fs::path& dir, const std::string& id, bool gradable) {
  if (gradable) {
    return id;
  }
  const auto existing = read_existing_report(dir / (id + ".json"));
  return existing && existing->gradable ? id + std::string(reports::not_gradable_stem) : id;
}

} // namespace cugrade::grader
