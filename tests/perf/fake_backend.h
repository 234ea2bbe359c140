#pragma once
// A backend whose "device" is host memory and whose timings are scripted, so the runner's timing
// protocol runs anywhere: launchers are plain host functions over the "device pointers".

#include "harness/backends/backend.h"

#include <chrono>
#include <cstring>
#include <functional>
#include <set>
#include <vector>

namespace cugrade::testing {

class fake_backend final : public backends::backend {
public:
  /// Event time of timed call number i (warm-up calls included).
  std::function<double(int)> event_ms = [](int) { return 1.0; };
  /// Time calls by the host clock instead (the fake runner: launchers spin for their "work").
  bool measure_wall_time = false;
  /// SM clock reported by read number i (two reads per sample: before and after it).
  std::function<double(int)> clock_mhz = [](int) { return 1980.0; };
  /// Timed call number i fails with this kind (empty: never).
  std::function<std::string(int)> fault = [](int) { return std::string(); };
  /// Plain (untimed) call number i fails with this kind (empty: never); a fatal fault.
  std::function<std::string(int)> plain_fault = [](int) { return std::string(); };
  /// What host_memory() answers after a fault (the GPU's: the runner's readable ranges).
  std::vector<protocol::address_range> host;
  /// Timed call number i waits on the device inside it, so a gate would expire.
  std::function<bool(int)> waits_on_device = [](int) { return false; };
  int timed_calls = 0;
  int gated_calls = 0;
  int plain_calls = 0;
  int flushes = 0;
  int clock_reads = 0;
  std::vector<std::size_t> allocations; ///< sizes asked for, in order
  std::vector<problems::float_recipe> generated; ///< inputs made "on the device", in order

  ~fake_backend() override {
    for (void* p : m_live) {
      delete[] static_cast<std::byte*>(p);
    }
  }

protected:
  protocol::device_identity do_identity() const override { return {"fake", "fake", "", "", "", ""}; }
  void* do_allocate(std::size_t bytes) override {
    allocations.push_back(bytes);
    void* p = new std::byte[bytes];
    m_live.insert(p);
    return p;
  }
  void do_release(void* p) noexcept override {
    m_live.erase(p);
    delete[] static_cast<std::byte*>(p);
  }
  bool do_upload(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return true;
  }
  bool do_download(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return true;
  }
  bool do_generate(const problems::float_recipe& recipe, void* dst) override {
    generated.push_back(recipe);
    return backend::do_generate(recipe, dst); // filled on the host, as the GPU's kernel would
  }
  std::size_t do_guard_bytes(std::size_t) const override { return 64; }
  void do_before_call(int) override {}
  backends::call_outcome do_after_call() override {
    const std::string kind = plain_fault(plain_calls++);
    return kind.empty() ? backends::call_outcome{} : backends::call_outcome{kind, "scripted", true};
  }
  std::vector<protocol::address_range> do_host_memory() const override { return host; }
  void do_set_fault_fd(int) override {}
  backends::call_timing do_timed_call(const std::function<void()>& call, bool gated) override {
    const int i = timed_calls++;
    gated_calls += gated ? 1 : 0;
    const auto start = std::chrono::steady_clock::now();
    call();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    backends::call_timing t;
    if (const auto kind = fault(i); !kind.empty()) {
      t.outcome = {kind, "scripted fault", true};
      return t;
    }
    t.gate_expired = gated && waits_on_device(i);
    t.event_ms = measure_wall_time ? took.count() : event_ms(i);
    t.host_ms = t.event_ms + 0.01;
    return t;
  }
  void do_flush_cache() override { ++flushes; }
  double do_sm_clock_mhz() override { return clock_mhz(clock_reads++); }
  double do_max_sm_clock_mhz() override { return 1980.0; }

private:
  std::set<void*> m_live;
};

} // namespace cugrade::testing
