#include "harness/roofline/roofline.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace cugrade::roofline {

using nlohmann::json;

namespace {

json figure_json(const library_figure& f) {
  return {
      {"case", f.key}, {"library", f.library}, {"median_ms", f.median_ms}, {"samples", f.samples}};
}

} // namespace

const library_figure* device_roofline::find(std::string_view key) const {
  const auto it = std::find_if(libraries.begin(), libraries.end(),
                               [&](const library_figure& f) { return f.key == key; });
  return it == libraries.end() ? nullptr : &*it;
}

double device_roofline::peak_bandwidth_gbps() const {
  return std::max(datasheet_bandwidth_gbps, copy_bandwidth_gbps);
}

std::string case_key(problems::kind problem, const problems::case_template& c) {
  return std::string(problems::to_string(problem)) + "/" + problems::describe(problem, c.dims) +
         "/" + c.distribution;
}

result<std::pair<problems::kind, problems::case_template>> parse_case_key(std::string_view key) {
  const auto bad = [&] {
    return fail("\"" + std::string(key) +
                "\" is not a benchmark case; write problem/shape/distribution, e.g. "
                "matmul/2048x2048x2048/real or histogram/n=268435456/uniform");
  };
  const auto a = key.find('/');
  const auto b = a == std::string_view::npos ? a : key.find('/', a + 1);
  if (b == std::string_view::npos) {
    return bad();
  }
  const auto k = problems::find_kind(key.substr(0, a));
  const auto dims = k ? problems::parse_description(*k, key.substr(a + 1, b - a - 1))
                      : std::optional<problems::shape>{};
  const std::string distribution(key.substr(b + 1));
  if (!dims) {
    return bad();
  }
  const auto known = problems::get(*k).distributions();
  if (std::find(known.begin(), known.end(), distribution) == known.end()) {
    return bad();
  }
  return std::pair{*k, problems::case_template{*dims, distribution}};
}

int fp32_lanes_per_sm(int major, int minor) {
  if (major < 8 || (major == 8 && minor == 0)) {
    return 64;
  }
  return 128;
}

std::string to_json_text(const device_roofline& r) {
  json libraries = json::array();
  for (const auto& f : r.libraries) {
    libraries.push_back(figure_json(f));
  }
  const json j{{"schema", schema_id},
               {"device", r.device},
               {"sm_count", r.sm_count},
               {"sm_clock_mhz", r.sm_clock_mhz},
               {"memory_clock_mhz", r.memory_clock_mhz},
               {"bus_width_bits", r.bus_width_bits},
               {"l2_bytes", r.l2_bytes},
               {"copy_bandwidth_gbps", r.copy_bandwidth_gbps},
               {"datasheet_bandwidth_gbps", r.datasheet_bandwidth_gbps},
               {"fp32_peak_gflops", r.fp32_peak_gflops},
               {"libraries", libraries}};
  return j.dump(2);
}

result<device_roofline> from_json_text(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("schema", "") != schema_id) {
    return fail("not a roofline file (expected a JSON object with \"schema\": \"" +
                std::string(schema_id) + "\")");
  }
  try {
    device_roofline r;
    r.device = j.at("device").get<std::string>();
    r.sm_count = j.value("sm_count", 0);
    r.sm_clock_mhz = j.value("sm_clock_mhz", 0.0);
    r.memory_clock_mhz = j.value("memory_clock_mhz", 0.0);
    r.bus_width_bits = j.value("bus_width_bits", 0);
    r.l2_bytes = j.value("l2_bytes", 0.0);
    r.copy_bandwidth_gbps = j.at("copy_bandwidth_gbps").get<double>();
    r.datasheet_bandwidth_gbps = j.value("datasheet_bandwidth_gbps", 0.0);
    r.fp32_peak_gflops = j.value("fp32_peak_gflops", 0.0);
    for (const auto& f : j.value("libraries", json::array())) {
      r.libraries.push_back({f.at("case").get<std::string>(), f.at("library").get<std::string>(),
                             f.at("median_ms").get<double>(), f.value("samples", 0)});
    }
    return r;
  } catch (const json::exception& e) {
    return fail(std::string("malformed roofline file: ") + e.what());
  }
}

void merge(device_roofline& into, const device_roofline& fresh) {
  auto libraries = std::move(into.libraries);
  into = fresh;
  into.libraries.clear();
  for (auto& old : libraries) {
    if (fresh.find(old.key) == nullptr) {
      into.libraries.push_back(std::move(old));
    }
  }
  into.libraries.insert(into.libraries.end(), fresh.libraries.begin(), fresh.libraries.end());
}

std::string sanitised_device_name(std::string_view device) {
  std::string out;
  for (const char c : device) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.';
    out.push_back(keep ? c : '_');
  }
  return out.empty() ? std::string("unknown-device") : out;
}

} // namespace cugrade::roofline
