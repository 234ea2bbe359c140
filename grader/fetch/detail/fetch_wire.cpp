#include "grader/fetch/detail/fetch_wire.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>

namespace cugrade::fetch::detail {
namespace {

using nlohmann::json;
using clock_point = std::chrono::system_clock::time_point;

const char* kind_word(source_kind kind) {
  switch (kind) {
  case source_kind::directory:
    return "directory";
  case source_kind::local_repository:
    return "local_repository";
  case source_kind::remote:
    break;
  }
  return "remote";
}

source_kind kind_from(const std::string& word) {
  if (word == "directory")
    return source_kind::directory;
  return word == "local_repository" ? source_kind::local_repository : source_kind::remote;
}

const char* failure_word(failure_kind kind) {
  switch (kind) {
  case failure_kind::usage:
    return "usage";
  case failure_kind::submission:
    return "submission";
  case failure_kind::infrastructure:
    break;
  }
  return "infrastructure";
}

failure_kind failure_from(const std::string& word) {
  if (word == "usage")
    return failure_kind::usage;
  return word == "submission" ? failure_kind::submission : failure_kind::infrastructure;
}

std::int64_t seconds_of(clock_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

clock_point point_of(std::int64_t seconds) {
  return clock_point(std::chrono::seconds(seconds));
}

} // namespace

std::string encode_request(const wire_request& w) {
  const auto& r = w.request;
  json j = {{"source", r.source},
            {"kind", kind_word(w.info.kind)},
            {"url", w.info.url},
            {"path", w.info.path.string()},
            {"entry", w.entry.string()},
            {"repository_bytes", r.limits.repository_bytes},
            {"files_bytes", r.limits.files_bytes},
            {"max_entries", r.limits.max_entries},
            {"max_depth", r.limits.max_depth}};
  if (r.commit)
    j["commit"] = *r.commit;
  if (r.deadline)
    j["deadline"] = seconds_of(*r.deadline);
  j["grace"] = r.grace.count();
  j["newest"] = r.newest;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

result<wire_request> decode_request(std::string_view text) {
  try {
    const json j = json::parse(text);
    wire_request w;
    w.request.source = j.at("source").get<std::string>();
    w.info.kind = kind_from(j.at("kind").get<std::string>());
    w.info.url = j.at("url").get<std::string>();
    w.info.path = j.at("path").get<std::string>();
    w.entry = j.at("entry").get<std::string>();
    w.request.limits.repository_bytes = j.at("repository_bytes").get<std::uint64_t>();
    w.request.limits.files_bytes = j.at("files_bytes").get<std::uint64_t>();
    w.request.limits.max_entries = j.at("max_entries").get<std::size_t>();
    w.request.limits.max_depth = j.at("max_depth").get<int>();
    if (j.contains("commit"))
      w.request.commit = j.at("commit").get<std::string>();
    if (j.contains("deadline"))
      w.request.deadline = point_of(j.at("deadline").get<std::int64_t>());
    w.request.grace = std::chrono::seconds(j.at("grace").get<std::int64_t>());
    w.request.newest = j.at("newest").get<bool>();
    return w;
  } catch (const json::exception& e) {
    return fail(std::string("cugrade-fetch: the request is not one the grader writes (") +
                e.what() + ")");
  }
}

std::string encode_outcome(const result<fetched_submission>& outcome) {
  json j;
  if (!outcome) {
    j = {{"ok", false}, {"kind", failure_word(outcome.why().kind)}, {"message", outcome.error()}};
  } else {
    const auto& s = *outcome;
    j = {{"ok", true},
         {"directory", s.directory.string()},
         {"after_deadline", s.after_deadline},
         {"notes", s.notes}};
    if (s.commit)
      j["commit"] = *s.commit;
    if (s.commit_time)
      j["commit_time"] = seconds_of(*s.commit_time);
    if (s.branch)
      j["branch"] = *s.branch;
    if (s.newest_commit)
      j["newest_commit"] = *s.newest_commit;
  }
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

result<fetched_submission> decode_outcome(std::string_view text) {
  try {
    const json j = json::parse(text);
    if (!j.at("ok").get<bool>())
      return failure{j.at("message").get<std::string>(),
                     failure_from(j.at("kind").get<std::string>())};
    fetched_submission s;
    s.directory = j.at("directory").get<std::string>();
    s.is_git = true;
    s.after_deadline = j.at("after_deadline").get<bool>();
    s.notes = j.at("notes").get<std::vector<std::string>>();
    if (j.contains("commit"))
      s.commit = j.at("commit").get<std::string>();
    if (j.contains("commit_time"))
      s.commit_time = point_of(j.at("commit_time").get<std::int64_t>());
    if (j.contains("branch"))
      s.branch = j.at("branch").get<std::string>();
    if (j.contains("newest_commit"))
      s.newest_commit = j.at("newest_commit").get<std::string>();
    return s;
  } catch (const json::exception& e) {
    return fail(std::string("cugrade-fetch gave no readable outcome (") + e.what() + ")");
  }
}

} // namespace cugrade::fetch::detail
