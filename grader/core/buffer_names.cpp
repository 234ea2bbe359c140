#include "grader/core/buffer_names.h"

#include "harness/problems/buffer_words.h"

#include <charconv>
#include <fmt/format.h>
#include <functional>
#include <regex>

namespace cugrade::grader {

namespace {

std::uint64_t hex_number(const std::string& text) {
  std::uint64_t v = 0;
  std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
  return v;
}

// The case's buffer the runner placed at `address` with `bytes`, if it said so.
const problems::buffer_spec* placed_at(const std::vector<problems::buffer_spec>& buffers,
                                       const std::vector<protocol::buffer_place>& places,
                                       std::uint64_t address, std::size_t bytes) {
  for (const auto& p : places) {
    if (p.address == address && p.bytes == bytes) {
      if (const auto* b = problems::buffer_named(buffers, p.name, bytes)) {
        return b;
      }
    }
  }
  return nullptr;
}

// The words for an access `offset` bytes from the start of an unplaced buffer of `bytes` bytes:
// every buffer of that size is named ("M or N"), each with its element.
std::string by_size(const std::vector<problems::buffer_spec>& buffers, const std::string& where,
                    long long offset_bytes, std::size_t bytes) {
  std::vector<const problems::buffer_spec*> fits;
  for (const auto& b : buffers) {
    if (problems::byte_size(b) == bytes) {
      fits.push_back(&b);
    }
  }
  if (fits.empty()) {
    return fmt::format("{} of {}", where, problems::sized_buffer_words(bytes));
  }
  std::string names;
  std::string elements;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    const char* joint = i == 0 ? "" : i + 1 == fits.size() ? " or " : ", ";
    names += joint + fits[i]->name;
    elements +=
        joint + problems::element_words(*fits[i], problems::element_index(*fits[i], offset_bytes));
  }
  return fmt::format("{} of {} ({}: {}), at {}", where, names, problems::sized_buffer_words(bytes),
                     problems::extent_words(*fits.front()), elements);
}

// Every match of `pattern` in `text` replaced by `words(match)`.
std::string each_replaced(const std::string& text, const std::regex& pattern,
                          const std::function<std::string(const std::smatch&)>& words) {
  std::string out;
  auto from = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    out.append(from, (*it)[0].first);
    out += words(*it);
    from = (*it)[0].second;
  }
  out.append(from, text.cend());
  return out;
}

// "result[0] (byte 0 of result, a 4-byte device buffer: 1 float)": the byte `offset` of a case's
// buffer of `bytes` bytes, by its element.
std::string element_of(const problems::buffer_spec& buffer, long long offset, std::size_t bytes) {
  return fmt::format("{} (byte {} of {}, {}: {})",
                     problems::element_words(buffer, problems::element_index(buffer, offset)),
                     offset, buffer.name, problems::sized_buffer_words(bytes),
                     problems::extent_words(buffer));
}

// "byte 0 of a 4-byte device buffer at 0x..." (the emulator's words for host code that
// dereferenced a device pointer) as "result[0] (byte 0 of result, a 4-byte device buffer: 1
// float)"; a buffer the launcher allocated itself is named as such, without its address, so the
// same mistake reads the same on every case.
std::string inside_words(const std::smatch& m, const std::vector<problems::buffer_spec>& buffers,
                         const std::vector<protocol::buffer_place>& places) {
  const auto offset = std::stoll(m[1].str());
  const std::size_t bytes = std::stoull(m[2].str());
  const auto* placed = placed_at(buffers, places, hex_number(m[3].str()), bytes);
  if (placed == nullptr) {
    return fmt::format("byte {} of {} the launcher allocated", offset,
                       problems::sized_buffer_words(bytes));
  }
  return element_of(*placed, offset, bytes);
}

// The GPU runner's words for host code that touched memory it may not (harness/backends/
// host_fault_report.cpp), "of address 0x..., which is not host memory: a device pointer
// dereferenced in host code (...), or a wild pointer": the runner's handler knows only the
// address. Where it lies inside one of the case's buffers, it is that buffer's element, named as
// the emulator's words are above, and not a wild pointer; elsewhere (the launcher's own
// cudaMalloc, a wild pointer) the words stay.
std::string gpu_host_fault_words(const std::smatch& m,
                                 const std::vector<problems::buffer_spec>& buffers,
                                 const std::vector<protocol::buffer_place>& places) {
  const std::uint64_t address = hex_number(m[1].str());
  for (const auto& p : places) {
    if (address < p.address || address - p.address >= p.bytes) {
      continue;
    }
    if (const auto* b = problems::buffer_named(buffers, p.name, p.bytes)) {
      return fmt::format("of {} at {}: {}",
                         element_of(*b, static_cast<long long>(address - p.address), p.bytes),
                         m[1].str(), m[2].str());
    }
  }
  return m[0].str();
}

// "3 bytes past the end of a 1156-byte device buffer at 0x..." (a fault outside a buffer) as
// the buffer the runner put there, or every buffer of that size.
std::string outside_words_of(const std::smatch& m,
                             const std::vector<problems::buffer_spec>& buffers,
                             const std::vector<protocol::buffer_place>& places) {
  const std::size_t bytes = std::stoull(m[4].str());
  const bool before = m[3].matched;
  const long long distance = m[2].matched ? std::stoll(m[2].str())
                             : before     ? std::stoll(m[3].str())
                                          : 0;
  const long long offset = before ? -distance : static_cast<long long>(bytes) + distance;
  const auto* placed =
      m[6].matched ? placed_at(buffers, places, hex_number(m[6].str()), bytes) : nullptr;
  return placed != nullptr ? problems::outside_words(*placed, offset)
                           : by_size(buffers, m[1].str(), offset, bytes);
}

} // namespace

std::string with_buffer_names(const std::string& message, const problems::problem& problem,
                              const problems::shape& dims,
                              const std::vector<protocol::buffer_place>& places) {
  // The emulator's words (harness/emu/src/fault_handler.cpp, runtime_checks.cpp), with the
  // buffer's address since the emulator does not know what the grader called it.
  static const std::regex fault(
      R"((just past the end|([0-9]+) bytes past the end|([0-9]+) bytes before the start) of a ([0-9]+)-byte device buffer( at (0x[0-9a-f]+))?)");
  static const std::regex inside(
      R"(byte ([0-9]+) of a ([0-9]+)-byte device buffer at (0x[0-9a-f]+))");
  // The GPU runner's (harness/backends/host_fault_report.cpp), with the address alone.
  static const std::regex gpu_host(
      R"(of address (0x[0-9a-f]+), which is not host memory: (a device pointer dereferenced in host code \([^)]*\)), or a wild pointer)");
  const auto buffers = problems::case_buffers(problem, dims);
  const std::string named = each_replaced(
      message, fault, [&](const std::smatch& m) { return outside_words_of(m, buffers, places); });
  const std::string inside_named = each_replaced(
      named, inside, [&](const std::smatch& m) { return inside_words(m, buffers, places); });
  return each_replaced(inside_named, gpu_host, [&](const std::smatch& m) {
    return gpu_host_fault_words(m, buffers, places);
  });
}

std::string output_words(const problems::problem& problem, const problems::shape& dims) {
  const auto out = problem.output(dims);
  return fmt::format("{} (the output, {})", out.name, problems::extent_words(out));
}

} // namespace cugrade::grader
