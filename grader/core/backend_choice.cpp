#include "grader/core/backend_choice.h"

#include "grader/process/process.h"
#include "grader/runners/run_context.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace cugrade::grader {

namespace {

result<backend_choice> emulation(const layout& l, std::string note) {
  if (!std::filesystem::exists(l.runner("emu"))) {
    return fail("the emulation runner " + l.runner("emu").string() +
                " is missing: rebuild cugrade");
  }
  backend_choice c;
  c.kind = reports::backend_kind::emu;
  c.identity = {"emu", "cugrade CPU emulator", "none", "cugrade emulator", "", ""};
  c.note = std::move(note);
  return c;
}

} // namespace

std::optional<std::filesystem::path> find_nvcc() {
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
    if (std::filesystem::exists(std::filesystem::path(home) / "bin" / "nvcc")) {
      return std::filesystem::path(home) / "bin" / "nvcc";
    }
  }
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) {
    return std::filesystem::path("/usr/local/cuda/bin/nvcc");
  }
  return process::find_program("nvcc");
}

result<protocol::device_identity> probe_gpu(const layout& l, const runners::run_context& context) {
  const auto runner = l.runner("gpu");
  if (!std::filesystem::exists(runner)) {
    return fail("this cugrade was built without the GPU backend (no nvcc at build time, or "
                "CUGRADE_ENABLE_CUDA=OFF: scripts/grade turns it off where it finds no NVIDIA GPU)");
  }
  process::spawn_options opts;
  opts.argv = {runner.string(), "--probe"};
  opts.time_limit_seconds = 60;
  opts.env_add = runners::runner_environment(context); // the device a batch pinned, one queue
  const auto r = process::run_process(opts);
  if (!r) {
    return fail(r.error());
  }
  if (!r->succeeded()) {
    std::string why = r->stderr_text.empty() ? "no CUDA device" : r->stderr_text;
    why = why.substr(0, why.find('\n'));
    constexpr std::string_view runner_prefix = "cugrade-runner: ";
    if (why.starts_with(runner_prefix)) {
      why.erase(0, runner_prefix.size());
    }
    return fail(why.starts_with("no NVIDIA GPU found") ? why : "no usable GPU: " + why);
  }
  const auto j = nlohmann::json::parse(r->stdout_text, nullptr, false);
  if (!j.is_object()) {
    return fail("the GPU runner's probe printed no device description");
  }
  return protocol::device_identity{"gpu",
                                   j.value("device", ""),
                                   j.value("driver", ""),
                                   j.value("runtime", ""),
                                   j.value("uuid", ""),
                                   j.value("arch", "")};
}

result<backend_choice> choose_backend(const layout& l, std::string_view requested) {
  if (requested == "emu") {
    return emulation(l, "emulation requested");
  }
  auto gpu = probe_gpu(l, {}); // before any pin: the GPUs the environment gives
  const auto nvcc = find_nvcc();
  if (gpu && nvcc) {
    backend_choice c;
    c.kind = reports::backend_kind::gpu;
    c.identity = *gpu;
    c.nvcc = *nvcc;
    return c;
  }
  const std::string why = !gpu ? gpu.error() : "nvcc not found (install the CUDA toolkit)";
  if (requested == "gpu") {
    return fail("--backend gpu: " + why);
  }
  return emulation(l, why + "; using CPU emulation");
}

} // namespace cugrade::grader
