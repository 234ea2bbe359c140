#pragma once
/// \file
/// The timing protocol for one benchmark case (docs/timing.md): warm-up, cold samples (L2
/// flushed, rotated input sets, poisoned outputs), CUDA events cross-checked by a synchronised
/// host clock, adaptive stopping, throttled samples dropped, every output fingerprinted, the
/// first and last output of each input set kept for verification, inputs checked afterwards, and
/// a last call on fresh contents at the same addresses.

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <cstddef>
#include <vector>

namespace cugrade::runner {

/// Host memory the saved outputs are read back into, one for a runner's every case. A fresh vector
/// per output zero-fills it before the read-back overwrites it; where glibc maps blocks of 32 MiB
/// or more afresh (its default; the runner program turns that off, harness/runner/main.cpp), it
/// also costs a mapping, the kernel's zeroing of its pages and an unmap, and a 4096x2048 matmul
/// output is 32 MiB. Nothing read from it outlives one saved output.
using read_back_buffer = std::vector<std::byte>;

/// Times case `index` of a timing plan; returns false when the device is unusable afterwards.
bool time_case(const problems::problem& problem, const protocol::plan& plan, std::size_t index,
               void* launcher, backends::backend& b, protocol::event_writer& events,
               read_back_buffer& read_back);

} // namespace cugrade::runner
