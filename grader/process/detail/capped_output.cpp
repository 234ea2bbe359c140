#include "grader/process/detail/capped_output.h"

#include <algorithm>

namespace cugrade::process::detail {

capped_output::capped_output(std::size_t limit)
    : m_head_limit(limit - limit / 2), m_tail_limit(limit / 2) {}

void capped_output::append(std::string_view bytes) {
  const std::size_t head_room = m_head_limit - m_head.size();
  const std::size_t to_head = std::min(head_room, bytes.size());
  m_head.append(bytes.substr(0, to_head));
  push_tail(bytes.substr(to_head));
}

void capped_output::push_tail(std::string_view bytes) {
  if (bytes.empty()) {
    return;
  }
  if (bytes.size() >= m_tail_limit) {
    // Everything already held in the tail, and the front of these bytes, falls out.
    m_dropped += m_tail.size() + (bytes.size() - m_tail_limit);
    m_tail.assign(bytes.substr(bytes.size() - m_tail_limit));
    m_tail_start = 0;
    return;
  }
  const std::size_t room = m_tail_limit - m_tail.size();
  const std::size_t direct = std::min(room, bytes.size());
  m_tail.append(bytes.substr(0, direct));
  for (const char c : bytes.substr(direct)) { // overwrite the oldest bytes of the full ring
    m_tail[m_tail_start] = c;
    m_tail_start = (m_tail_start + 1) % m_tail_limit;
    ++m_dropped;
  }
}

std::string capped_output::text() const {
  std::string out = m_head;
  if (m_dropped > 0) {
    out += "\n[... " + std::to_string(m_dropped) + " bytes omitted ...]\n";
  }
  out.append(m_tail, m_tail_start, std::string::npos);
  out.append(m_tail, 0, m_tail_start);
  return out;
}

} // namespace cugrade::process::detail
