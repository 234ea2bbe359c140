#include "grader/build/runtime_names.h"

#include "grader/build/detail/runtime_names_cache.h"
#include "grader/build/symbols.h"
#include "grader/process/process.h"

#include <map>
#include <mutex>

namespace cugrade::build {
namespace {

// The host compiler knows where its own runtime libraries are: `g++ -print-file-name=libc.so.6`
// prints a path, or just the name back when it has none.
result<std::filesystem::path> host_library(const toolchain& tools, const std::string& name) {
  process::spawn_options options;
  options.argv = {tools.cxx.string(), "-print-file-name=" + name};
  options.time_limit_seconds = 30;
  auto run = process::run_process(options);
  if (!run) {
    return fail(run.error() + " (toolchain.cxx names the host compiler)");
  }
  std::string path = run->stdout_text.substr(0, run->stdout_text.find('\n'));
  if (!run->succeeded() || path.find('/') == std::string::npos) {
    return fail(tools.cxx.string() + " does not know where " + name + " is; is it installed?");
  }
  return std::filesystem::path(path);
}

result<std::filesystem::path> cudart_library(const toolchain& tools) {
  const std::filesystem::path root = tools.nvcc.parent_path().parent_path();
  for (const char* dir : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"}) {
    if (std::filesystem::exists(root / dir / "libcudart.so")) {
      return root / dir / "libcudart.so";
    }
  }
  return fail("libcudart.so not found under " + root.string() +
              " (toolchain.nvcc must sit in a CUDA toolkit's bin directory)");
}

result<std::filesystem::path> emu_library(const toolchain& tools) {
  const std::filesystem::path path = tools.emu_lib_dir / "libcugrade_emu.so";
  if (!std::filesystem::exists(path)) {
    return fail(path.string() + " not found: toolchain.emu_lib_dir must hold the emulator's "
                                "runtime library (build the cugrade_emu target)");
  }
  return path;
}

result<name_set> exported_names(const std::vector<std::filesystem::path>& library_paths) {
  auto symbols = runtime_exported_symbols(library_paths);
  if (!symbols) {
    return fail(symbols.error());
  }
  name_set names;
  for (symbol& entry : *symbols) {
    names.insert(std::move(entry.name));
  }
  return names;
}

} // namespace

result<std::vector<std::filesystem::path>> runtime_libraries(const toolchain& tools,
                                                             backend target) {
  std::vector<std::filesystem::path> libraries;
  for (const char* name : {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"}) {
    auto path = host_library(tools, name);
    if (!path) {
      return fail(path.error());
    }
    libraries.push_back(*path);
  }
  auto runtime = target == backend::gpu ? cudart_library(tools) : emu_library(tools);
  if (!runtime) {
    return fail(runtime.error());
  }
  libraries.push_back(*runtime);
  return libraries;
}

result<std::shared_ptr<const name_set>> runtime_names(const toolchain& tools, backend target) {
  // Keyed by what locates the libraries, so a hit spawns nothing.
  const std::string key = std::string(to_string(target)) + '\n' + tools.cxx.string() + '\n' +
                          (target == backend::gpu ? tools.nvcc : tools.emu_lib_dir).string();
  // In memory per cache folder too, so a caller with its own folder finds its file there.
  const std::string memory_key = key + '\n' + tools.cache_dir.string();
  static std::mutex guard;
  static std::map<std::string, std::shared_ptr<const name_set>> cache;
  const std::lock_guard lock(guard);
  if (const auto found = cache.find(memory_key); found != cache.end()) {
    return found->second;
  }
  // Then on disk, kept between processes (detail/runtime_names_cache.h).
  const auto file = tools.cache_dir.empty()
                        ? std::filesystem::path()
                        : detail::runtime_names_file(tools.cache_dir, key, tools.cxx);
  if (!file.empty()) {
    if (auto kept = detail::load_runtime_names(file)) {
      auto shared = std::make_shared<const name_set>(std::move(*kept));
      cache.emplace(memory_key, shared);
      return shared;
    }
  }
  auto libraries = runtime_libraries(tools, target);
  if (!libraries) {
    return fail(libraries.error());
  }
  auto names = exported_names(*libraries);
  if (!names) {
    return fail(names.error());
  }
  if (!file.empty()) {
    detail::store_runtime_names(file, *libraries, *names);
  }
  auto shared = std::make_shared<const name_set>(std::move(names).value());
  cache.emplace(memory_key, shared);
  return shared;
}

} // namespace cugrade::build
