#pragma once
// A throw-away project root holding a reference/matmul.cu and a valid matmul spec to break.

#include "grader/process/temp_dir.h"
#include "grader/spec/assignment_spec.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace cugrade::spec::testing {

class SpecFixture : public ::testing::Test {
protected:
  void SetUp() override {
    std::filesystem::create_directories(m_root / "reference");
    std::filesystem::create_directories(m_root / "specs");
    write(m_root / "reference" / "matmul.cu", "// reference\n");
  }

  static void write(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
  }

  /// A spec that loads: every later test changes one thing.
  static nlohmann::json valid_spec() {
    return nlohmann::json::parse(R"({
      "schema": "cugrade.assignment/1",
      "name": "matmul",
      "title": "Matrix multiplication",
      "problem": "matmul",
      "source": "matmul.cu",
      "reference": "reference",
      "kernels": [
        {"name": "matmul_naive", "points": 10, "performance_points": 0},
        {"name": "matmul_tiled", "points": 15, "performance_points": 5},
        {"name": "matmul_dynamic", "points": 15, "performance_points": 5}
      ],
      "tests": {
        "seed": 7,
        "groups": [
          {"name": "edge", "visibility": "visible", "weight": 1, "shapes": "edge",
           "distributions": "all"},
          {"name": "odd", "visibility": "visible", "weight": 1,
           "shapes": [{"j": 19, "k": 23, "l": 29}], "distributions": ["real", "integer"]},
          {"name": "hidden", "visibility": "hidden", "weight": 2,
           "shapes": [{"j": 1, "k": 1000, "l": 1}], "distributions": ["real"]}
        ]
      },
      "benchmark": {"cases": "default"},
      "performance": {"full_speedup": 1.0, "zero_speedup": 0.5},
      "tolerance": {"policy": "fp32-any-order"},
      "limits": {"compile_seconds": 120, "kernel_seconds": 60},
      "late_policy": {"penalty_per_day": 0.1, "max_penalty": 0.5, "grace_minutes": 0},
      "deadline": "2026-12-01T23:59:00Z"
    })");
  }

  /// Writes `text` as specs/broken.json and loads it.
  result<assignment_spec> load_text(const std::string& text) {
    write(m_root / "specs" / "broken.json", text);
    return load_assignment((m_root / "specs" / "broken.json").string(), m_root);
  }
  result<assignment_spec> load_json(const nlohmann::json& spec) { return load_text(spec.dump(2)); }

  /// The error of loading `spec`, which must fail.
  std::string error_of(const nlohmann::json& spec) {
    auto loaded = load_json(spec);
    EXPECT_FALSE(loaded.ok()) << "the spec loaded but should not have:\n" << spec.dump(2);
    return loaded.ok() ? std::string() : loaded.error();
  }

  process::temp_dir m_tmp{"cugrade_spec"};
  std::filesystem::path m_root = m_tmp.path();
};

/// Every part must appear in `text`: the file, the field path and the fix.
inline void expect_contains(const std::string& text, std::initializer_list<std::string> parts) {
  for (const auto& part : parts)
    EXPECT_NE(text.find(part), std::string::npos) << "missing \"" << part << "\" in:\n" << text;
}

} // namespace cugrade::spec::testing
