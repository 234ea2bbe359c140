#pragma once
/// \file
/// The student's compiled shared object, opened in the runner (the only place student code
/// runs) and searched for one launcher.

#include "harness/core/result.h"

#include <filesystem>
#include <string>

namespace cugrade::runner {

class launcher_library {
public:
  /// Opens `path`; its static constructors (kernel registration) run here.
  static result<launcher_library> open(const std::filesystem::path& path);
  launcher_library(launcher_library&& other) noexcept;
  launcher_library& operator=(launcher_library&&) = delete;
  launcher_library(const launcher_library&) = delete;
  ~launcher_library();

  /// The address of an `extern "C"` function, or nullptr when it is not defined.
  [[nodiscard]] void* find(const std::string& name) const;

private:
  explicit launcher_library(void* handle) : m_handle(handle) {}
  void* m_handle = nullptr;
};

} // namespace cugrade::runner
