#include "harness/problems/buffer_words.h"

#include <fmt/format.h>

namespace cugrade::problems {

namespace {

std::string type_words(element_type t, std::size_t count) {
  const char* word = t == element_type::f32 ? "float" : t == element_type::u32 ? "unsigned int"
                                                                               : "byte";
  return std::string(word) + (count == 1 ? "" : "s");
}

} // namespace

std::vector<buffer_spec> case_buffers(const problem& p, const shape& dims) {
  auto buffers = p.inputs(dims);
  buffers.push_back(p.output(dims));
  return buffers;
}

const buffer_spec* buffer_named(const std::vector<buffer_spec>& buffers, std::string_view name,
                                std::size_t bytes) {
  for (const auto& b : buffers) {
    if (b.name == name && byte_size(b) == bytes) {
      return &b;
    }
  }
  return nullptr;
}

long long element_index(const buffer_spec& b, long long offset_bytes) {
  const auto size = static_cast<long long>(element_size(b.type));
  return offset_bytes >= 0 ? offset_bytes / size : -((-offset_bytes + size - 1) / size);
}

std::string extent_words(const buffer_spec& b) {
  if (b.columns > 0) {
    return fmt::format("{} x {} {}", b.count / b.columns, b.columns, type_words(b.type, b.count));
  }
  return fmt::format("{} {}", b.count, type_words(b.type, b.count));
}

std::string element_words(const buffer_spec& b, long long index) {
  if (b.columns > 0 && index >= 0) {
    const auto columns = static_cast<long long>(b.columns);
    return fmt::format("{}[{}][{}]", b.name, index / columns, index % columns);
  }
  return fmt::format("{}[{}]", b.name, index);
}

std::string sized_buffer_words(std::uint64_t bytes) {
  std::uint64_t leading = bytes;
  while (leading >= 1000) {
    leading /= 1000;
  }
  std::uint64_t first_digit = leading;
  while (first_digit >= 10) {
    first_digit /= 10;
  }
  const bool vowel = first_digit == 8 || leading == 11 || leading == 18;
  return fmt::format("{} {}-byte device buffer", vowel ? "an" : "a", bytes);
}

std::string outside_words(const buffer_spec& b, long long offset_bytes) {
  const auto bytes = static_cast<long long>(byte_size(b));
  if (offset_bytes >= 0 && offset_bytes < bytes) {
    return "";
  }
  const std::string where = offset_bytes == bytes ? "just past the end"
                            : offset_bytes > bytes
                                ? fmt::format("{} bytes past the end", offset_bytes - bytes)
                                : fmt::format("{} bytes before the start", -offset_bytes);
  return fmt::format("{} of {} ({}: {}), at {}", where, b.name,
                     sized_buffer_words(static_cast<std::uint64_t>(bytes)), extent_words(b),
                     element_words(b, element_index(b, offset_bytes)));
}

} // namespace cugrade::problems
