#include "grader/perf/reference_timings.h"

#include "harness/core/sha256.h"
#include "harness/core/file_io.h"
#include "reports/report.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cugrade::perf {

namespace {

// Bumped when the protocol changes what a sample measures: older entries are then not found.
constexpr const char* protocol_version = "cugrade.reference-timing/1";

nlohmann::json key_json(const reference_timing_key& k) {
  return {{"gpu", k.gpu},
          {"driver", k.driver},
          {"library_sha256", k.library_sha256},
          {"spec_sha256", k.spec_sha256},
          {"launcher", k.launcher},
          {"case", k.tc.name},
          {"shape", problems::describe(k.tc.problem, k.tc.dims)},
          {"distribution", k.tc.distribution},
          {"seed", k.tc.seed}};
}

bool all_positive(const std::vector<double>& v) {
  for (const double x : v) {
    if (!(x > 0)) {
      return false;
    }
  }
  return !v.empty();
}

} // namespace

std::string cache_file_name(const reference_timing_key& key) {
  return sha256_hex(std::string(protocol_version) + "\n" + key_json(key).dump()) + ".json";
}

std::optional<pooled_samples> reference_timing_cache::load(const reference_timing_key& key) const {
  std::ifstream in(m_dir / cache_file_name(key));
  if (!in) {
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  const auto j = nlohmann::json::parse(text.str(), nullptr, false);
  if (!j.is_object() || j.value("schema", "") != protocol_version ||
      j.value("key", nlohmann::json()) != key_json(key)) {
    return std::nullopt;
  }
  pooled_samples s;
  s.event_ms = j.value("event_ms", std::vector<double>{});
  s.host_ms = j.value("host_ms", std::vector<double>{});
  s.clock_mhz = j.value("sm_clock_mhz", std::vector<double>{});
  if (!all_positive(s.event_ms) || s.host_ms.size() != s.event_ms.size()) {
    return std::nullopt; // damaged: time the reference again
  }
  return s;
}

bool reference_timing_cache::store(const reference_timing_key& key, const pooled_samples& samples,
                                   std::string* err) const {
  const nlohmann::json j{{"schema", protocol_version},
                         {"key", key_json(key)},
                         {"measured_at", reports::now_iso8601_utc()},
                         {"event_ms", samples.event_ms},
                         {"host_ms", samples.host_ms},
                         {"sm_clock_mhz", samples.clock_mhz}};
  std::error_code ec;
  std::filesystem::create_directories(m_dir, ec);
  const auto written = write_file_atomically(m_dir / cache_file_name(key), j.dump(1) + "\n");
  if (!written && err != nullptr) {
    *err = written.error();
  }
  return written.ok();
}

} // namespace cugrade::perf
