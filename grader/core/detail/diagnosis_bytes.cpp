// Hints from an output right exactly up to a fixed fraction of its elements: a cudaMemset or
// cudaMemcpy given a count of elements where it counts bytes clears or copies only the first
// 1/4 of an array of 4-byte elements (1/2 or 1/8 for other mix-ups of units). Counters past that
// point keep what they held before the call and add their counts to it.
#include "grader/core/detail/diagnosis_evidence.h"

#include <fmt/format.h>
#include <set>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

// Whether the output's elements are counters (unsigned words that threads add into, a
// histogram's bins) rather than values: counters past the right part hold garbage plus a count.
bool counts(const evidence& ev) {
  return ev.size() > 0 &&
         problems::get(ev.problem()).output(ev.dims(0)).type == problems::element_type::u32;
}

// The number of leading elements that are right.
std::size_t right_prefix(const output_evidence& v) {
  std::size_t p = 0;
  while (p < v.got.size() && close_values(v.got[p], v.expected[p])) {
    ++p;
  }
  return p;
}

// Whether every element from `from` on is wrong. Counters must each hold their count plus the
// same garbage, what the uncleared words held before the call (the runner's poison): bins never
// counted into or merged hold less, and shared bins never cleared hold garbage that differs from
// bin to bin.
bool wrong_from(const evidence& ev, const output_evidence& v, std::size_t from) {
  if (from >= v.got.size()) {
    return false;
  }
  const double garbage = v.got[from] - v.expected[from];
  for (std::size_t e = from; e < v.got.size(); ++e) {
    const bool wrong = counts(ev) ? garbage > 0 && v.got[e] - v.expected[e] == garbage
                                  : !close_values(v.got[e], v.expected[e]);
    if (!wrong) {
      return false;
    }
  }
  return true;
}

// Whether case i's output is right on exactly its first 1/parts and wrong after it.
bool right_on_fraction(const evidence& ev, std::size_t i, std::size_t parts) {
  const auto& v = ev.outcome(i).evidence;
  const std::size_t p = right_prefix(v);
  return p == v.got.size() / parts && wrong_from(ev, v, p);
}

// The fraction (1/parts) of case i's output that is right, if it is one of the three.
std::optional<std::size_t> right_fraction(const evidence& ev, std::size_t i) {
  for (const std::size_t parts : {4UL, 2UL, 8UL}) {
    if (right_prefix(ev.outcome(i).evidence) > 0 && right_on_fraction(ev, i, parts)) {
      return parts;
    }
  }
  return std::nullopt;
}

// Outputs this small cannot tell a fraction from a single wrong element.
constexpr std::size_t informative_size = 8;

bool kept_values(const evidence& ev, std::size_t i) {
  const auto& v = ev.outcome(i).evidence;
  return ev.failed_without_fault(i) && !v.got.empty() && v.got.size() == v.expected.size();
}

std::string type_name(problems::element_type t) {
  switch (t) {
  case problems::element_type::u32:
    return "unsigned int";
  case problems::element_type::u8:
    return "unsigned char";
  case problems::element_type::f32:
    break;
  }
  return "float";
}

// The first counter past the cleared part that should count something, else the first past it.
std::size_t example_counter(const output_evidence& v, std::size_t from) {
  for (std::size_t e = from; e < v.got.size(); ++e) {
    if (v.expected[e] > 0) {
      return e;
    }
  }
  return from;
}

std::string counter_words(const evidence& ev, const short_prefix& m,
                          const problems::buffer_spec& out) {
  const auto& v = ev.outcome(m.example).evidence;
  const std::size_t cleared = m.right_elements;
  const std::size_t all = v.got.size();
  const std::size_t b = example_counter(v, cleared);
  const std::string type = type_name(out.type);
  if (m.parts != problems::element_size(out.type)) {
    return fmt::format("{} 0 to {} are right in every failing case and every one from {} up holds "
                       "its count plus garbage: only the first 1/{} of {} was cleared, a size "
                       "computed in the wrong unit. cudaMemset counts bytes: clear {} with "
                       "cudaMemset({}, 0, {} * sizeof({}))",
                       out.name, cleared - 1, cleared, m.parts, out.name, out.name, out.name, all,
                       type);
  }
  return fmt::format("{} 0 to {} are right in every failing case and every one from {} up holds "
                     "its count plus garbage (on {}, {}[{}] is {:.0f} where {:.0f} was expected): "
                     "only the first 1/{} of {} was cleared. cudaMemset counts bytes, not "
                     "elements: cudaMemset({}, 0, {}) clears {} bytes, {} of the {} {} {}. Give "
                     "the size in bytes: cudaMemset({}, 0, {} * sizeof({}))",
                     out.name, cleared - 1, cleared, ev.name(m.example), out.name, b, v.got[b],
                     v.expected[b], m.parts, out.name, out.name, all, all, cleared, all, type,
                     out.name, out.name, all, type);
}

std::string element_words(const evidence& ev, const short_prefix& m,
                          const problems::buffer_spec& out) {
  return fmt::format("on {}, {}[0] to {}[{}] are right and every element from {}[{}] on is "
                     "wrong, and every failing case is right on exactly its first 1/{}: a "
                     "cudaMemcpy or cudaMemset given a number of elements where it counts bytes "
                     "(n where n * sizeof({}) is meant) moves only that part. Give every size in "
                     "bytes: n * sizeof({})",
                     ev.name(m.example), out.name, out.name, m.right_elements - 1, out.name,
                     m.right_elements, m.parts, type_name(out.type), type_name(out.type));
}

} // namespace

std::optional<short_prefix> bytes_for_elements_match(const evidence& ev) {
  std::optional<short_prefix> found;
  std::set<std::size_t> sizes;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (!kept_values(ev, i) || ev.outcome(i).evidence.got.size() < informative_size) {
      continue;
    }
    const auto parts = right_fraction(ev, i);
    if (!parts || (found && found->parts != *parts)) {
      return std::nullopt;
    }
    if (!found) {
      found = short_prefix{*parts, i, right_prefix(ev.outcome(i).evidence), 0};
    }
    sizes.insert(ev.outcome(i).evidence.got.size());
  }
  // Float outputs need two sizes: one section of a fixed length (a scan restarting at 256 on
  // n = 1024) is a quarter of one size only.
  if (!found || (!counts(ev) && sizes.size() < 2)) {
    return std::nullopt;
  }
  // Outputs too small to tell are explained too where they fit (n = 3 copied as 3 bytes is
  // wrong from its first element), and so are failing outputs too large to keep values: a size
  // in the wrong unit is wrong on every size.
  found->matched = ev.count([&](std::size_t i) {
    const bool unkept = ev.failed_without_fault(i) && ev.outcome(i).evidence.got.empty();
    return unkept || (kept_values(ev, i) && right_on_fraction(ev, i, found->parts));
  });
  return found;
}

std::optional<candidate> bytes_for_elements_pattern(const evidence& ev) {
  const auto m = bytes_for_elements_match(ev);
  if (!m) {
    return std::nullopt;
  }
  const auto& problem = problems::get(ev.problem());
  const auto out = problem.output(ev.dims(m->example));
  candidate c{hint_code::bytes_for_elements,
              specificity::cause,
              counts(ev) ? counter_words(ev, *m, out) : element_words(ev, *m, out),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("in {} failing cases exactly the first 1/{} of {} is right, "
                                  "e.g. {} elements of {} on {}",
                                  m->matched, m->parts, out.name, m->right_elements,
                                  ev.outcome(m->example).evidence.got.size(), ev.name(m->example)));
  c.failures_explained = m->matched;
  return c;
}

} // namespace cugrade::grader::detail
