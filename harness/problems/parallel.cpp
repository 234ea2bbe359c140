#include "harness/problems/parallel.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace cugrade::problems {

namespace {
// Beyond this the grader's memory bandwidth, not the thread count, limits every loop here.
constexpr std::size_t max_threads = 16;
} // namespace

std::size_t part_count(std::size_t count, std::size_t min_per_part) {
  const std::size_t hardware =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, max_threads);
  const std::size_t by_size = count / std::max<std::size_t>(min_per_part, 1);
  return std::clamp<std::size_t>(by_size, 1, hardware);
}

void for_parts(std::size_t count, std::size_t parts,
               const std::function<void(std::size_t, std::size_t, std::size_t)>& body) {
  parts = std::clamp<std::size_t>(parts, 1, std::max<std::size_t>(count, 1));
  const auto bound = [&](std::size_t p) { return count * p / parts; };
  if (parts == 1) {
    body(0, 0, count);
    return;
  }
  std::vector<std::exception_ptr> errors(parts);
  std::vector<std::thread> threads;
  threads.reserve(parts - 1);
  const auto run = [&](std::size_t p) {
    try {
      body(p, bound(p), bound(p + 1));
    } catch (...) {
      errors[p] = std::current_exception();
    }
  };
  for (std::size_t p = 1; p < parts; ++p) {
    threads.emplace_back(run, p);
  }
  run(0);
  for (auto& t : threads) {
    t.join();
  }
  for (const auto& e : errors) {
    if (e) {
      std::rethrow_exception(e);
    }
  }
}

} // namespace cugrade::problems
