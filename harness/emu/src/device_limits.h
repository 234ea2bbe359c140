#pragma once
/// \file
/// The emulated device: a fixed compute-capability-9.0 GPU with the limits of the H100 and H200
/// that grade on the GPU (CUDA C++ Programming Guide, "Compute Capabilities"; 132 SMs as an H100
/// SXM or H200 reports), named "cugrade CPU emulator". A kernel that sizes its grid from the SM
/// count therefore launches the same grid in emulation as on the grading GPU, so the emulator's
/// counts match the GPU's (docs/insight.md). One place for every number that launch validation,
/// cudaDeviceProp and cudaDeviceGetAttribute report, so they always agree.

#include <cstddef>

#include "cugrade_emu/api.h"

namespace cugrade::emu::detail::limits {

inline constexpr const char* device_name = "cugrade CPU emulator";
inline constexpr int major = 9;
inline constexpr int minor = 0;
inline constexpr int warp_size = 32;
inline constexpr unsigned max_threads_per_block = 1024;
inline constexpr unsigned max_block_dim[3] = {1024, 1024, 64};
inline constexpr unsigned max_grid_dim[3] = {2147483647u, 65535u, 65535u};
inline constexpr std::size_t shared_per_block = 48 * 1024;
/// Opt-in maximum via cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize), as on
/// compute capability 9.0 (227 KiB).
inline constexpr std::size_t shared_per_block_optin = 232448;
inline constexpr std::size_t shared_per_multiprocessor = 233472;
inline constexpr std::size_t reserved_shared_per_block = 1024;
/// cudaMallocPitch's row alignment in bytes.
inline constexpr std::size_t pitch_alignment = 512;
inline constexpr int regs_per_block = 65536;
inline constexpr int regs_per_multiprocessor = 65536;
/// Registers per thread assumed by the occupancy calculator.
inline constexpr int regs_per_thread = 32;
inline constexpr int multiprocessor_count = 132;
inline constexpr int max_threads_per_multiprocessor = 2048;
inline constexpr int max_blocks_per_multiprocessor = 32;
inline constexpr int l2_cache_size = 50 * 1024 * 1024;
inline constexpr std::size_t total_global_mem = std::size_t{16} << 30;
inline constexpr std::size_t total_const_mem = 64 * 1024;
inline constexpr int memory_bus_width = 5120;
inline constexpr int runtime_version = 13000;

/// The error a launch with an invalid configuration (too many threads, a zero or oversized
/// dimension, too much shared memory) leaves for cudaGetLastError. CUDA 13.0 returns
/// cudaErrorInvalidValue for all of these (measured on an H200, driver 580); CUDA 12 and older
/// returned cudaErrorInvalidConfiguration for bad dimensions.
inline constexpr cudaError_t launch_config_error = cudaErrorInvalidValue;

} // namespace cugrade::emu::detail::limits
