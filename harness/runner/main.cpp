// cugrade-runner-<backend>: runs one launcher of a student's (or the reference's) compiled code
// over the cases of a plan and records what happened. The only program that runs student code.
//
//   cugrade-runner-gpu --plan PLAN.json     run the plan; events go to <output_dir>/events.jsonl
//   cugrade-runner-gpu --probe              print the device's identity as JSON, exit 0 if usable

#include "harness/backends/backend.h"
#include "harness/core/error.h"
#include "harness/core/file_io.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/runner.h"

#include <cstring>
#include <fstream>
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
                              {"runtime", id.runtime}}
                   .dump()
            << "\n";
  return 0;
}

int run(const char* plan_path) {
  const auto text = cugrade::read_file(plan_path);
  if (!text) {
    std::cerr << "cugrade-runner: the plan: " << text.error() << "\n";
    return exit_usage;
  }
  auto plan = cugrade::protocol::plan_from_json_text(*text);
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
