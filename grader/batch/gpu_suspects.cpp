#include "grader/batch/gpu_suspects.h"

#include <nlohmann/json.hpp>

namespace cugrade::batch {

namespace {

constexpr const char* setting_key = "gpu_lost_during";

void store(journal& j, const std::map<std::string, int>& suspects) {
  j.set_setting(setting_key, nlohmann::json(suspects).dump(
                                 -1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

std::map<std::string, int> gpu_suspects(journal& j) {
  std::map<std::string, int> out;
  const auto text = j.setting(setting_key);
  if (!text) {
    return out;
  }
  const auto parsed = nlohmann::json::parse(*text, nullptr, false);
  if (!parsed.is_object()) {
    return out; // unreadable: nobody is held back, which costs at most one more stop
  }
  for (const auto& [student, times] : parsed.items()) {
    if (times.is_number_integer()) {
      out[student] = times.get<int>();
    }
  }
  return out;
}

void add_gpu_suspect(journal& j, const std::string& student) {
  auto suspects = gpu_suspects(j);
  ++suspects[student];
  store(j, suspects);
}

void clear_gpu_suspect(journal& j, const std::string& student) {
  auto suspects = gpu_suspects(j);
  if (suspects.erase(student) > 0) {
    store(j, suspects);
  }
}

} // namespace cugrade::batch
