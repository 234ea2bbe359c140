#include "tests/fetch/git_fixture.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cugrade::fetch::testing {
namespace fs = std::filesystem;

namespace {

/// Test set-up failures are bugs in the test: stop loudly with libgit2's reason.
void check(int rc, const char* what) {
  if (rc == 0)
    return;
  const git_error* error = git_error_last();
  throw std::runtime_error(std::string(what) + ": " + (error ? error->message : "?"));
}

git_oid parse_oid(const std::string& sha) {
  git_oid oid;
  check(git_oid_fromstr(&oid, sha.c_str()), "git_oid_fromstr");
  return oid;
}

std::string hex(const git_oid& oid) {
  char buffer[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buffer, sizeof buffer, &oid);
  return buffer;
}

git_signature* signature(std::int64_t when) {
  git_signature* sig = nullptr;
  check(git_signature_new(&sig, "Student", "student@example.edu", when, 0), "git_signature_new");
  return sig;
}

} // namespace

temp_dir::temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "cugrade-fetch-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("mkdtemp failed");
  m_path = pattern;
}

temp_dir::~temp_dir() {
  std::error_code ec;
  fs::remove_all(m_path, ec);
}

test_repo::test_repo(const fs::path& workdir) : m_workdir(workdir) {
  git_libgit2_init();
  git_repository_init_options options = GIT_REPOSITORY_INIT_OPTIONS_INIT;
  options.flags = GIT_REPOSITORY_INIT_MKPATH;
  options.initial_head = "main";
  check(git_repository_init_ext(&m_repo, workdir.c_str(), &options), "git_repository_init_ext");
}

test_repo::~test_repo() {
  git_repository_free(m_repo);
  git_libgit2_shutdown();
}

void test_repo::write_file(const std::string& name, const std::string& content) const {
  std::ofstream(m_workdir / name, std::ios::binary) << content;
}

git_oid test_repo::write_tree(const std::map<std::string, std::string>& files) {
  git_index* index = nullptr;
  check(git_repository_index(&index, m_repo), "git_repository_index");
  for (const auto& [name, content] : files) {
    write_file(name, content);
    check(git_index_add_bypath(index, name.c_str()), "git_index_add_bypath");
  }
  git_oid tree;
  check(git_index_write(index), "git_index_write");
  check(git_index_write_tree(&tree, index), "git_index_write_tree");
  git_index_free(index);
  return tree;
}

std::string test_repo::commit_with_parents(const std::map<std::string, std::string>& files,
                                           std::int64_t when,
                                           const std::vector<std::string>& parents) {
  const git_oid tree_id = write_tree(files);
  git_tree* tree = nullptr;
  check(git_tree_lookup(&tree, m_repo, &tree_id), "git_tree_lookup");
  std::vector<git_commit*> parent_commits;
  for (const auto& sha : parents) {
    const git_oid oid = parse_oid(sha);
    git_commit* parent = nullptr;
    check(git_commit_lookup(&parent, m_repo, &oid), "git_commit_lookup");
    parent_commits.push_back(parent);
  }
  git_signature* sig = signature(when);
  git_oid id;
  check(git_commit_create(&id, m_repo, nullptr, sig, sig, nullptr, "work", tree,
                          parent_commits.size(),
                          const_cast<const git_commit**>(parent_commits.data())),
        "git_commit_create");
  git_signature_free(sig);
  for (git_commit* parent : parent_commits)
    git_commit_free(parent);
  git_tree_free(tree);
  return hex(id);
}

std::string test_repo::commit(const std::map<std::string, std::string>& files, std::int64_t when,
                              const std::string& /*message*/) {
  std::vector<std::string> parents;
  git_oid head;
  if (git_reference_name_to_id(&head, m_repo, "HEAD") == 0)
    parents.push_back(hex(head));
  const std::string sha = commit_with_parents(files, when, parents);
  if (git_repository_head_detached(m_repo) == 1)
    detach_head(sha);
  else
    set_branch("main", sha);
  return sha;
}

void test_repo::set_branch(const std::string& name, const std::string& sha) {
  const git_oid oid = parse_oid(sha);
  git_reference* ref = nullptr;
  check(git_reference_create(&ref, m_repo, ("refs/heads/" + name).c_str(), &oid, 1, "test"),
        "git_reference_create");
  git_reference_free(ref);
}

void test_repo::delete_branch(const std::string& name) {
  git_reference* ref = nullptr;
  check(git_reference_lookup(&ref, m_repo, ("refs/heads/" + name).c_str()), "git_reference_lookup");
  check(git_reference_delete(ref), "git_reference_delete");
  git_reference_free(ref);
}

void test_repo::add_submodule(const std::string& path, const std::string& sha,
                              const std::string& url) {
  write_file(".gitmodules",
             "[submodule \"" + path + "\"]\n\tpath = " + path + "\n\turl = " + url + "\n");
  git_index* index = nullptr;
  check(git_repository_index(&index, m_repo), "git_repository_index");
  check(git_index_add_bypath(index, ".gitmodules"), "git_index_add_bypath");
  git_index_entry entry{};
  entry.mode = GIT_FILEMODE_COMMIT;
  entry.path = path.c_str();
  check(git_oid_fromstr(&entry.id, sha.c_str()), "git_oid_fromstr");
  check(git_index_add(index, &entry), "git_index_add");
  check(git_index_write(index), "git_index_write");
  git_index_free(index);
}

void test_repo::add_symlink(const std::string& name, const std::string& target) {
  fs::create_symlink(target, m_workdir / name);
  git_index* index = nullptr;
  check(git_repository_index(&index, m_repo), "git_repository_index");
  check(git_index_add_bypath(index, name.c_str()), "git_index_add_bypath");
  check(git_index_write(index), "git_index_write");
  git_index_free(index);
}

void test_repo::tag(const std::string& name, const std::string& sha) {
  const git_oid oid = parse_oid(sha);
  git_object* target = nullptr;
  check(git_object_lookup(&target, m_repo, &oid, GIT_OBJECT_COMMIT), "git_object_lookup");
  git_signature* sig = signature(0);
  git_oid tag_id;
  check(git_tag_create(&tag_id, m_repo, name.c_str(), target, sig, "release", 1), "git_tag_create");
  git_signature_free(sig);
  git_object_free(target);
}

void test_repo::detach_head(const std::string& sha) {
  const git_oid oid = parse_oid(sha);
  check(git_repository_set_head_detached(m_repo, &oid), "git_repository_set_head_detached");
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "<missing>";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::int64_t epoch(const char* iso_utc) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (std::sscanf(iso_utc, "%d-%d-%dT%d:%d:%dZ", &y, &mo, &d, &h, &mi, &s) != 6)
    std::abort();
  using namespace std::chrono;
  const sys_days date{year{y} / month{unsigned(mo)} / day{unsigned(d)}};
  return (date.time_since_epoch() + hours(h) + minutes(mi) + seconds(s)) / seconds(1);
}

} // namespace cugrade::fetch::testing
