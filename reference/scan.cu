// Reference solution for the `scan` assignment: output[i] = input[0] + ... + input[i] (an
// inclusive prefix sum) of n floats, in the course's two classic block scans.
//
// A block scans one section of the input in shared memory and, when there is more than one
// section, writes the section's total to a scratch array. The launcher then scans those totals
// with the same kernel (recursively: a third level when they do not fit one block, and so on) and
// adds to every section the total of all sections before it. So any n works, 1 and primes and
// hundreds of millions alike, with the same block scan at every level.
//
// Scratch for the section totals is allocated on the first call that needs more than the last
// and kept: freeing it in the launcher would wait for the device inside the call.

#include <cuda_runtime.h>

namespace {

constexpr int kogge_stone_threads = 1024; // one element per thread
constexpr int brent_kung_threads = 512;   // two elements per thread
constexpr int brent_kung_section = 2 * brent_kung_threads;

// Lesson: Kogge-Stone is step-efficient, not work-efficient. After the step with stride s,
// xy[t] holds the sum of the 2s elements ending at t (fewer near the start), so log2(blockDim)
// steps finish the section; but every step adds in almost every thread, n log n additions in all.
// Within a step a thread reads xy[t - stride] while another thread may be writing it: every thread
// reads its partner into a register, the block waits (__syncthreads), and only then do threads
// write. Without that barrier between the read and the write phase a thread can add a value its
// partner already updated in this step, and the result depends on the schedule.
__global__ void kogge_stone_section_scan(const float* input, long n, float* output,
                                         float* section_sums) {
  __shared__ float xy[kogge_stone_threads];
  const unsigned t = threadIdx.x;
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + t;
  xy[t] = i < n ? input[i] : 0.0f; // past the end counts as 0 and is never stored
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads(); // the previous step's writes are visible to this step's reads
    const float partner = t >= stride ? xy[t - stride] : 0.0f;
    __syncthreads(); // every read of this step happens before any write of it
    xy[t] += partner;
  }
  if (i < n) {
    output[i] = xy[t];
  }
  if (section_sums != nullptr && t == blockDim.x - 1) {
    section_sums[blockIdx.x] = xy[t];
  }
}

// Lesson: Brent-Kung is work-efficient. An up-sweep builds a reduction tree in place (after it,
// xy[k] for k = 2^j m - 1 holds the sum of its 2^j elements) and a down-sweep pushes the partial
// sums back down to the positions the tree skipped: about 2 n additions instead of n log n, at
// the price of 2 log2(section) steps with fewer active threads in each. Each thread handles two
// elements, so 512 threads scan a section of 1024. The active threads are the first ones
// (k = (t + 1) * 2 * stride - 1), so whole warps drop out together; the barrier stays outside
// the `if` so every thread reaches it.
__global__ void brent_kung_section_scan(const float* input, long n, float* output,
                                        float* section_sums) {
  __shared__ float xy[brent_kung_section];
  const unsigned t = threadIdx.x;
  const long base = static_cast<long>(blockIdx.x) * brent_kung_section;
  for (unsigned k = t; k < brent_kung_section; k += blockDim.x) {
    xy[k] = base + k < n ? input[base + k] : 0.0f;
  }
  for (unsigned stride = 1; stride < brent_kung_section; stride *= 2) { // up-sweep
    __syncthreads();
    const unsigned k = (t + 1) * 2 * stride - 1;
    if (k < brent_kung_section) {
      xy[k] += xy[k - stride];
    }
  }
  for (unsigned stride = brent_kung_section / 4; stride > 0; stride /= 2) { // down-sweep
    __syncthreads();
    const unsigned k = (t + 1) * 2 * stride - 1;
    if (k + stride < brent_kung_section) {
      xy[k + stride] += xy[k];
    }
  }
  __syncthreads();
  for (unsigned k = t; k < brent_kung_section; k += blockDim.x) {
    if (base + k < n) {
      output[base + k] = xy[k];
    }
  }
  if (section_sums != nullptr && t == 0) {
    section_sums[blockIdx.x] = xy[brent_kung_section - 1];
  }
}

// The hierarchical pass: section b > 0 gets the scanned total of sections 0 .. b - 1.
__global__ void add_earlier_sections(float* output, long n, const float* scanned_sums,
                                     long section) {
  const long base = (static_cast<long>(blockIdx.x) + 1) * section;
  const float carry = scanned_sums[blockIdx.x];
  for (long k = threadIdx.x; k < section && base + k < n; k += blockDim.x) {
    output[base + k] += carry;
  }
}

// Which block scan, and how many elements a block scans.
struct block_scan {
  bool brent_kung;
  int threads;
  long section;
};

void scan_sections(const block_scan& s, long blocks, const float* input, long n, float* output,
                   float* section_sums) {
  const auto grid = static_cast<unsigned>(blocks);
  if (s.brent_kung) {
    brent_kung_section_scan<<<grid, s.threads>>>(input, n, output, section_sums);
  } else {
    kogge_stone_section_scan<<<grid, s.threads>>>(input, n, output, section_sums);
  }
}

long sections(long n, long section) {
  return (n + section - 1) / section;
}

// Scratch floats for the section sums of every level.
long scratch_needed(long n, long section) {
  long total = 0;
  for (long m = sections(n, section); m > 1; m = sections(m, section)) {
    total += m;
  }
  return total;
}

float* scratch(long count) {
  static float* buffer = nullptr;
  static long capacity = 0;
  if (count > capacity) {
    cudaFree(buffer);
    cudaMalloc(&buffer, static_cast<size_t>(count) * sizeof(float));
    capacity = count;
  }
  return buffer;
}

// Scans input[0..n) into output (which may be input: each block reads its section before it
// writes it), using `spare` for the section sums of this level and the ones below.
void scan_levels(const block_scan& s, const float* input, long n, float* output, float* spare) {
  const long m = sections(n, s.section);
  if (m == 1) {
    scan_sections(s, 1, input, n, output, nullptr);
    return;
  }
  float* sums = spare;
  scan_sections(s, m, input, n, output, sums);
  scan_levels(s, sums, m, sums, spare + m);
  add_earlier_sections<<<static_cast<unsigned>(m - 1), s.threads>>>(output, n, sums, s.section);
}

void scan(const block_scan& s, const float* input, long n, float* output) {
  scan_levels(s, input, n, output, scratch(scratch_needed(n, s.section)));
}

} // namespace

extern "C" void scan_kogge_stone(const float* input, long n, float* output) {
  scan({false, kogge_stone_threads, kogge_stone_threads}, input, n, output);
}

extern "C" void scan_brent_kung(const float* input, long n, float* output) {
  scan({true, brent_kung_threads, brent_kung_section}, input, n, output);
}
