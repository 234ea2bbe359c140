#pragma once
/// \file
/// The emulator's prelude, force-included (`-include cugrade_emu.h`) before a rewritten CUDA
/// source is compiled as C++20 by g++. It supplies what nvcc would: the execution-space keywords,
/// threadIdx & co., barriers, warp primitives, atomics, device math, the runtime API, and the
/// targets of the rewriter's launch and shared-memory translations.

#define CUGRADE_EMU 1

// Variable-length arrays: host code may have them (nvcc's host compiler accepts them), device
// code may not, and the rewriter makes each such declaration in device code an error of its own
// (-Wvla as an error around it); everywhere else the warning stays off.
#pragma GCC diagnostic ignored "-Wvla"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cugrade_emu/api.h"
#include "cugrade_emu/atomics.h"
#include "cugrade_emu/context.h"
#include "cugrade_emu/device.h"
#include "cugrade_emu/device_cmath.h"
#include "cugrade_emu/device_math.h"
#include "cugrade_emu/launch.h"
#include "cugrade_emu/regions.h"
#include "cugrade_emu/shared.h"
#include "cugrade_emu/shared_access.h"
#include "cugrade_emu/types.h"

// Execution spaces mean nothing on the CPU: every function is callable from everywhere.
// (__noinline__ is rewritten in the student's text instead of defined here, because libstdc++
// itself spells __attribute__((__noinline__)).)
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __cudart_builtin__
