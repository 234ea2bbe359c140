// cugrade-runner-<backend>: runs one launcher of a student's (or the reference's) compiled code
// over the cases of a plan and records what happened. The only program that runs student code.
//
//   cugrade-runner-gpu --plan PLAN.json     run the plan; events go to <output_dir>/events.jsonl
//   cugrade-runner-gpu --plan PLAN.json --events-fd N
//                                           events go to descriptor N, which the grader opened
//                                           on a file the sandbox hides from student code
//   cugrade-runner-gpu --plan PLAN.json ... --gate-fd N
//                                           make the device context, then wait at the gate on
//                                           descriptor N until the grader lets it go
//                                           (harness/runner/gate.h)
//   cugrade-runner-gpu --probe              print the device's identity as JSON, exit 0 if usable

#include "harness/backends/backend.h"
#include "harness/core/error.h"
#include "harness/core/file_io.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/gate.h"
#include "harness/runner/refuse_tracing.h"
#include "harness/runner/runner.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <malloc.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
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

// Ends the process without running exit handlers: the student's library may have registered
// destructors or atexit handlers, which must get no chance to touch the results once written.
[[noreturn]] void end_now(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(status);
}

// The descriptors after `--plan PLAN.json`: `--events-fd N` and `--gate-fd N`, each at most
// once, in either order.
struct descriptors {
  std::optional<int> events;
  std::optional<int> gate;
};

std::optional<int> descriptor(const char* text) {
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  if (end != text && *end == '\0' && fd >= 3 && fd < 65536) {
    return static_cast<int>(fd);
  }
  return std::nullopt;
}

std::optional<descriptors> descriptor_arguments(int argc, char** argv) {
  descriptors d;
  for (int i = 3; i < argc; i += 2) {
    std::optional<int>* slot = nullptr;
    if (std::strcmp(argv[i], "--events-fd") == 0) {
      slot = &d.events;
    } else if (std::strcmp(argv[i], "--gate-fd") == 0) {
      slot = &d.gate;
    }
    const auto fd = i + 1 < argc ? descriptor(argv[i + 1]) : std::nullopt;
    if (slot == nullptr || slot->has_value() || !fd) {
      return std::nullopt;
    }
    *slot = fd;
  }
  return d;
}

int run(const char* plan_path, const descriptors& fds) {
  // Before the submission's library is loaded (its constructors run then).
  if (const auto why = cugrade::runner::refuse_tracing(); !why.empty()) {
    std::cerr << "cugrade-runner: could not refuse ptrace to the submission: " << why << "\n";
  }
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
  auto events =
      fds.events
          ? cugrade::protocol::event_writer(*fds.events)
          : cugrade::protocol::event_writer(plan->output_dir / cugrade::protocol::events_file_name);
  const auto backend = cugrade::backends::make_backend();
  if (fds.gate && !cugrade::runner::wait_at_gate(*fds.gate)) {
    return 0; // cancelled before anything ran
  }
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
    const auto fds = descriptor_arguments(argc, argv);
    if (argc >= 3 && fds && std::strcmp(argv[1], "--plan") == 0) {
      end_now(run(argv[2], *fds));
    }
    std::cerr << "usage: " << argv[0]
              << " --plan PLAN.json [--events-fd N] [--gate-fd N] | --probe\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "cugrade-runner: " << e.what() << "\n";
    end_now(exit_infrastructure);
  }
}
