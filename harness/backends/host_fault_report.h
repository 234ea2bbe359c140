#pragma once
/// \file
/// The GPU runner's report of a fault in host code: a launcher that dereferences a device
/// pointer (or a wild one) kills the runner with SIGSEGV. Before it dies, a handler writes one
/// fault event (the protocol's `fault`, error_kind `crash`) with the access, the address and the
/// program counter's offset in its object, from which the grader names the student's line, as it
/// does for the emulator's faults. The process then dies by the same signal, as it would without
/// the handler.

namespace cugrade::backends {

/// Installs the SIGSEGV and SIGBUS handlers, reporting to `fd` (the runner's event log), on an
/// alternate stack for the calling thread (a host stack overflow is reported too).
void report_host_faults_to(int fd);

} // namespace cugrade::backends
