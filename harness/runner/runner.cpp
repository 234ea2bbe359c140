#include "harness/runner/runner.h"

#include "harness/runner/case_runner.h"
#include "harness/runner/device_buffer.h"
#include "harness/runner/launcher_library.h"
#include "harness/runner/timing_runner.h"

#include <iostream>

namespace cugrade::runner {

bool run_plan(const protocol::plan& p, backends::backend& b, protocol::event_writer& events) {
  exact_buffers() = p.exact_buffers;
  events.started(b.identity());
  b.set_fault_fd(events.fd());
  b.set_time_limit(p.time_limit_seconds);
  auto library = launcher_library::open(p.library);
  if (!library) {
    std::cerr << library.error() << "\n";
    return false;
  }
  // Each launcher in turn over the same cases, numbered on (protocol.h, plan::more_launchers).
  const auto names = protocol::plan_launchers(p);
  protocol::plan numbered = p;
  numbered.cases.clear();
  for (std::size_t j = 0; j < names.size(); ++j) {
    numbered.cases.insert(numbered.cases.end(), p.cases.begin(), p.cases.end());
  }
  const problems::problem& problem = problems::get(p.problem);
  read_back_buffer read_back;
  std::size_t index = 0;
  for (const auto& name : names) {
    void* launcher = library->find(name);
    if (launcher == nullptr) {
      events.missing(name);
      break;
    }
    kernel_output output;
    for (std::size_t i = 0; i < p.cases.size(); ++i, ++index) {
      const bool device_usable =
          p.timing.enabled ? time_case(problem, numbered, index, launcher, b, events, read_back)
                           : run_case(problem, numbered, index, launcher, b, events, output);
      if (!device_usable) {
        events.finished(); // a sticky fault: later cases cannot run on this context
        return true;
      }
    }
  }
  events.finished();
  return true;
}

} // namespace cugrade::runner
