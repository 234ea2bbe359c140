#pragma once
/// \file
/// The host memory a process can read (its stacks, heap, static variables, malloc'ed and mapped
/// buffers), from /proc/self/maps. A GPU's kernel handed a pointer into it faults, and memcheck
/// names only the address; the GPU backend reports these ranges with a faulting call
/// (backend::host_memory), so the grader can say the kernel was handed host memory rather than
/// that it missed a device buffer.

#include "harness/protocol/protocol.h"

#include <istream>
#include <vector>

namespace cugrade::backends {

/// The readable ranges of a maps listing (proc(5): "begin-end perms offset dev inode path"),
/// adjacent ones merged, in address order. Left out: ranges without read permission (address
/// space the CUDA driver reserves for device memory is mapped that way) and the driver's device
/// files (/dev/nvidia*), which hold memory a kernel may reach. A line it cannot read is skipped.
[[nodiscard]] std::vector<protocol::address_range> readable_ranges(std::istream& maps);

/// This process's readable ranges (/proc/self/maps); empty when the file cannot be read.
[[nodiscard]] std::vector<protocol::address_range> readable_host_memory();

} // namespace cugrade::backends
