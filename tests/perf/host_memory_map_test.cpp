// The host memory a GPU runner reports with a faulting call: the readable ranges of its maps
// listing, without the GPU driver's device files or address space reserved without access.

#include "harness/backends/host_memory_map.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>

namespace cugrade::backends {
namespace {

using protocol::address_range;

// Lines in the shape of a CUDA runner's /proc/self/maps (proc(5)), a library's segments next to
// one another, the driver's reservations for device memory (---p) and its device files.
constexpr const char* listing =
    "55d0c0a00000-55d0c0a10000 r--p 00000000 08:01 1234   /opt/cugrade/bin/cugrade-runner-gpu\n"
    "55d0c0a10000-55d0c0a20000 r-xp 00010000 08:01 1234   /opt/cugrade/bin/cugrade-runner-gpu\n"
    "55d0c1e00000-55d0c1e21000 rw-p 00000000 00:00 0      [heap]\n"
    "7f1200000000-7f1400000000 ---p 00000000 00:00 0\n"
    "7f1400000000-7f1400200000 rw-s 00000000 00:05 77     /dev/nvidia-uvm\n"
    "7f1400200000-7f1400400000 rw-s 00000000 00:05 78     /dev/nvidiactl\n"
    "7f15a0000000-7f15a0021000 rw-p 00000000 00:00 0\n"
    "not a maps line\n"
    "7ffc5e1e0000-7ffc5e201000 rw-p 00000000 00:00 0      [stack]\n";

TEST(HostMemoryMap, KeepsReadableRangesMergedAndLeavesTheDriversOut) {
  std::istringstream in(listing);
  EXPECT_EQ(readable_ranges(in), (std::vector<address_range>{{0x55d0c0a00000u, 0x55d0c0a20000u},
                                                             {0x55d0c1e00000u, 0x55d0c1e21000u},
                                                             {0x7f15a0000000u, 0x7f15a0021000u},
                                                             {0x7ffc5e1e0000u, 0x7ffc5e201000u}}));
}

// This process's own listing holds its stack, its heap and its static data.
TEST(HostMemoryMap, ThisProcessesStackHeapAndStaticsAreHostMemory) {
  static int a_static = 0;
  int on_the_stack = 0;
  const auto on_the_heap = std::make_unique<int>(0);
  const auto ranges = readable_host_memory();
  const auto inside = [&](const void* p) {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    for (const auto& r : ranges) {
      if (r.contains(address)) {
        return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(inside(&a_static));
  EXPECT_TRUE(inside(&on_the_stack));
  EXPECT_TRUE(inside(on_the_heap.get()));
  EXPECT_FALSE(inside(nullptr));
}

} // namespace
} // namespace cugrade::backends
