// Cooperative groups as course material writes them: the block as a group, tiles of a warp
// (static and sized at run time), and cg::reduce.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Sum over any group through shared memory, two syncs a step (the CUDA training series' form).
__device__ int group_sum(cg::thread_group g, int* temp, int val) {
  const int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    temp[lane] = val;
    g.sync();
    if (lane < i) {
      val += temp[lane + i];
    }
    g.sync();
  }
  return val;
}

// Per thread: block rank, block size, group_index.x, thread_index.y, and the block's sum of the
// ranks through group_sum (thread 0 only).
__global__ void block_facts(int* out, int* sum) {
  __shared__ int temp[256];
  cg::thread_block block = cg::this_thread_block();
  const unsigned r = block.thread_rank();
  int* row = out + (blockIdx.x * block.size() + r) * 4;
  row[0] = static_cast<int>(r);
  row[1] = static_cast<int>(block.size());
  row[2] = static_cast<int>(block.group_index().x);
  row[3] = static_cast<int>(block.thread_index().y);
  const int s = group_sum(block, temp, static_cast<int>(r));
  if (r == 0) {
    sum[blockIdx.x] = s;
  }
}

// Per thread, for tiles of 32, 16 and 4: rank, meta group rank, the tile's sum by shfl_down, the
// ballot of odd ranks, any(rank == 1), all(rank < Size), and cg::reduce's min and max.
template <unsigned Size> __device__ void tile_facts(cg::thread_block block, int* row) {
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const int r = static_cast<int>(tile.thread_rank());
  int v = r;
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
    v += tile.shfl_down(v, offset);
  }
  row[0] = r;
  row[1] = static_cast<int>(tile.meta_group_rank());
  row[2] = tile.shfl(v, 0); // the tile's sum, from its rank 0
  row[3] = static_cast<int>(tile.ballot(r % 2 == 1));
  row[4] = tile.any(r == 1);
  row[5] = tile.all(r < static_cast<int>(Size));
  row[6] = cg::reduce(tile, 100 + r, cg::less<int>());
  row[7] = cg::reduce(tile, 100 + r, cg::greater<int>());
  tile.sync();
}

__global__ void tiles(int* out) {
  cg::thread_block block = cg::this_thread_block();
  int* row = out + block.thread_rank() * 24;
  tile_facts<32>(block, row);
  tile_facts<16>(block, row + 8);
  tile_facts<4>(block, row + 16);
}

// A tile sized at run time, as a thread_group: its rank, its size and its sum through group_sum.
__global__ void dynamic_tiles(int* out, unsigned tile_size) {
  __shared__ int temp[128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, tile_size);
  const unsigned base = block.thread_rank() / tile_size * tile_size;
  const int s = group_sum(tile, temp + base, 1);
  int* row = out + block.thread_rank() * 3;
  row[0] = static_cast<int>(tile.thread_rank());
  row[1] = static_cast<int>(tile.size());
  row[2] = s;
}

// Half a tile syncs; the other half waits at the block's barrier instead.
__global__ void divergent_tile_sync(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  if (tile.thread_rank() < 16) {
    tile.sync(); // LINE:divergent_tile_sync
  }
  block.sync();
  out[block.thread_rank()] = 1;
}

extern "C" void run_block_facts(int* out, int* sum, int blocks) {
  block_facts<<<blocks, dim3(16, 8)>>>(out, sum);
}
extern "C" void run_tiles(int* out, int threads) {
  tiles<<<1, threads>>>(out);
}
extern "C" void run_dynamic_tiles(int* out, unsigned tile_size) {
  dynamic_tiles<<<1, 128>>>(out, tile_size);
}
extern "C" void run_divergent_tile_sync(int* out) {
  divergent_tile_sync<<<1, 32>>>(out);
}
