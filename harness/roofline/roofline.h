#pragma once
/// \file
/// The roofline of one device (docs/timing.md, "Roofline"): measured copy bandwidth, the
/// datasheet bandwidth and fp32 peak, and a vendor library's time on each benchmark case (cuBLAS
/// SGEMM for matmul, CUB for histogram and reduction). `cugrade-roofline` measures it and prints
/// it as JSON; the grader caches it per device. Host-only; no CUDA here.

#include "harness/core/result.h"
#include "harness/problems/problem.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::roofline {

inline constexpr std::string_view schema_id = "cugrade.roofline/1";

/// A vendor library's median time on one benchmark case.
struct library_figure {
  std::string key;     ///< see case_key()
  std::string library; ///< e.g. "cuBLAS SGEMM"
  double median_ms = 0;
  int samples = 0;
  bool operator==(const library_figure&) const = default;
};

struct device_roofline {
  std::string device;
  int sm_count = 0;
  double sm_clock_mhz = 0;     ///< the device's maximum (boost) clock
  double memory_clock_mhz = 0; ///< the memory's peak clock
  int bus_width_bits = 0;
  double l2_bytes = 0;
  double copy_bandwidth_gbps = 0;      ///< measured: a device-to-device copy, read + write
  double datasheet_bandwidth_gbps = 0; ///< 2 x memory clock x bus width
  double fp32_peak_gflops = 0;         ///< SMs x clock x fp32 lanes per SM x 2
  std::vector<library_figure> libraries;

  /// The figure for `key`, or nullptr.
  [[nodiscard]] const library_figure* find(std::string_view key) const;
  /// The largest bandwidth any kernel could reach: the datasheet's, or the measured copy's if a
  /// device reports none (or reports less than was measured).
  [[nodiscard]] double peak_bandwidth_gbps() const;
  bool operator==(const device_roofline&) const = default;
};

/// "matmul/2048x2048x2048/real", "histogram/n=268435456/uniform".
[[nodiscard]] std::string case_key(problems::kind problem, const problems::case_template& c);
/// The inverse of case_key, for the measuring program's arguments.
[[nodiscard]] result<std::pair<problems::kind, problems::case_template>>
parse_case_key(std::string_view key);

/// fp32 lanes per SM for a compute capability: 64 on sm_70 and sm_80, 128 from sm_86 on.
[[nodiscard]] int fp32_lanes_per_sm(int major, int minor);

[[nodiscard]] std::string to_json_text(const device_roofline& r);
/// Reads what to_json_text wrote; the message says what is wrong.
[[nodiscard]] result<device_roofline> from_json_text(std::string_view text);

/// Merges `fresh` figures into `into` (a figure for the same key is replaced).
void merge(device_roofline& into, const device_roofline& fresh);

/// A device name as a file name: letters, digits, '-' and '.' kept, anything else '_'.
[[nodiscard]] std::string sanitised_device_name(std::string_view device);

} // namespace cugrade::roofline
