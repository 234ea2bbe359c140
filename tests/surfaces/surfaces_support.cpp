#include "tests/surfaces/surfaces_support.h"

#include "grader/batch/csv_table.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace cugrade::surfaces {

namespace fs = std::filesystem;

void open_to_everyone(const fs::path& folder) {
  fs::permissions(folder, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
}

std::string backend() {
  const char* chosen = std::getenv("CUGRADE_SURFACES_BACKEND");
  return chosen != nullptr && *chosen != '\0' ? chosen : "emu";
}

fs::path small_spec() {
  return e2e::source_root() / "tests" / "batch" / "small_reduction.json";
}

std::string reference_source() {
  return e2e::text_of(e2e::source_root() / "reference" / "reduction.cu");
}

std::string reference_with_launcher_prologue(const std::string& head, const std::string& code) {
  const std::string launcher =
      "extern \"C\" void reduce_interleaved(const float* input, long n, float* result) {\n";
  std::string source = reference_source();
  const auto at = source.find(launcher);
  if (at == std::string::npos) {
    ADD_FAILURE() << "reference/reduction.cu no longer has the line: " << launcher;
    return source;
  }
  source.insert(at + launcher.size(), code + "\n");
  return head + "\n" + source;
}

std::string compile_error_source() {
  return e2e::text_of(e2e::fixtures_dir() / "grade_compile_error" / "reduction.cu");
}

std::string c_array_of(const std::string& bytes) {
  std::string out = "{";
  for (const char c : bytes) {
    std::array<char, 8> hex{};
    std::snprintf(hex.data(), hex.size(), "0x%02x, ", static_cast<unsigned char>(c));
    out += hex.data();
  }
  return out + "0}";
}

class_folder::class_folder(fs::path dir) : root(std::move(dir)) {}

void class_folder::add(const std::string& student, const std::string& source,
                       const std::string& nickname, const std::string& folder_name) {
  const auto dir = root / (folder_name.empty() ? student : folder_name);
  fs::create_directories(dir);
  std::ofstream(dir / "reduction.cu", std::ios::binary) << source;
  rows += student + "," + dir.string() + "," + nickname + "\n";
}

fs::path class_folder::roster() const {
  std::ofstream(root / "roster.csv", std::ios::binary) << rows;
  return root / "roster.csv";
}

e2e::cli_result run_batch(const fs::path& roster, const fs::path& out,
                          const std::vector<std::string>& extra) {
  std::vector<std::string> args{"batch",      small_spec().string(), roster.string(), "--out",
                                out.string(), "--backend",           backend(),       "--jobs",
                                "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  return e2e::run_cugrade(args);
}

std::vector<std::vector<std::string>> csv_cells(const fs::path& file) {
  const auto rows = batch::read_csv(file);
  if (!rows) {
    ADD_FAILURE() << rows.error();
    return {};
  }
  std::vector<std::vector<std::string>> out;
  for (const auto& row : *rows) {
    out.push_back(row.fields);
  }
  return out;
}

std::vector<std::string> row_starting(const std::vector<std::vector<std::string>>& rows,
                                      const std::string& first) {
  for (const auto& row : rows) {
    if (!row.empty() && row.front() == first) {
      return row;
    }
  }
  return {};
}

} // namespace cugrade::surfaces
