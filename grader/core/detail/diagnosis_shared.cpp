// Hints from an access outside a declared __shared__ array, which the fault message names with
// the array, the index and the array's size. The words are read from the message until the
// runner protocol carries them as fields (the emulator's shared bounds, issue 37).
#include "grader/core/detail/diagnosis_evidence.h"

#include <charconv>
#include <fmt/format.h>
#include <regex>

namespace cugrade::grader::detail {

namespace {

long number(const std::ssub_match& m) {
  long v = 0;
  std::from_chars(&*m.first, &*m.first + m.length(), v);
  return v;
}

} // namespace

std::optional<shared_access> shared_access_in(const std::string& message) {
  // NAME[INDEX] written|read|updated|updated by an atomic at FILE:LINE by thread T of block B;
  // NAME has N elements, where T and B are linear ("512") or coordinates ("(512,0,0)").
  static const std::regex pattern(
      R"(([A-Za-z_]\w*)\[(-?\d+)\] (written|read|updated(?: by an atomic)?) at ([^ :]+:\d+) )"
      R"(by thread )"
      R"((\d+|\([0-9, ]+\)) of block (\d+|\([0-9, ]+\)); \1 has (\d+) elements)");
  std::smatch m;
  if (!std::regex_search(message, m, pattern)) {
    return std::nullopt;
  }
  const std::string access =
      m[3].str() == "updated by an atomic" ? "updated atomically" : m[3].str();
  return shared_access{m[1].str(), number(m[2]), number(m[7]), access,
                       m[4].str(), m[5].str(),   m[6].str()};
}

std::string shared_array_advice(const shared_access& a) {
  const std::string where =
      a.index == a.elements ? "one element past its end: a bound tested with <= where < was meant, "
                              "or an index that counts from 1"
      : a.index < 0         ? "below its start: an index that goes negative"
                            : "past its end: the array is smaller than the indices the threads use";
  return fmt::format("{}[{}] is {} by thread {} of block {}, but the __shared__ array {} has {} "
                     "elements ({}[0] to {}[{}]): {}. Keep every index below {}, or declare {} "
                     "with as many elements as the largest index a thread uses plus one",
                     a.array, a.index, a.access, a.thread, a.block, a.array, a.elements, a.array,
                     a.array, a.elements - 1, where, a.elements, a.array);
}

} // namespace cugrade::grader::detail
