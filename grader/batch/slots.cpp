#include "grader/batch/slots.h"

#include "grader/process/process.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

namespace cugrade::batch {

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, separator);) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t\r") + 1);
    if (!item.empty()) {
      out.push_back(item);
    }
  }
  return out;
}

} // namespace

slots::slots(std::size_t jobs, std::vector<std::string> gpus, std::size_t per_gpu)
    : m_free_cpu(std::max<std::size_t>(jobs, 1)), m_gpus(std::move(gpus)),
      m_per_gpu(std::max<std::size_t>(per_gpu, 1)), m_on_gpu(m_gpus.size(), 0),
      m_retired(m_gpus.size(), false), m_busy_seconds(m_gpus.size(), 0),
      m_busy_since(m_gpus.size(), 0) {}

void slots::take_cpu() {
  std::unique_lock lock(m_mutex);
  m_changed.wait(lock, [this] { return m_free_cpu > 0; });
  --m_free_cpu;
}

void slots::give_cpu() {
  {
    const std::lock_guard lock(m_mutex);
    ++m_free_cpu;
  }
  m_changed.notify_all();
}

std::size_t slots::take_gpu() {
  std::unique_lock lock(m_mutex);
  // The least busy GPU in service (the first of equals); any GPU once none is in service.
  const auto least_busy = [this] {
    const bool any_in_service = in_service_locked() > 0;
    std::size_t best = m_gpus.size();
    for (std::size_t i = 0; i < m_gpus.size(); ++i) {
      if ((!m_retired[i] || !any_in_service) &&
          (best == m_gpus.size() || m_on_gpu[i] < m_on_gpu[best])) {
        best = i;
      }
    }
    return best;
  };
  m_changed.wait(lock, [&] { return m_on_gpu[least_busy()] < m_per_gpu; });
  const auto gpu = least_busy();
  if (m_on_gpu[gpu]++ == 0) {
    m_busy_since[gpu] = now_seconds();
  }
  return gpu;
}

void slots::give_gpu(std::size_t gpu) {
  {
    const std::lock_guard lock(m_mutex);
    if (--m_on_gpu[gpu] == 0) {
      m_busy_seconds[gpu] += now_seconds() - m_busy_since[gpu];
    }
  }
  m_changed.notify_all();
}

std::size_t slots::in_service_locked() const {
  return static_cast<std::size_t>(std::count(m_retired.begin(), m_retired.end(), false));
}

std::size_t slots::retire_gpu(std::size_t gpu) {
  std::size_t left = 0;
  {
    const std::lock_guard lock(m_mutex);
    m_retired.at(gpu) = true;
    left = in_service_locked();
  }
  m_changed.notify_all(); // a grading waiting for the retired GPU's slot takes another
  return left;
}

bool slots::in_service(std::size_t gpu) const {
  const std::lock_guard lock(m_mutex);
  return !m_retired.at(gpu);
}

std::size_t slots::gpus_in_service() const {
  const std::lock_guard lock(m_mutex);
  return in_service_locked();
}

std::size_t slots::concurrency() const {
  const std::lock_guard lock(m_mutex);
  return m_free_cpu + m_gpus.size() * m_per_gpu;
}

std::vector<double> slots::gpu_busy_seconds() const {
  const std::lock_guard lock(m_mutex);
  auto out = m_busy_seconds;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (m_on_gpu[i] > 0) {
      out[i] += now_seconds() - m_busy_since[i];
    }
  }
  return out;
}

std::vector<std::string> visible_gpus(const std::vector<std::string>& requested) {
  if (!requested.empty()) {
    return requested;
  }
  if (const char* env = std::getenv("CUDA_VISIBLE_DEVICES"); env != nullptr) {
    return split(env, ',');
  }
  process::spawn_options opts;
  opts.argv = {"nvidia-smi", "--query-gpu=index", "--format=csv,noheader"};
  opts.time_limit_seconds = 30;
  if (const auto r = process::run_process(opts); r && r->succeeded()) {
    auto listed = split(r->stdout_text, '\n');
    if (!listed.empty()) {
      return listed;
    }
  }
  return {"0"};
}

} // namespace cugrade::batch
