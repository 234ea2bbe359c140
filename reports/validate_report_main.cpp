// cugrade-validate-report SCHEMA REPORT...: checks report files against the schema, for scripts
// and end-to-end tests. Exit 0 when every report is valid, 1 when any is not (or cannot be read),
// 2 on wrong usage.
#include <iostream>

#include <nlohmann/json.hpp>

#include "harness/core/file_io.h"
#include "reports/schema_validator.h"

namespace {

bool check_file(const nlohmann::json& schema, const char* path) {
  const auto text = cugrade::read_file(path);
  if (!text) {
    std::cerr << text.error() << "\n";
    return false;
  }
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded()) {
    std::cerr << path << ": not valid JSON\n";
    return false;
  }
  const std::vector<std::string> errors = cugrade::reports::validate(schema, doc);
  for (const std::string& e : errors) {
    std::cerr << path << ": " << e << "\n";
  }
  return errors.empty();
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: cugrade-validate-report SCHEMA REPORT...\n";
    return 2;
  }
  try {
    const auto text = cugrade::read_file(argv[1]);
    const nlohmann::json schema = text ? nlohmann::json::parse(*text, nullptr, false)
                                       : nlohmann::json(nlohmann::json::value_t::discarded);
    if (schema.is_discarded()) {
      std::cerr << argv[1] << ": cannot read the schema as JSON\n";
      return 2;
    }
    bool all_valid = true;
    for (int i = 2; i < argc; ++i) {
      all_valid = check_file(schema, argv[i]) && all_valid;
    }
    if (all_valid) {
      std::cout << "valid: " << (argc - 2) << " report(s)\n";
    }
    return all_valid ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "cugrade-validate-report: internal error: " << e.what() << "\n";
    return 1;
  }
}
