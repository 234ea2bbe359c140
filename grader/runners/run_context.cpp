#include "grader/runners/run_context.h"

namespace cugrade::runners {

std::vector<std::pair<std::string, std::string>> runner_environment(const run_context& context) {
  std::vector<std::pair<std::string, std::string>> env{
      {"CUDA_DEVICE_MAX_CONNECTIONS", runner_cuda_connections}};
  if (!context.cuda_visible_devices.empty()) {
    env.emplace_back("CUDA_VISIBLE_DEVICES", context.cuda_visible_devices);
  }
  return env;
}

} // namespace cugrade::runners
