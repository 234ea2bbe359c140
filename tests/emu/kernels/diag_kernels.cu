// Kernels with bugs the emulator must explain.
#include <cstdio>

#include <cuda_runtime.h>

// __syncthreads() inside `if (t < stride)`: the threads that skip it go on to exit, and a
// barrier waits only for threads that have not exited (PTX), so the sum comes out right.
__global__ void sync_in_if(float* data) {
  __shared__ float partial[256];
  const int t = threadIdx.x;
  partial[t] = data[t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
      __syncthreads(); // LINE:sync_in_if
    }
  }
  if (t == 0) {
    data[0] = partial[0];
  }
}

// Two different barriers for the two halves of the block.
__global__ void two_barriers(int* data) {
  if (threadIdx.x < 16) {
    data[threadIdx.x] = 1;
    __syncthreads(); // LINE:first_barrier
  } else {
    __syncthreads(); // LINE:second_barrier
  }
}

// Writes one element past the end of out (n elements).
__global__ void store_past_end(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) { // should be i < n
    out[i] = 1.0f;
  }
}

__global__ void read_past_end(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[0] = in[i + n]; // every thread reads past the end
}

// Writes a few elements before the start: caught by the canary check.
__global__ void store_before_start(float* out) {
  if (threadIdx.x == 0) {
    out[-2] = 5.0f;
  }
}

__global__ void store_through(float* p) {
  p[threadIdx.x] = 1.0f;
}

// Missing barrier between the write and the read of the neighbour's slot: the result depends on
// the order in which threads run.
__global__ void missing_barrier(int* out) {
  __shared__ int slots[128];
  const int t = threadIdx.x;
  slots[t] = t + 1;
  // __syncthreads() missing here
  out[t] = slots[(t + 1) % blockDim.x];
}

__global__ void spin_forever(int* flag) {
  while (*(volatile int*)flag == 0) {
  }
}

// Each level keeps 2 KiB on the stack: 200 levels need more than a thread's 128 KiB.
__device__ int deep(int n) {
  volatile char pad[2048];
  pad[n % 2048] = static_cast<char>(n);
  return n == 0 ? 0 : deep(n - 1) + pad[n % 2048];
}
__global__ void recurse(int* out, int n) {
  out[threadIdx.x] = deep(n);
}

// Thread 0 waits for a flag thread 31 sets: fine with __nanosleep, which lets the others run.
__global__ void wait_politely(int* out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0) {
    flag = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0) {
      __nanosleep(100);
    }
    out[0] = flag;
  } else if (threadIdx.x == 31) {
    flag = 42;
  }
}

__global__ void say_hello(int n) {
  printf("hello from thread %d of %d\n", (int)threadIdx.x, n);
}

extern "C" void run_sync_in_if(float* data) {
  sync_in_if<<<1, 256>>>(data);
}
extern "C" void run_two_barriers(int* data) {
  two_barriers<<<1, 32>>>(data);
}
extern "C" void run_store_past_end(float* out, int n) {
  store_past_end<<<(n + 63) / 64, 64>>>(out, n);
}
extern "C" void run_read_past_end(const float* in, float* out, int n) {
  read_past_end<<<1, 32>>>(in, out, n);
}
extern "C" void run_store_before_start(float* out) {
  store_before_start<<<1, 32>>>(out);
}
extern "C" void run_store_through(float* p) {
  store_through<<<1, 4>>>(p);
}
extern "C" void run_missing_barrier(int* out) {
  missing_barrier<<<1, 128>>>(out);
}
extern "C" void run_spin(int* flag) {
  spin_forever<<<4, 32>>>(flag);
}
extern "C" void run_recurse(int* out, int n) {
  recurse<<<1, 2>>>(out, n);
}
extern "C" void run_wait_politely(int* out) {
  wait_politely<<<1, 32>>>(out);
}
extern "C" void run_hello(int n) {
  say_hello<<<1, n>>>(n);
}
