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
  auto library = launcher_library::open(p.library);
  if (!library) {
    std::cerr << library.error() << "\n";
    return false;
  }
  void* launcher = library->find(p.launcher);
  if (launcher == nullptr) {
    events.missing(p.launcher);
    events.finished();
    return true;
  }
  const problems::problem& problem = problems::get(p.problem);
  for (std::size_t i = 0; i < p.cases.size(); ++i) {
    const bool device_usable = p.timing.enabled ? time_case(problem, p, i, launcher, b, events)
                                                : run_case(problem, p, i, launcher, b, events);
    if (!device_usable) {
      break; // a sticky fault: later cases cannot run on this context
    }
  }
  events.finished();
  return true;
}

} // namespace cugrade::runner
