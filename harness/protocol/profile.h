#pragma once
/// \file
/// A profiled case's memory behaviour, as the emulator's warp profiler counts it
/// (cugrade::emu::take_profiles; docs/insight.md): the runner writes one `profile` event per
/// profiled case; the grader reads it back as untrusted input, like every event.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cugrade::protocol {

/// Warp requests of one kind at one source line.
struct access_record {
  int line = 0;
  std::string space; ///< "global" or "shared"
  std::string op;    ///< "load", "store" or "atomic"
  std::uint64_t requests = 0;
  std::uint64_t units = 0; ///< sectors (global) or wavefronts (shared)
  std::uint64_t ideal_units = 0;
  std::uint64_t lanes = 0;
  std::uint64_t bytes = 0;
  std::uint64_t packed_requests = 0; ///< the requests the lanes would need packed into warps
  bool operator==(const access_record&) const = default;
};

/// One launch the case made.
struct launch_record {
  std::string kernel;
  std::string file;
  std::array<unsigned, 3> grid{};
  std::array<unsigned, 3> block{};
  std::uint64_t static_shared = 0;
  std::uint64_t dynamic_shared = 0;
  std::uint64_t left_out = 0; ///< accesses the profiler could not count
  std::vector<access_record> accesses;
  bool operator==(const launch_record&) const = default;
};

struct profile_record {
  std::size_t case_index = 0;
  std::vector<launch_record> launches;
  bool operator==(const profile_record&) const = default;
};

/// At most this many launches per case and access lines per launch are kept.
inline constexpr std::size_t max_profiled_launches = 16;
inline constexpr std::size_t max_profiled_lines = 256;

[[nodiscard]] nlohmann::json profile_json(const profile_record& p);
/// Reads a `profile` event; an empty string when it fits the protocol, else why not.
[[nodiscard]] std::string profile_from_json(const nlohmann::json& j, profile_record& out);

} // namespace cugrade::protocol
