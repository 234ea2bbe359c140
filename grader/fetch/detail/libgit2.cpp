#include "grader/fetch/detail/libgit2.h"

namespace cugrade::fetch::detail {

std::string last_error() {
  const git_error* error = git_error_last();
  if (error == nullptr || error->message == nullptr)
    return "libgit2 reported an error without a message";
  return error->message;
}

std::string oid_hex(const git_oid& oid) {
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &oid);
  return hex;
}

std::string short_sha(const git_oid& oid) {
  return oid_hex(oid).substr(0, 7);
}

} // namespace cugrade::fetch::detail
