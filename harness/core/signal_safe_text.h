#pragma once
/// \file
/// A bounded, allocation-free text builder for signal handlers: what a handler that reports a
/// fault may use (no malloc, no locale, no stdio). Text past its capacity is dropped.

#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace cugrade {

class signal_safe_text {
public:
  void put(char c) {
    if (m_len + 2 < sizeof m_buf) {
      m_buf[m_len++] = c;
    }
  }
  void text(const char* s) {
    while (*s != '\0') {
      put(*s++);
    }
  }
  /// `s` as a JSON string, quotes included (a null pointer reads as "").
  void json_string(const char* s) {
    put('"');
    for (; s != nullptr && *s != '\0'; ++s) {
      const auto c = static_cast<unsigned char>(*s);
      if (c == '"' || c == '\\') {
        put('\\');
        put(static_cast<char>(c));
      } else if (c < 0x20) {
        text("\\u00");
        put(k_digits[c >> 4]);
        put(k_digits[c & 15]);
      } else {
        put(static_cast<char>(c));
      }
    }
    put('"');
  }
  void number(std::uint64_t v) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) {
      put(digits[--n]);
    }
  }
  /// "0x" and the lowercase hex digits, no leading zeros.
  void hex(std::uint64_t v) {
    text("0x");
    bool started = false;
    for (int shift = 60; shift >= 0; shift -= 4) {
      const unsigned d = (v >> shift) & 15u;
      if (d != 0 || started || shift == 0) {
        put(k_digits[d]);
        started = true;
      }
    }
  }
  /// Writes the whole text to `fd` (write(2) may take it in parts); gives up on an error.
  void write_to(int fd) const {
    const char* p = m_buf;
    std::size_t n = m_len;
    while (n > 0) {
      const ssize_t k = write(fd, p, n);
      if (k <= 0) {
        return;
      }
      p += k;
      n -= static_cast<std::size_t>(k);
    }
  }
  [[nodiscard]] const char* data() const { return m_buf; }
  [[nodiscard]] std::size_t size() const { return m_len; }

private:
  static constexpr const char* k_digits = "0123456789abcdef";
  char m_buf[3072];
  std::size_t m_len = 0;
};

} // namespace cugrade
