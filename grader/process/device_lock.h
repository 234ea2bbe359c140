#pragma once
/// \file
/// One lock per GPU for every cugrade process on a machine (docs/timing.md, "sharing a GPU"):
/// correctness and sanitizer runs hold it shared (several at once), timing holds it exclusive
/// (nothing else of cugrade runs on that GPU while samples are taken), so concurrent gradings,
/// a batch and a TA's ad hoc `grade`, never perturb each other's timings.
///
/// The lock is a pair of flock(2) files named after the GPU's UUID in a directory every user of
/// the machine can write (`$CUGRADE_LOCK_DIR`, else /run/lock/cugrade, else
/// <temp>/cugrade-locks). A waiting exclusive holder first takes a turnstile that new shared
/// holders must pass, so a stream of correctness runs cannot starve timing. flock locks end with
/// the process, so a killed grading never leaves the GPU locked.

#include "harness/core/result.h"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace cugrade::process {

enum class lock_mode { shared, exclusive };

class device_lock {
public:
  /// Blocks until the lock of the GPU `uuid` is held in `mode`. `waiting` is called once if the
  /// lock is not free at once (to tell the user why nothing happens). Fails only when the lock
  /// files cannot be opened.
  [[nodiscard]] static result<device_lock>
  acquire(std::string_view uuid, lock_mode mode,
          const std::function<void(std::string_view)>& waiting = {});

  /// The directory lock files live in (created if missing).
  [[nodiscard]] static std::filesystem::path directory();

  device_lock(device_lock&& other) noexcept;
  device_lock& operator=(device_lock&& other) noexcept;
  device_lock(const device_lock&) = delete;
  device_lock& operator=(const device_lock&) = delete;
  ~device_lock();

  [[nodiscard]] lock_mode mode() const noexcept { return m_mode; }

private:
  device_lock(int fd, lock_mode mode) : m_fd(fd), m_mode(mode) {}
  void release() noexcept;
  int m_fd = -1;
  lock_mode m_mode = lock_mode::shared;
};

} // namespace cugrade::process
