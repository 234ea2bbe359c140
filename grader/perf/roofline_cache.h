#pragma once
/// \file
/// The grader's copy of each device's roofline: measured once by `cugrade-roofline` (a child
/// process; the grader never initialises CUDA) and kept under
/// <cache_dir>/roofline/<sanitised device name>.json. A case the cache lacks is measured and
/// merged in.

#include "grader/runners/run_context.h"
#include "harness/core/result.h"
#include "harness/roofline/roofline.h"

#include <filesystem>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

namespace cugrade::perf {

/// <cache_dir>/roofline/<sanitised device>.json
[[nodiscard]] std::filesystem::path roofline_cache_path(const std::filesystem::path& cache_dir,
                                                        std::string_view device);

/// The cached roofline of `device` when it has a library figure for every case key in `keys`;
/// nullopt when a case is missing or the cache is absent or damaged. Reading it needs no GPU.
[[nodiscard]] std::optional<roofline::device_roofline>
cached_roofline(const std::filesystem::path& cache_dir, std::string_view device,
                const std::vector<std::string>& keys);

/// The roofline of `device` with a library figure for every case key in `keys`: from the cache
/// when it has them all, else measured by `program` (cases missing only) and cached. Fails when
/// the program cannot start, fails or prints something that is not a roofline. The program runs
/// on `context`'s GPU.
[[nodiscard]] result<roofline::device_roofline>
load_roofline(const std::filesystem::path& program, const std::filesystem::path& cache_dir,
              std::string_view device, const std::vector<std::string>& keys,
              double time_limit_seconds, const runners::run_context& context);

} // namespace cugrade::perf
