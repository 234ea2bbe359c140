#include "grader/fetch/detail/checkout.h"

#include "grader/fetch/detail/libgit2.h"

#include <system_error>

namespace cugrade::fetch::detail {
namespace fs = std::filesystem;

result<fs::path> check_out(git_repository* repo, const git_commit* commit,
                           const fs::path& worktrees, const std::string& source) {
  const fs::path directory = worktrees / oid_hex(*git_commit_id(commit));
  std::error_code ec;
  fs::remove_all(directory, ec);
  if (ec || !fs::create_directories(directory, ec))
    return fail(directory.string() + ": cannot prepare the checkout directory (" + ec.message() +
                "); give a writable cache directory");
  // The mirror is bare, so the files go to target_directory and the mirror keeps no index;
  // libgit2's checkout also refuses tree entries that would escape the directory (".git", "..").
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  options.checkout_strategy =
      GIT_CHECKOUT_FORCE | GIT_CHECKOUT_RECREATE_MISSING | GIT_CHECKOUT_DONT_UPDATE_INDEX;
  const std::string target = directory.string();
  options.target_directory = target.c_str();
  const auto* object = reinterpret_cast<const git_object*>(commit);
  if (git_checkout_tree(repo, object, &options) != 0) {
    const std::string reason = last_error();
    fs::remove_all(directory, ec);
    return fail(source + ": cannot check out commit " + short_sha(*git_commit_id(commit)) + " (" +
                reason + "); remove the cache entry and grade again");
  }
  return directory;
}

} // namespace cugrade::fetch::detail
