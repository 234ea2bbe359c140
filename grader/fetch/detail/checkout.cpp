#include "grader/fetch/detail/checkout.h"

#include "grader/fetch/detail/libgit2.h"
#include "grader/fetch/submission_copy.h"
#include "harness/core/words.h"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace cugrade::fetch::detail {
namespace fs = std::filesystem;

namespace {

using tree_ptr = git_ptr<git_tree, git_tree_free>;
using blob_ptr = git_ptr<git_blob, git_blob_free>;
using odb_ptr = git_ptr<git_odb, git_odb_free>;

// One file or folder of the tree, found in a first pass that writes nothing.
struct planned {
  std::string path; // relative, with '/'
  git_oid id;
  bool folder = false;
  bool link = false;
  bool executable = false;
};

struct tree_plan {
  std::vector<planned> entries;
  std::vector<std::string> submodules;
  std::vector<std::string> links;
  std::vector<std::string> refused_names;
  std::uint64_t bytes = 0;
};

struct walk_state {
  git_odb* odb;
  const fetch_limits& limits;
  tree_plan plan;
  std::optional<failure> stopped;
};

// A tree entry name that stays inside its folder on every file system: git's own fsck refuses
// the same, but a pack from a hostile server is not fsck'ed.
bool safe_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && ascii_lowercase(name) != ".git" &&
         name.find('/') == std::string::npos && name.find('\\') == std::string::npos;
}

int depth_of(const std::string& root) {
  return static_cast<int>(std::count(root.begin(), root.end(), '/'));
}

int stop_with(walk_state& s, failure why) {
  s.stopped = std::move(why);
  return -1;
}

// git_tree_walk's callback: 0 goes on, 1 skips a subtree, -1 stops.
int plan_entry(const char* root, const git_tree_entry* entry, void* payload) {
  auto& s = *static_cast<walk_state*>(payload);
  const std::string name = git_tree_entry_name(entry);
  const std::string path = std::string(root) + name;
  const git_filemode_t mode = git_tree_entry_filemode(entry);
  if (!safe_name(name)) {
    s.plan.refused_names.push_back(path);
    return 1;
  }
  if (mode == GIT_FILEMODE_COMMIT) {
    s.plan.submodules.push_back(path);
    return 0;
  }
  if (s.plan.entries.size() + 1 > s.limits.max_entries)
    return stop_with(s, fail_submission("the commit holds more than " +
                                        std::to_string(s.limits.max_entries) +
                                        " files and folders; keep only your sources in the "
                                        "repository"));
  if (mode == GIT_FILEMODE_TREE) {
    if (depth_of(path) + 1 > s.limits.max_depth)
      return stop_with(s, fail_submission(path + " is nested more than " +
                                          std::to_string(s.limits.max_depth) +
                                          " folders deep; keep the repository's folders shallow"));
    s.plan.entries.push_back({path, *git_tree_entry_id(entry), true, false, false});
    return 0;
  }
  std::size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  if (git_odb_read_header(&size, &type, s.odb, git_tree_entry_id(entry)) != 0 ||
      type != GIT_OBJECT_BLOB)
    return stop_with(s, fail_submission(path + " cannot be read from the repository (" +
                                        last_error() + "); push it again"));
  s.plan.bytes += size;
  if (size > s.limits.files_bytes || s.plan.bytes > s.limits.files_bytes)
    return stop_with(
        s, fail_submission("the commit holds more than " + byte_size_text(s.limits.files_bytes) +
                           " of files (the limit, \"limits\": {\"submission_bytes\"} in the "
                           "assignment's spec); " +
                           path + " alone is " + byte_size_text(size) +
                           ": keep only your sources in the repository"));
  const bool link = mode == GIT_FILEMODE_LINK;
  if (link)
    s.plan.links.push_back(path);
  s.plan.entries.push_back(
      {path, *git_tree_entry_id(entry), false, link, mode == GIT_FILEMODE_BLOB_EXECUTABLE});
  return 0;
}

result<void> write_blob(git_repository* repo, const planned& entry, const fs::path& target) {
  git_blob* raw = nullptr;
  if (git_blob_lookup(&raw, repo, &entry.id) != 0)
    return fail_submission(entry.path + " cannot be read from the repository (" + last_error() +
                           "); push it again");
  const blob_ptr blob(raw);
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(git_blob_rawcontent(blob.get())),
            static_cast<std::streamsize>(git_blob_rawsize(blob.get())));
  if (!out.flush())
    return fail("cannot write " + target.string() + "; check the cache's disk");
  std::error_code ec;
  fs::permissions(target, entry.executable ? fs::perms(0755) : fs::perms(0644),
                  fs::perm_options::replace, ec);
  return {};
}

std::string listed(std::size_t count, const char* one, const char* many,
                   const std::vector<std::string>& names, const std::string& why) {
  std::string text = std::to_string(count) + " " + (count == 1 ? one : many) + " ";
  for (std::size_t i = 0; i < names.size() && i < 5; ++i)
    text += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > 5)
    text += " and " + std::to_string(names.size() - 5) + " more";
  return text + " " + why;
}

std::vector<std::string> notes_of(const tree_plan& plan) {
  std::vector<std::string> notes;
  if (!plan.submodules.empty())
    notes.push_back(listed(plan.submodules.size(), "submodule", "submodules", plan.submodules,
                           "left out (not fetched: the contract asks for one file at the root)"));
  if (!plan.links.empty())
    notes.push_back(listed(plan.links.size(), "symbolic link", "symbolic links", plan.links,
                           "checked out as a plain file holding the link's target (links are "
                           "never followed)"));
  if (!plan.refused_names.empty())
    notes.push_back(listed(plan.refused_names.size(), "entry", "entries", plan.refused_names,
                           "left out: the name could reach outside its folder"));
  return notes;
}

} // namespace

result<checked_out> check_out(git_repository* repo, const git_commit* commit,
                              const fs::path& worktrees, const std::string& source,
                              const fetch_limits& limits) {
  const std::string sha = short_sha(*git_commit_id(commit));
  git_tree* raw_tree = nullptr;
  git_odb* raw_odb = nullptr;
  if (git_commit_tree(&raw_tree, commit) != 0)
    return fail_submission(source + ": the tree of commit " + sha + " cannot be read (" +
                           last_error() + "); push the commit again");
  const tree_ptr tree(raw_tree);
  if (git_repository_odb(&raw_odb, repo) != 0)
    return fail(source + ": cannot read the cache repository's objects (" + last_error() + ")");
  const odb_ptr odb(raw_odb);
  walk_state state{odb.get(), limits, {}, {}};
  if (git_tree_walk(tree.get(), GIT_TREEWALK_PRE, plan_entry, &state) != 0)
    return state.stopped ? *state.stopped
                         : fail_submission(source + ": the tree of commit " + sha +
                                           " cannot be read (" + last_error() + ")");
  const fs::path directory = worktrees / oid_hex(*git_commit_id(commit));
  std::error_code ec;
  fs::remove_all(directory, ec);
  if (ec || !fs::create_directories(directory, ec))
    return fail(directory.string() + ": cannot prepare the checkout directory (" + ec.message() +
                "); give a writable cache directory");
  for (const auto& entry : state.plan.entries) {
    const fs::path target = directory / entry.path;
    if (entry.folder) {
      fs::create_directories(target, ec);
      if (ec)
        return fail(target.string() + ": cannot create (" + ec.message() + ")");
    } else if (auto written = write_blob(repo, entry, target); !written) {
      fs::remove_all(directory, ec);
      return written.why();
    }
  }
  return checked_out{directory, notes_of(state.plan)};
}

} // namespace cugrade::fetch::detail
