#include "grader/fetch/fetch.h"

#include <cstdio>
#include <string>

namespace cugrade::fetch {
namespace {

using namespace std::chrono;

/// A left-to-right reader over the text; every read either consumes what it wants or fails.
class cursor {
public:
  explicit cursor(std::string_view text) : m_text(text) {}

  [[nodiscard]] bool done() const { return m_pos == m_text.size(); }
  [[nodiscard]] char peek() const { return done() ? '\0' : m_text[m_pos]; }

  bool eat(char c) {
    if (peek() != c)
      return false;
    ++m_pos;
    return true;
  }

  /// Exactly `width` decimal digits.
  std::optional<int> digits(int width) {
    int value = 0;
    for (int i = 0; i < width; ++i) {
      const char c = peek();
      if (c < '0' || c > '9')
        return std::nullopt;
      value = value * 10 + (c - '0');
      ++m_pos;
    }
    return value;
  }

  /// One or more digits after a decimal point, as nanoseconds (digits past the ninth dropped).
  std::optional<nanoseconds> fraction() {
    long long ns = 0;
    int count = 0;
    for (char c = peek(); c >= '0' && c <= '9'; c = peek()) {
      if (count < 9)
        ns = ns * 10 + (c - '0');
      ++count;
      ++m_pos;
    }
    if (count == 0)
      return std::nullopt;
    for (int i = count; i < 9; ++i)
      ns *= 10;
    return nanoseconds(ns);
  }

private:
  std::string_view m_text;
  std::size_t m_pos = 0;
};

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

std::optional<sys_days> read_date(cursor& in) {
  const auto y = in.digits(4);
  if (!y || !in.eat('-'))
    return std::nullopt;
  const auto m = in.digits(2);
  if (!m || !in.eat('-'))
    return std::nullopt;
  const auto d = in.digits(2);
  if (!d)
    return std::nullopt;
  const year_month_day date{year{*y}, month{static_cast<unsigned>(*m)},
                            day{static_cast<unsigned>(*d)}};
  if (!date.ok())
    return std::nullopt;
  return sys_days{date};
}

/// "HH:MM[:SS[.fff]]" as the time since midnight.
std::optional<nanoseconds> read_time_of_day(cursor& in) {
  const auto h = in.digits(2);
  if (!h || *h > 23 || !in.eat(':'))
    return std::nullopt;
  const auto m = in.digits(2);
  if (!m || *m > 59)
    return std::nullopt;
  nanoseconds since_midnight = hours(*h) + minutes(*m);
  if (!in.eat(':'))
    return since_midnight;
  const auto s = in.digits(2);
  if (!s || *s > 59)
    return std::nullopt;
  since_midnight += seconds(*s);
  if (in.eat('.') || in.eat(',')) {
    const auto frac = in.fraction();
    if (!frac)
      return std::nullopt;
    since_midnight += *frac;
  }
  return since_midnight;
}

/// "Z", "+HH:MM", "-HHMM" or nothing (UTC), as the offset east of UTC.
std::optional<minutes> read_zone(cursor& in) {
  if (in.done() || in.eat('Z') || in.eat('z'))
    return minutes(0);
  const int sign = in.eat('+') ? 1 : (in.eat('-') ? -1 : 0);
  if (sign == 0)
    return std::nullopt;
  const auto h = in.digits(2);
  if (!h || *h > 23)
    return std::nullopt;
  in.eat(':');
  const auto m = in.digits(2);
  if (!m || *m > 59)
    return std::nullopt;
  return sign * (hours(*h) + minutes(*m));
}

} // namespace

std::optional<system_clock::time_point> parse_iso8601(std::string_view text) {
  cursor in(trim(text));
  const auto date = read_date(in);
  if (!date)
    return std::nullopt;
  if (in.done()) // a date alone is the end of that day, so the whole day counts as on time
    return time_point_cast<system_clock::duration>(*date + days(1) - seconds(1));
  if (!in.eat('T') && !in.eat('t') && !in.eat(' '))
    return std::nullopt;
  const auto time = read_time_of_day(in);
  if (!time)
    return std::nullopt;
  const auto zone = read_zone(in);
  if (!zone || !in.done())
    return std::nullopt;
  return time_point_cast<system_clock::duration>(*date + *time - *zone);
}

result<system_clock::time_point> parse_deadline(std::string_view text) {
  if (auto when = parse_iso8601(text))
    return *when;
  return fail("--deadline \"" + std::string(text) +
              "\" is not a date and time cugrade understands; write it as "
              "2026-11-21T23:59:00Z, 2026-11-21T23:59:00+02:00, \"2026-11-21 23:59\" (UTC) or "
              "2026-11-21 (the end of that day, UTC)");
}

std::string format_iso8601_utc(system_clock::time_point when) {
  const auto secs = floor<seconds>(when);
  const auto day_start = floor<days>(secs);
  const year_month_day date{day_start};
  const hh_mm_ss<seconds> clock{secs - day_start};
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02dZ", int(date.year()),
                unsigned(date.month()), unsigned(date.day()), int(clock.hours().count()),
                int(clock.minutes().count()), int(clock.seconds().count()));
  return buffer;
}

int late_days(system_clock::time_point graded, system_clock::time_point deadline) {
  if (graded <= deadline)
    return 0;
  const auto late = graded - deadline;
  return static_cast<int>(ceil<days>(late).count());
}

} // namespace cugrade::fetch
