#include "grader/build/detail/runtime_names_cache.h"

#include "grader/process/process.h"
#include "harness/core/file_io.h"
#include "harness/core/sha256.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace cugrade::build::detail {
namespace {

constexpr std::string_view format_line = "cugrade-runtime-names/1";

// A kept file's head: the format line, then "library<TAB>stamp" lines up to "--". Nullopt when
// it is not that, or lists no library.
std::optional<std::vector<std::pair<std::string, std::string>>> read_libraries(std::istream& in) {
  std::string line;
  if (!std::getline(in, line) || line != format_line) {
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> libraries;
  while (std::getline(in, line) && line != "--") {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) {
      return std::nullopt;
    }
    libraries.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  if (line != "--" || libraries.empty()) {
    return std::nullopt;
  }
  return libraries;
}

// Whether every library a kept file lists still exists (a test's or a course's installation
// that was removed leaves its file behind otherwise).
bool libraries_exist(const std::filesystem::path& file) {
  std::ifstream in(file);
  const auto libraries = read_libraries(in);
  return libraries && std::all_of(libraries->begin(), libraries->end(), [](const auto& library) {
           std::error_code ec;
           return std::filesystem::exists(library.first, ec);
         });
}

void remove_stale_files(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".txt" && !libraries_exist(entry.path())) {
      std::filesystem::remove(entry.path(), ec);
    }
  }
}

} // namespace

std::filesystem::path runtime_names_file(const std::filesystem::path& cache_dir,
                                         const std::string& key, const std::filesystem::path& cxx) {
  const auto program =
      cxx.has_parent_path() ? std::optional(cxx) : process::find_program(cxx.string());
  const std::string compiler =
      program ? program->string() + '\n' + file_stamp(*program) : cxx.string() + "\n(not found)";
  const std::string name = sha256_hex(std::string(format_line) + '\n' + key + '\n' + compiler);
  return cache_dir / "runtime-names" / (name.substr(0, 16) + ".txt");
}

std::optional<name_set> load_runtime_names(const std::filesystem::path& file) {
  std::ifstream in(file);
  const auto libraries = read_libraries(in);
  if (!libraries || !std::all_of(libraries->begin(), libraries->end(), [](const auto& library) {
        return file_stamp(library.first) == library.second;
      })) {
    return std::nullopt;
  }
  // Then one name a line.
  std::string line;
  name_set names;
  while (std::getline(in, line)) {
    if (!line.empty()) {
      names.insert(line);
    }
  }
  if (names.empty()) {
    return std::nullopt;
  }
  return names;
}

void store_runtime_names(const std::filesystem::path& file,
                         const std::vector<std::filesystem::path>& libraries,
                         const name_set& names) {
  std::ostringstream text;
  text << format_line << '\n';
  for (const auto& library : libraries) {
    text << library.string() << '\t' << file_stamp(library) << '\n';
  }
  text << "--\n";
  std::vector<std::string> sorted(names.begin(), names.end());
  std::sort(sorted.begin(), sorted.end());
  for (const auto& name : sorted) {
    text << name << '\n';
  }
  remove_stale_files(file.parent_path());
  (void)write_file_atomically(file, text.str()); // not written: the names are found again
}

} // namespace cugrade::build::detail
