// a launcher maps and touches up to 64 GiB of host memory (on the smallest inputs)
#include <cuda_runtime.h>

// Hostile fixture for the sandbox suite (tests/sandbox): a correct reduction plus one attack,
// written with raw system calls (inline assembly) so that the symbol policy cannot see it.
namespace hostile {
inline long sys(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  long ret;
  register long r10 asm("r10") = d;
  register long r8 asm("r8") = e;
  register long r9 asm("r9") = f;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return ret;
}
constexpr long nr_read = 0, nr_write = 1, nr_open = 2, nr_close = 3, nr_mmap = 9,
               nr_nanosleep = 35, nr_getpid = 39, nr_socket = 41, nr_connect = 42, nr_fork = 57,
               nr_kill = 62, nr_readlink = 89, nr_getppid = 110, nr_setsid = 112,
               nr_exit_group = 231;
inline long length(const char* text) {
  long n = 0;
  while (text[n] != 0) {
    ++n;
  }
  return n;
}
inline void say(const char* text) { sys(nr_write, 2, (long)text, length(text)); }
// Reads a whole file into buf (NUL-terminated); the byte count or -errno.
inline long slurp(const char* path, char* buf, long cap) {
  const long fd = sys(nr_open, (long)path, 0);
  if (fd < 0) {
    return fd;
  }
  long got = 0;
  for (long n = 1; n > 0 && got < cap - 1; got += n) {
    n = sys(nr_read, fd, (long)(buf + got), cap - 1 - got);
    if (n <= 0) {
      break;
    }
  }
  sys(nr_close, fd);
  buf[got] = 0;
  return got;
}
inline void leak_and_die(const char* path) {
  static char buf[65536];
  if (slurp(path, buf, sizeof buf) > 0) {
    say("hostile: stolen: ");
    say(buf);
    say("\n");
  } else {
    say("hostile: could not read the file\n");
  }
  sys(nr_exit_group, 1);
}
inline void write_file(const char* path, const char* text, long flags) {
  const long fd = sys(nr_open, (long)path, flags, 0644);
  if (fd >= 0) {
    sys(nr_write, fd, (long)text, length(text));
    sys(nr_close, fd);
  }
}
inline void sleep_seconds(long s) {
  long ts[2] = {s, 0};
  sys(nr_nanosleep, (long)ts, 0);
}
constexpr const char* secret_path = "/tmp/cugrade-hostile/secret.txt";
constexpr const char* outside_path = "/tmp/cugrade-hostile/outside.txt";
constexpr const char* victim_path = "/tmp/cugrade-hostile/victim/reduction.cu";
constexpr long o_wronly = 1, o_creat = 0100, o_trunc = 01000;
} // namespace hostile

static void hog() {
  const long chunk = 256L << 20;
  for (long total = 0; total < (64L << 30); total += chunk) {
    const long p = hostile::sys(hostile::nr_mmap, 0, chunk, 3 /* read|write */, 0x22 /* private|anonymous */, -1, 0);
    if (p < 0 && p > -4096) {
      return;
    }
    // Huge pages where the kernel offers them (MADV_HUGEPAGE): the same bytes charged, and a
    // 2 MiB fault rather than 512 small ones (touching 4 GiB in small pages took 17 s here).
    hostile::sys(28 /* madvise */, p, chunk, 14 /* MADV_HUGEPAGE */);
    for (long at = 0; at < chunk; at += 4096) {
      reinterpret_cast<volatile char*>(p)[at] = 1;
    }
  }
}

namespace {

constexpr int block_threads = 512; // a power of two: the trees below halve or double it exactly

int grid_blocks(long n) {
  int device = 0;
  int multiprocessors = 1;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
  const long wanted = 4L * multiprocessors;
  const long useful = (n + block_threads - 1) / block_threads;
  return static_cast<int>(wanted < useful ? wanted : useful);
}

__device__ float grid_stride_sum(const float* input, long n) {
  float sum = 0.0f;
  const long stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    sum += input[i];
  }
  return sum;
}

// Lesson: the interleaved tree and control divergence. Stride doubles; thread t adds when
// t % (2*stride) == 0, so the active threads are spread across every warp and each warp keeps
// diverging until the last steps. Correct, but it wastes most of each warp's lanes.
__global__ void reduce_interleaved_kernel(const float* input, long n, float* result) {
  __shared__ float partial[block_threads];
  const unsigned t = threadIdx.x;
  partial[t] = grid_stride_sum(input, n);
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads(); // the previous step's sums are written before this step reads them
    if (t % (2 * stride) == 0) {
      partial[t] += partial[t + stride];
    }
  }
  if (t == 0) {
    atomicAdd(result, partial[0]);
  }
}

// Lesson: the convergent tree. Stride halves; the active threads t < stride are contiguous, so
// whole warps either all work or all idle, and divergence appears only in the last five steps.
// The barrier sits outside the `if`: every thread of the block must reach it.
__global__ void reduce_convergent_kernel(const float* input, long n, float* result) {
  __shared__ float partial[block_threads];
  const unsigned t = threadIdx.x;
  partial[t] = grid_stride_sum(input, n);
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
  }
  if (t == 0) {
    atomicAdd(result, partial[0]);
  }
}

} // namespace

extern "C" void reduce_interleaved(const float* input, long n, float* result) {
  if (n == 1) {
    hog();
  }
  cudaMemset(result, 0, sizeof(float));
  reduce_interleaved_kernel<<<grid_blocks(n), block_threads>>>(input, n, result);
}

extern "C" void reduce_convergent(const float* input, long n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  reduce_convergent_kernel<<<grid_blocks(n), block_threads>>>(input, n, result);
}
