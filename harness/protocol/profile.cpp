// The `profile` event: written by the runner, read back as untrusted input (profile.h).
#include "harness/protocol/profile.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace cugrade::protocol {

using nlohmann::json;

namespace {

constexpr std::size_t max_name = 200;

bool is_count(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number_unsigned();
}

std::string access_from(const json& j, access_record& a) {
  if (!j.is_object() || !j.value("line", json()).is_number_integer()) {
    return "a profiled access without a line";
  }
  a.line = j["line"].get<int>();
  a.space = j.value("space", "");
  a.op = j.value("op", "");
  if ((a.space != "global" && a.space != "shared") ||
      (a.op != "load" && a.op != "store" && a.op != "atomic")) {
    return "a profiled access of an unknown kind";
  }
  for (const char* key : {"requests", "units", "ideal_units", "lanes", "bytes", "packed"}) {
    if (!is_count(j, key)) {
      return std::string("a profiled access without its ") + key;
    }
  }
  a.requests = j["requests"].get<std::uint64_t>();
  a.units = j["units"].get<std::uint64_t>();
  a.ideal_units = j["ideal_units"].get<std::uint64_t>();
  a.lanes = j["lanes"].get<std::uint64_t>();
  a.bytes = j["bytes"].get<std::uint64_t>();
  a.packed_requests = j["packed"].get<std::uint64_t>();
  return "";
}

std::string dims_from(const json& j, std::array<unsigned, 3>& out) {
  if (!j.is_array() || j.size() != 3 ||
      !std::all_of(j.begin(), j.end(), [](const json& d) { return d.is_number_unsigned(); })) {
    return "a profiled launch whose grid or block is not three numbers";
  }
  for (std::size_t i = 0; i < 3; ++i) {
    out[i] = j[i].get<unsigned>();
  }
  return "";
}

std::string cut(std::string text) {
  if (text.size() > max_name) {
    text.resize(max_name);
  }
  return text;
}

std::string launch_from(const json& j, launch_record& l) {
  if (!j.is_object() || !j.value("accesses", json()).is_array()) {
    return "a profiled launch without its accesses";
  }
  l.kernel = cut(j.value("kernel", ""));
  l.file = cut(j.value("file", ""));
  if (auto why = dims_from(j.value("grid", json()), l.grid); !why.empty()) {
    return why;
  }
  if (auto why = dims_from(j.value("block", json()), l.block); !why.empty()) {
    return why;
  }
  for (const char* key : {"static_shared", "dynamic_shared", "left_out"}) {
    if (!is_count(j, key)) {
      return std::string("a profiled launch without its ") + key;
    }
  }
  l.static_shared = j["static_shared"].get<std::uint64_t>();
  l.dynamic_shared = j["dynamic_shared"].get<std::uint64_t>();
  l.left_out = j["left_out"].get<std::uint64_t>();
  const json& list = j["accesses"];
  if (list.size() > max_profiled_lines) {
    return "a profiled launch with too many lines";
  }
  for (const json& a : list) {
    access_record r;
    if (auto why = access_from(a, r); !why.empty()) {
      return why;
    }
    l.accesses.push_back(std::move(r));
  }
  return "";
}

} // namespace

json profile_json(const profile_record& p) {
  json launches = json::array();
  for (const launch_record& l : p.launches) {
    json accesses = json::array();
    for (const access_record& a : l.accesses) {
      accesses.push_back({{"line", a.line},
                          {"space", a.space},
                          {"op", a.op},
                          {"requests", a.requests},
                          {"units", a.units},
                          {"ideal_units", a.ideal_units},
                          {"lanes", a.lanes},
                          {"bytes", a.bytes},
                          {"packed", a.packed_requests}});
    }
    launches.push_back({{"kernel", l.kernel},
                        {"file", l.file},
                        {"grid", l.grid},
                        {"block", l.block},
                        {"static_shared", l.static_shared},
                        {"dynamic_shared", l.dynamic_shared},
                        {"left_out", l.left_out},
                        {"accesses", std::move(accesses)}});
  }
  return {{"event", "profile"}, {"case", p.case_index}, {"launches", std::move(launches)}};
}

std::string profile_from_json(const json& j, profile_record& out) {
  if (!j.value("case", json()).is_number_unsigned() || !j.value("launches", json()).is_array()) {
    return "a profile without its case and launches";
  }
  out.case_index = j["case"].get<std::size_t>();
  const json& list = j["launches"];
  if (list.size() > max_profiled_launches) {
    return "a profile with too many launches";
  }
  for (const json& l : list) {
    launch_record r;
    if (auto why = launch_from(l, r); !why.empty()) {
      return why;
    }
    out.launches.push_back(std::move(r));
  }
  return "";
}

} // namespace cugrade::protocol
