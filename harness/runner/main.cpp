// cugrade-runner-<backend>: runs one launcher of a student's (or the reference's) compiled code
// over the cases of a plan and records what happened. The only program that runs student code.
//
//   cugrade-runner-gpu --plan PLAN.json     run the plan; events go to <output_dir>/events.jsonl
//   cugrade-runner-gpu --probe              print the device's identity as JSON, exit 0 if usable

#include "harness/backends/backend.h"
#include "harness/core/error.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/runner.h"

#include <cstring>
#include <fstream>
#include <malloc.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

constexpr int exit_usage = 2;
constexpr int exit_infrastructure = 3;

int probe() {
  const auto backend = cugrade::backends::make_backend();
  const auto id = backend->identity();
  std::cout << nlohmann::json{{"backend", id.backend},
                              {"device", id.device},
                              {"driver", id.driver},
                              {"runtime", id.runtime},
                              {"uuid", id.uuid},
                              {"arch", id.arch}}
                   .dump()
            << "\n";
  return 0;
}

int run(const char* plan_path) {
  std::ifstream in(plan_path);
  if (!in) {
    std::cerr << "cugrade-runner: cannot read plan " << plan_path << "\n";
    return exit_usage;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto plan = cugrade::protocol::plan_from_json_text(text.str());
  if (!plan) {
    std::cerr << "cugrade-runner: " << plan.error() << "\n";
    return exit_usage;
  }
  cugrade::protocol::event_writer events(plan->output_dir / cugrade::protocol::events_file_name);
  const auto backend = cugrade::backends::make_backend();
  return cugrade::runner::run_plan(*plan, *backend, events) ? 0 : exit_infrastructure;
}

} // namespace

int main(int argc, char** argv) {
  // Benchmark inputs are up to 1 GiB per input set, generated again for every set: keep freed
  // memory in the heap instead of returning it to the system, so the next set reuses pages that
  // are already mapped (each fresh mapping costs a page fault per 4 KiB, about 0.3 s per GiB).
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  try {
    if (argc == 2 && std::strcmp(argv[1], "--probe") == 0) {
      return probe();
    }
    if (argc == 3 && std::strcmp(argv[1], "--plan") == 0) {
      return run(argv[2]);
    }
    std::cerr << "usage: " << argv[0] << " --plan PLAN.json | --probe\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "cugrade-runner: " << e.what() << "\n";
    return exit_infrastructure;
  }
}
