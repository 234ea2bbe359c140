// cugrade-roofline: measures one device's roofline once, for the grader to cache (docs/timing.md):
// device-to-device copy bandwidth, the datasheet bandwidth and fp32 peak, and a vendor library's
// time on each benchmark case named (cuBLAS SGEMM for matmul, CUB DeviceHistogram::HistogramEven
// for histogram, CUB DeviceReduce::Sum for reduction). Runs no student code; prints JSON.
//
//   cugrade-roofline [--case problem/shape/distribution]...

#include "harness/backends/cuda_check.h"
#include "harness/roofline/library_timing.cuh"
#include "harness/roofline/roofline.h"

#include <cstring>
#include <iostream>
#include <vector>

namespace {

using cugrade::roofline::device_roofline;

constexpr int exit_usage = 2;
constexpr int exit_infrastructure = 3;

device_roofline identify() {
  cudaDeviceProp props{};
  CUGRADE_CUDA_CHECK(cudaGetDeviceProperties(&props, 0));
  const auto attribute = [](cudaDeviceAttr a) {
    int v = 0;
    CUGRADE_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, 0));
    return v;
  };
  device_roofline r;
  r.device = props.name;
  r.sm_count = attribute(cudaDevAttrMultiProcessorCount);
  r.sm_clock_mhz = attribute(cudaDevAttrClockRate) / 1000.0;
  r.memory_clock_mhz = attribute(cudaDevAttrMemoryClockRate) / 1000.0;
  r.bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  r.l2_bytes = attribute(cudaDevAttrL2CacheSize);
  // Double data rate: two transfers per memory clock over the whole bus.
  r.datasheet_bandwidth_gbps = 2.0 * r.memory_clock_mhz * 1e6 * r.bus_width_bits / 8.0 / 1e9;
  // One fused multiply-add (two flops) per fp32 lane per clock.
  r.fp32_peak_gflops = r.sm_count * r.sm_clock_mhz * 1e6 *
                       cugrade::roofline::fp32_lanes_per_sm(props.major, props.minor) * 2.0 / 1e9;
  return r;
}

int run(const std::vector<std::string>& keys) {
  device_roofline r = identify();
  cugrade::roofline::library_timer timer(static_cast<std::size_t>(r.l2_bytes));
  r.copy_bandwidth_gbps = timer.copy_bandwidth_gbps();
  for (const auto& key : keys) {
    const auto parsed = cugrade::roofline::parse_case_key(key);
    if (!parsed) {
      std::cerr << "cugrade-roofline: " << parsed.error() << "\n";
      return exit_usage;
    }
    r.libraries.push_back(timer.library_time(parsed->first, parsed->second));
    r.libraries.back().key = key;
  }
  std::cout << cugrade::roofline::to_json_text(r) << "\n";
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> keys;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
      keys.emplace_back(argv[++i]);
    } else {
      std::cerr << "usage: " << argv[0] << " [--case problem/shape/distribution]...\n";
      return exit_usage;
    }
  }
  try {
    return run(keys);
  } catch (const std::exception& e) {
    std::cerr << "cugrade-roofline: " << e.what() << "\n";
    return exit_infrastructure;
  }
}
