#pragma once
/// \file
/// A second seccomp filter the runner puts on itself before it loads a submission: `ptrace` and
/// `process_vm_readv`/`writev` refused. The sandbox's own filter already refuses them for a
/// runner, but in the sanitizer stage the runner shares compute-sanitizer's sandbox, whose
/// filter must allow `ptrace`; a launcher could then attach to compute-sanitizer, its parent,
/// and leave it stopped until the time limit (docs/sandbox.md, `ptrace_parent`). Filters stack:
/// this one only ever refuses more.

#include <string>

namespace cugrade::runner {

/// Installs the filter on the calling process and every thread and child it makes from now on.
/// Empty on success, else why not (the runner then says so and goes on: the sandbox's filter
/// stays the barrier).
[[nodiscard]] std::string refuse_tracing();

} // namespace cugrade::runner
