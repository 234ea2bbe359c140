#pragma once
/// \file
/// Stands in for CUDA's <cuda_profiler_api.h>. Including it is harmless on both backends; calling
/// cudaProfilerStart or cudaProfilerStop references them, and the symbol policy makes that
/// `forbidden` ("device management belongs to the grader") under nvcc and here alike, before
/// anything is linked (the emulator has no definitions).
#include "cugrade_emu/api.h"

#pragma GCC visibility push(default)
extern "C" {
cudaError_t cudaProfilerStart();
cudaError_t cudaProfilerStop();
}
#pragma GCC visibility pop
