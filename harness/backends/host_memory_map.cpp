#include "harness/backends/host_memory_map.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace cugrade::backends {

namespace {

bool hex_number(std::string_view text, std::uint64_t& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

// One line's range when it is host memory a process reads.
bool readable_host_range(const std::string& line, protocol::address_range& out) {
  std::istringstream fields(line);
  std::string range, perms, offset, device, inode, path;
  fields >> range >> perms >> offset >> device >> inode;
  std::getline(fields >> std::ws, path);
  const auto dash = range.find('-');
  if (dash == std::string::npos || perms.empty() || perms[0] != 'r' ||
      path.starts_with("/dev/nvidia")) {
    return false;
  }
  const std::string_view text(range);
  return hex_number(text.substr(0, dash), out.begin) &&
         hex_number(text.substr(dash + 1), out.end) && out.begin < out.end;
}

} // namespace

std::vector<protocol::address_range> readable_ranges(std::istream& maps) {
  std::vector<protocol::address_range> out;
  std::string line;
  protocol::address_range r;
  while (std::getline(maps, line)) {
    if (!readable_host_range(line, r)) {
      continue;
    }
    if (!out.empty() && out.back().end == r.begin) {
      out.back().end = r.end; // a library's segments, a heap grown in steps
    } else {
      out.push_back(r);
    }
  }
  return out;
}

std::vector<protocol::address_range> readable_host_memory() {
  std::ifstream maps("/proc/self/maps");
  return maps ? readable_ranges(maps) : std::vector<protocol::address_range>{};
}

} // namespace cugrade::backends
