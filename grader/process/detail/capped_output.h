#pragma once
/// \file
/// A byte sink that keeps the head and the tail of a stream and counts what it dropped, so a
/// program that prints gigabytes cannot exhaust the grader's memory, yet both its first error and
/// its last words survive.

#include <cstddef>
#include <string>
#include <string_view>

namespace cugrade::process::detail {

/// Keeps at most `limit` bytes: the first half and the most recent half of everything appended.
class capped_output {
public:
  explicit capped_output(std::size_t limit);

  /// Appends bytes read from the stream.
  void append(std::string_view bytes);

  /// True once anything had to be dropped.
  [[nodiscard]] bool truncated() const noexcept { return m_dropped > 0; }

  /// Bytes dropped from the middle of the stream.
  [[nodiscard]] std::size_t dropped() const noexcept { return m_dropped; }

  /// Head, then a one-line marker naming the dropped byte count (if any), then tail.
  [[nodiscard]] std::string text() const;

private:
  void push_tail(std::string_view bytes);

  std::size_t m_head_limit;
  std::size_t m_tail_limit;
  std::string m_head;
  std::string m_tail; // ring buffer once full; m_tail_start is its oldest byte
  std::size_t m_tail_start = 0;
  std::size_t m_dropped = 0;
};

} // namespace cugrade::process::detail
