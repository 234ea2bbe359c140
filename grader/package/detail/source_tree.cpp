#include "grader/package/detail/source_tree.h"

#include <system_error>

namespace cugrade::package::detail {

namespace fs = std::filesystem;

result<void> require_source_tree(const fs::path& root, const fs::path& needed) {
  std::error_code ec;
  for (const auto& file : {root / "CMakePresets.json", root / needed})
    if (!fs::is_regular_file(file, ec))
      return fail_usage("cugrade package needs cugrade's source tree (it packs the sources), but " +
                        file.string() +
                        " is missing; run the cugrade built in a source checkout, or set "
                        "CUGRADE_ROOT to the source tree");
  return {};
}

result<void> copy_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  if (ec)
    return fail("cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
  return {};
}

} // namespace cugrade::package::detail
