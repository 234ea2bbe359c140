// The backend of perf_fake_runner: the real runner program (harness/runner/main.cpp) over host
// memory, timing each call by the host clock. With launchers compiled for the host it lets the
// grader's whole GPU evaluation run where there is no GPU.

#include "tests/perf/fake_backend.h"

#include <memory>

namespace cugrade::backends {

std::unique_ptr<backend> make_backend() {
  auto b = std::make_unique<testing::fake_backend>();
  b->measure_wall_time = true;
  return b;
}

} // namespace cugrade::backends
