#pragma once
/// \file
/// The reference's timings, measured once per GPU and reused for every submission
/// (docs/timing.md, "Reference timings measured once"). An entry is keyed by everything that can
/// change the reference's time: the GPU (UUID), the driver, the reference build (the library's
/// SHA-256), the assignment spec (its SHA-256: cases, seeds) and the case itself, and holds the
/// kept samples of a full measurement. A control measurement with every timed submission keeps
/// the entry honest (the evaluator re-times the reference when the control moved).

#include "grader/perf/performance_entries.h"
#include "harness/problems/problem.h"

#include <filesystem>
#include <optional>
#include <string>

namespace cugrade::perf {

/// What a cached reference time belongs to.
struct reference_timing_key {
  std::string gpu;            ///< the GPU's UUID (its name where no UUID is known)
  std::string driver;
  std::string library_sha256; ///< of the reference's compiled library
  std::string spec_sha256;
  std::string launcher;
  problems::test_case tc;
};

/// A stable file name for `key` (a SHA-256 of every field and the protocol's version).
[[nodiscard]] std::string cache_file_name(const reference_timing_key& key);

class reference_timing_cache {
public:
  /// Entries live in `dir` (<cache_dir>/reference-timings), one JSON file each.
  explicit reference_timing_cache(std::filesystem::path dir) : m_dir(std::move(dir)) {}

  /// The cached samples, or nothing when there are none (or the file is unreadable: then the
  /// reference is simply timed again).
  [[nodiscard]] std::optional<pooled_samples> load(const reference_timing_key& key) const;
  /// Stores `samples` atomically (a concurrent grading reads the old or the new entry, never
  /// half of one); false with `err` when the file cannot be written.
  bool store(const reference_timing_key& key, const pooled_samples& samples,
             std::string* err) const;

  [[nodiscard]] const std::filesystem::path& directory() const noexcept { return m_dir; }

private:
  std::filesystem::path m_dir;
};

} // namespace cugrade::perf
