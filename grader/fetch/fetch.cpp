#include "grader/fetch/fetch.h"

#include "grader/fetch/detail/child_fetch.h"
#include "grader/fetch/detail/file_lock.h"
#include "grader/fetch/detail/libgit2.h"
#include "grader/fetch/detail/source.h"

#include <system_error>

namespace cugrade::fetch {
namespace fs = std::filesystem;
using namespace detail;

namespace {

fetched_submission joined(fetched_submission submission) {
  submission.note.clear();
  for (const auto& n : submission.notes)
    submission.note += (submission.note.empty() ? "" : "; ") + n;
  return submission;
}

fetched_submission grade_directory(const fetch_request& request, const source_info& info) {
  fetched_submission submission;
  submission.directory = info.path;
  submission.source = request.source;
  submission.notes.emplace_back("graded the directory as it is (not a git repository)");
  if (request.deadline)
    submission.notes.emplace_back(
        "the deadline was not checked: a plain directory has no commit time");
  return joined(std::move(submission));
}

result<fs::path> prepare_entry(const fetch_request& request, const source_info& info) {
  if (request.cache_dir.empty())
    return fail(request.source +
                ": a git source needs a cache directory for its clone; give one "
                "(the cache_dir of the fetch request, --cache on the command line)");
  const fs::path entry = request.cache_dir / info.cache_name;
  std::error_code ec;
  fs::create_directories(entry, ec);
  if (ec)
    return fail(entry.string() + ": cannot create the cache entry (" + ec.message() +
                "); give a writable cache directory");
  return entry;
}

result<fetched_submission> grade_repository(const fetch_request& request, const source_info& info) {
  auto entry = prepare_entry(request, info);
  if (!entry)
    return entry.why();
  auto lock = file_lock::acquire(*entry / "lock");
  if (!lock)
    return lock.why();
  auto submission = fetch_in_child(request, info, *entry);
  if (!submission)
    return submission.why();
  submission->source = request.source;
  return joined(std::move(*submission));
}

} // namespace

result<fetched_submission> fetch_submission(const fetch_request& request) {
  const libgit2_session session;
  auto info = classify_source(request.source);
  if (!info)
    return info.why();
  if (info->kind == source_kind::directory)
    return grade_directory(request, *info);
  return grade_repository(request, *info);
}

} // namespace cugrade::fetch
