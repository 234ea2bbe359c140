#include "grader/batch/slurm/delivery.h"

#include "harness/core/file_io.h"

#include <nlohmann/json.hpp>

namespace cugrade::batch {

std::filesystem::path delivery_path(const std::filesystem::path& results_dir,
                                    const std::string& student) {
  return results_dir / (student + ".json");
}

result<void> hand_over(const std::filesystem::path& results_dir, const delivery& d) {
  const nlohmann::ordered_json j{{"schema", "cugrade.slurm-delivery/1"},
                                 {"student", d.student},
                                 {"inputs", d.inputs},
                                 {"job", d.job},
                                 {"commit", d.commit},
                                 {"fetch_seconds", d.fetch_seconds},
                                 {"build_seconds", d.build_seconds},
                                 {"run_seconds", d.run_seconds},
                                 {"report_json", d.report_json}};
  return write_file_atomically(
      delivery_path(results_dir, d.student),
      j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

result<delivery> read_delivery(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) {
    return fail(text.error());
  }
  try {
    const auto j = nlohmann::json::parse(*text);
    if (j.at("schema") != "cugrade.slurm-delivery/1") {
      return fail(file.string() + ": not a cugrade.slurm-delivery/1 file");
    }
    delivery d;
    d.student = j.at("student").get<std::string>();
    d.inputs = j.at("inputs").get<std::string>();
    d.job = j.at("job").get<std::string>();
    d.commit = j.at("commit").get<std::string>();
    d.report_json = j.at("report_json").get<std::string>();
    d.fetch_seconds = j.at("fetch_seconds").get<double>();
    d.build_seconds = j.at("build_seconds").get<double>();
    d.run_seconds = j.at("run_seconds").get<double>();
    return d;
  } catch (const nlohmann::json::exception& e) {
    return fail(file.string() + ": not a readable delivery: " + e.what());
  }
}

} // namespace cugrade::batch
