#pragma once
/// \file
/// RAII for libgit2: the library's init/shutdown and one owning pointer type per object kind,
/// so every early return frees what it opened.

#include <git2.h>

#include <memory>
#include <string>

namespace cugrade::fetch::detail {

/// Keeps libgit2 initialised while alive; libgit2 counts nested sessions itself.
class libgit2_session {
public:
  libgit2_session() { git_libgit2_init(); }
  ~libgit2_session() { git_libgit2_shutdown(); }
  libgit2_session(const libgit2_session&) = delete;
  libgit2_session& operator=(const libgit2_session&) = delete;
};

/// A deleter calling libgit2's own free function.
template <class T, void (*free_fn)(T*)> struct git_deleter {
  void operator()(T* object) const noexcept { free_fn(object); }
};

template <class T, void (*free_fn)(T*)> using git_ptr = std::unique_ptr<T, git_deleter<T, free_fn>>;

using repository_ptr = git_ptr<git_repository, git_repository_free>;
using remote_ptr = git_ptr<git_remote, git_remote_free>;
using object_ptr = git_ptr<git_object, git_object_free>;
using commit_ptr = git_ptr<git_commit, git_commit_free>;
using reference_ptr = git_ptr<git_reference, git_reference_free>;
using revwalk_ptr = git_ptr<git_revwalk, git_revwalk_free>;
using status_list_ptr = git_ptr<git_status_list, git_status_list_free>;

/// Frees a git_buf's contents (the struct itself lives on the stack).
class buffer {
public:
  buffer() = default;
  ~buffer() { git_buf_dispose(&m_buf); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  [[nodiscard]] git_buf* get() { return &m_buf; }
  [[nodiscard]] std::string str() const { return m_buf.ptr ? std::string(m_buf.ptr) : ""; }

private:
  git_buf m_buf = GIT_BUF_INIT;
};

/// libgit2's message for the last failure on this thread, or a generic one when it left none.
[[nodiscard]] std::string last_error();

/// The full 40-hex-digit sha of `oid`.
[[nodiscard]] std::string oid_hex(const git_oid& oid);

/// The 7-digit abbreviation used in notes.
[[nodiscard]] std::string short_sha(const git_oid& oid);

} // namespace cugrade::fetch::detail
