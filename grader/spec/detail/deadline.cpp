#include "grader/spec/detail/deadline.h"

#include <chrono>
#include <cstdio>

namespace cugrade::spec::detail {

namespace {

// Reads exactly `width` digits at `pos`.
std::optional<int> digits(std::string_view text, std::size_t pos, std::size_t width) {
  if (pos + width > text.size())
    return std::nullopt;
  int value = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9')
      return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool separator_at(std::string_view text, std::size_t pos, char c) {
  return pos < text.size() && text[pos] == c;
}

// The zone suffix as an offset east of UTC, in minutes: "Z", "+HH:MM" or "-HH:MM".
std::optional<int> zone_offset_minutes(std::string_view zone) {
  if (zone == "Z")
    return 0;
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':')
    return std::nullopt;
  const auto h = digits(zone, 1, 2);
  const auto m = digits(zone, 4, 2);
  if (!h || !m || *h > 23 || *m > 59)
    return std::nullopt;
  return (zone[0] == '-' ? -1 : 1) * (*h * 60 + *m);
}

std::string format_utc(std::chrono::sys_seconds t) {
  const auto day = std::chrono::floor<std::chrono::days>(t);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss<std::chrono::seconds> hms{t - day};
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02dZ", int(ymd.year()),
                unsigned(ymd.month()), unsigned(ymd.day()), int(hms.hours().count()),
                int(hms.minutes().count()), int(hms.seconds().count()));
  return buffer;
}

} // namespace

std::optional<std::string> normalise_deadline(std::string_view text) {
  const auto y = digits(text, 0, 4), mo = digits(text, 5, 2), d = digits(text, 8, 2);
  const auto h = digits(text, 11, 2), mi = digits(text, 14, 2), s = digits(text, 17, 2);
  if (!y || !mo || !d || !h || !mi || !s || !separator_at(text, 4, '-') ||
      !separator_at(text, 7, '-') || !separator_at(text, 10, 'T') || !separator_at(text, 13, ':') ||
      !separator_at(text, 16, ':'))
    return std::nullopt;
  const auto offset = zone_offset_minutes(text.substr(std::min<std::size_t>(19, text.size())));
  const std::chrono::year_month_day ymd{std::chrono::year{*y}, std::chrono::month(unsigned(*mo)),
                                        std::chrono::day(unsigned(*d))};
  if (!offset || !ymd.ok() || *h > 23 || *mi > 59 || *s > 59)
    return std::nullopt;
  const auto local = std::chrono::sys_days{ymd} + std::chrono::hours{*h} +
                     std::chrono::minutes{*mi} + std::chrono::seconds{*s};
  return format_utc(local - std::chrono::minutes{*offset});
}

} // namespace cugrade::spec::detail
