// The CUDA headers students include by name, as Visual Studio's CUDA template and IntelliSense
// lead them to: each builds with nvcc, and so in emulation.
#include "cuda_runtime.h"
#include "device_launch_parameters.h"
#include "device_functions.h"
#include "device_atomic_functions.h"
#include "sm_20_atomic_functions.h"
#include "sm_60_atomic_functions.h"
#include "sm_30_intrinsics.h"
#include <builtin_types.h>
#include <cuda_profiler_api.h>
#include <driver_types.h>
#include <math_constants.h>
#include <vector_functions.h>
#include <stdio.h>

__global__ void fill(float* P, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float2 half_turn = make_float2(CUDART_PI_F, CUDART_PIO2_F);
    P[i] = (half_turn.x - half_turn.y * 2.0f) * (float)CUDART_LN2;
  }
}

extern "C" void matmul_naive(const float*, const float*, float* P, int j, int, int l) {
  fill<<<(j * l + 255) / 256, 256>>>(P, j * l);
}
