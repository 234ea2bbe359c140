#include "grader/core/buffer_names.h"

#include <fmt/format.h>
#include <regex>

namespace cugrade::grader {

namespace {

std::string element_words(problems::element_type t, std::size_t count) {
  const char* word = t == problems::element_type::f32   ? "float"
                     : t == problems::element_type::u32 ? "unsigned int"
                                                        : "byte";
  return std::string(word) + (count == 1 ? "" : "s");
}

// "17 x 17 floats" or "1000 floats".
std::string extent(const problems::buffer_spec& b) {
  if (b.columns > 0) {
    return fmt::format("{} x {} {}", b.count / b.columns, b.columns,
                       element_words(b.type, b.count));
  }
  return fmt::format("{} {}", b.count, element_words(b.type, b.count));
}

// The element at `index` (may be negative or past the end): "P[17][0]", "input[-1]".
std::string element(const problems::buffer_spec& b, long long index) {
  if (b.columns > 0 && index >= 0) {
    const auto columns = static_cast<long long>(b.columns);
    return fmt::format("{}[{}][{}]", b.name, index / columns, index % columns);
  }
  return fmt::format("{}[{}]", b.name, index);
}

std::vector<problems::buffer_spec> case_buffers(const problems::problem& problem,
                                                const problems::shape& dims) {
  auto buffers = problem.inputs(dims);
  buffers.push_back(problem.output(dims));
  return buffers;
}

// The replacement for one match: the buffers of `bytes` bytes and the element reached.
std::string named(const std::vector<problems::buffer_spec>& buffers, const std::string& where,
                  long long offset_bytes, std::size_t bytes) {
  std::vector<const problems::buffer_spec*> fits;
  for (const auto& b : buffers) {
    if (problems::byte_size(b) == bytes) {
      fits.push_back(&b);
    }
  }
  if (fits.empty()) {
    return fmt::format("{} a {}-byte device buffer", where, bytes);
  }
  std::string names;
  std::string elements;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    const char* joint = i == 0 ? "" : i + 1 == fits.size() ? " or " : ", ";
    names += joint + fits[i]->name;
    const auto size = static_cast<long long>(problems::element_size(fits[i]->type));
    const long long index =
        offset_bytes >= 0 ? offset_bytes / size : -((-offset_bytes + size - 1) / size);
    elements += joint + element(*fits[i], index);
  }
  return fmt::format("{} {} (a {}-byte device buffer: {}), at {}", where, names, bytes,
                     extent(*fits.front()), elements);
}

} // namespace

std::string with_buffer_names(const std::string& message, const problems::problem& problem,
                              const problems::shape& dims) {
  // The emulator's words (harness/emu/src/fault_handler.cpp, runtime_checks.cpp).
  static const std::regex fault(
      R"((just past the end|([0-9]+) bytes past the end|([0-9]+) bytes before the start) of a ([0-9]+)-byte device buffer)");
  const auto buffers = case_buffers(problem, dims);
  std::string out;
  auto from = message.cbegin();
  for (std::sregex_iterator it(message.begin(), message.end(), fault), end; it != end; ++it) {
    const std::smatch& m = *it;
    const std::size_t bytes = std::stoull(m[4].str());
    const bool before = m[3].matched;
    const long long distance = m[2].matched ? std::stoll(m[2].str())
                               : before     ? std::stoll(m[3].str())
                                            : 0;
    const long long offset = before ? -distance : static_cast<long long>(bytes) + distance;
    const std::string where = m[1].str() + " of";
    out.append(from, m[0].first);
    out += named(buffers, where, offset, bytes);
    from = m[0].second;
  }
  out.append(from, message.cend());
  return out;
}

std::string output_words(const problems::problem& problem, const problems::shape& dims) {
  const auto out = problem.output(dims);
  return fmt::format("{} (the output, {})", out.name, extent(out));
}

} // namespace cugrade::grader
