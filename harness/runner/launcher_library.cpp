#include "harness/runner/launcher_library.h"

#include <dlfcn.h>

namespace cugrade::runner {

result<launcher_library> launcher_library::open(const std::filesystem::path& path) {
  // RTLD_LOCAL keeps the student's symbols out of the global namespace; RTLD_NOW fails here,
  // not in the middle of a timed call, if something is unresolved.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return fail("cannot load " + path.string() + ": " + (why != nullptr ? why : "unknown error"));
  }
  return launcher_library(handle);
}

launcher_library::launcher_library(launcher_library&& other) noexcept : m_handle(other.m_handle) {
  other.m_handle = nullptr;
}

// The library is deliberately never closed: CUDA registers its kernels at load time and
// unloading it before the runtime shuts down would leave dangling registrations.
launcher_library::~launcher_library() = default;

void* launcher_library::find(const std::string& name) const {
  return m_handle == nullptr ? nullptr : ::dlsym(m_handle, name.c_str());
}

} // namespace cugrade::runner
