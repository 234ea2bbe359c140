#pragma once
/// \file
/// The seccomp filter of a confined run, built with libseccomp and handed to `bwrap --seccomp`
/// as a descriptor holding the BPF program.

#include "grader/sandbox/sandbox.h"
#include "harness/core/result.h"

namespace cugrade::sandbox::detail {

/// A memfd holding the BPF program for `kind`, positioned at its start, not close-on-exec (the
/// caller passes it to bwrap and closes it after the run).
[[nodiscard]] result<int> seccomp_program(role kind);

/// Whether a role may create processes (compilers and wrappers) or only threads (runners, nm).
[[nodiscard]] bool may_fork(role kind) noexcept;

} // namespace cugrade::sandbox::detail
