#include "harness/core/iso8601.h"

#include <algorithm>
#include <array>
#include <date/date.h>
#include <regex>
#include <sstream>

namespace cugrade {

const char* const iso8601_accepted_forms =
    "2026-11-21T23:59:00Z, 2026-11-21T23:59:00+02:00, \"2026-11-21 23:59\" (UTC) or 2026-11-21 "
    "(the end of that day, UTC)";

namespace {

using namespace std::chrono;
using time_point = system_clock::time_point;

// The shape of the accepted forms (after canonical_spelling): exactly two digits where ISO 8601
// writes two, a zone of Z or +hh[:]mm within a day. date::parse alone reads "2026-1-2" and
// "+2", and lets the zone run past 23:59; it checks the values (months, leap days, 24:00).
bool has_iso_shape(const std::string& s) {
  static const std::regex shape(
      R"(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?)?)");
  return std::regex_match(s, shape);
}

// One spelling of each accepted form: upper-case 'T' and 'Z', a 'T' between date and time, and
// '.' before fractional seconds.
std::string canonical_spelling(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  std::string s(text);
  if (s.size() > 10 && s[10] == ' ') {
    s[10] = 'T';
  }
  for (char& c : s) {
    c = c == 't' ? 'T' : (c == 'z' ? 'Z' : (c == ',' ? '.' : c));
  }
  return s;
}

// Parses the whole of `text` with one date::parse format; nothing may be left over.
bool parse_whole(const std::string& text, const char* format, time_point& out) {
  std::istringstream in(text);
  time_point parsed;
  in >> date::parse(format, parsed);
  if (in.fail() || in.peek() != std::char_traits<char>::eof()) {
    return false;
  }
  out = parsed;
  return true;
}

// %Ez reads "+02:00", %z reads "+0200"; both subtract the offset to give UTC.
constexpr std::array<const char*, 8> date_time_formats = {
    "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S%Ez", "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%dT%H:%MZ",    "%Y-%m-%dT%H:%M%Ez",    "%Y-%m-%dT%H:%M%z",    "%Y-%m-%dT%H:%M"};

} // namespace

result<time_point> parse_iso8601(std::string_view text) {
  const std::string s = canonical_spelling(text);
  time_point when;
  if (has_iso_shape(s)) {
    if (s.size() == 10 && parse_whole(s, "%Y-%m-%d", when)) {
      return when + days(1) - seconds(1); // a date alone: the whole day counts as on time
    }
    for (const char* format : date_time_formats) {
      if (s.size() > 10 && parse_whole(s, format, when)) {
        return when;
      }
    }
  }
  return fail("\"" + std::string(text) + "\" is not a date and time cugrade understands; write it as " +
              iso8601_accepted_forms);
}

std::string format_iso8601_utc(time_point when) {
  return date::format("%Y-%m-%dT%H:%M:%SZ", floor<seconds>(when));
}

} // namespace cugrade
