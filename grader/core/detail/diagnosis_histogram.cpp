// Hints from the values of a histogram's wrong bins: bins holding garbage plus their count, bins
// wrong only from some index up, totals below or above n.
#include "grader/core/detail/diagnosis_kinds.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

const reports::hint_code lost_updates{"lost_updates",
                                      "updates are lost (increments that are not atomic)"};
const reports::hint_code private_bins{"private_bins", "private bins are merged wrongly"};
const reports::hint_code signed_bytes{"signed_bytes", "bytes are read as signed char", true};

// Every bin is its count plus one constant (mod 2^32): the constant is what the bins held.
std::optional<std::uint32_t> constant_offset(const output_evidence& v) {
  if (v.got.size() != v.expected.size() || v.got.empty()) {
    return std::nullopt;
  }
  const auto offset = [&](std::size_t b) {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v.got[b]) -
                                      static_cast<std::uint64_t>(v.expected[b]));
  };
  const std::uint32_t first = offset(0);
  for (std::size_t b = 1; b < v.got.size(); ++b) {
    if (offset(b) != first) {
      return std::nullopt;
    }
  }
  return first == 0 ? std::nullopt : std::optional(first);
}

std::vector<std::size_t> wrong_bins(const output_evidence& v) {
  std::vector<std::size_t> out;
  for (std::size_t b = 0; b < v.got.size() && b < v.expected.size(); ++b) {
    if (v.got[b] != v.expected[b]) {
      out.push_back(b);
    }
  }
  return out;
}

std::string total_words(const problems::comparison& c) {
  return fmt::format("the bins total {:.0f}, but n = {:.0f}", *c.total_got, *c.total_expected);
}

bool total_off(const evidence& ev, std::size_t i, bool below) {
  const auto& c = ev.outcome(i).comparison;
  if (!ev.failed_without_fault(i) || !c || !c->total_got || !c->total_expected ||
      c->poison_count != 0) {
    return false;
  }
  return below ? *c->total_got < *c->total_expected : *c->total_got > *c->total_expected;
}

std::optional<std::size_t> total_case(const evidence& ev, bool below) {
  return ev.first([&](std::size_t i) { return total_off(ev, i, below); });
}

std::size_t count_totals(const evidence& ev, bool below) {
  return ev.count([&](std::size_t i) { return total_off(ev, i, below); });
}

// A high-contention case fails while a uniform one of the same size passes.
std::optional<std::string> contention_evidence(const evidence& ev) {
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const auto& d = ev.at(i).tc.distribution;
    if (!ev.failed_without_fault(i) || (d != "single" && d != "contention90")) {
      continue;
    }
    for (std::size_t j = 0; j < ev.size(); ++j) {
      if (ev.good(j) && ev.dims(j) == ev.dims(i) && ev.at(j).tc.distribution == "uniform") {
        return fmt::format("{} fails with {} data (most bytes in one bin) but passes with "
                           "uniform data: the losses follow contention",
                           ev.name(i), d);
      }
    }
  }
  return std::nullopt;
}

bool bins_not_cleared(const evidence& ev) {
  const auto failing = failing_with_values(ev);
  if (failing.empty()) {
    return false;
  }
  for (const std::size_t i : failing) {
    if (!constant_offset(ev.outcome(i).evidence)) {
      return false;
    }
  }
  return true;
}

std::optional<candidate> not_cleared_bins(const evidence& ev) {
  if (!bins_not_cleared(ev)) {
    return std::nullopt;
  }
  const std::size_t i = failing_with_values(ev).front();
  const std::uint32_t garbage = *constant_offset(ev.outcome(i).evidence);
  candidate c{hint_code::not_cleared,
              specificity::cause,
              fmt::format("every bin holds its count plus {} (0x{:08x}, what the bins held before "
                          "the call): the bins were never cleared. They arrive holding garbage; "
                          "the launcher must set them to 0 (cudaMemset(bins, 0, 256 * "
                          "sizeof(unsigned int))) before the kernel counts into them",
                          garbage, garbage),
              "",
              {},
              {}};
  c.support.push_back(
      fmt::format("on {} every bin is the expected count plus 0x{:08x}", ev.name(i), garbage));
  c.failures_explained = failing_with_values(ev).size();
  return c;
}

// A bin far above anything counting could reach (bytes counted again by every block stay
// within a few times n) started from garbage; the poison word is left to other rules.
std::optional<std::size_t> garbage_bin_of(const evidence& ev, std::size_t i) {
  const auto& v = ev.outcome(i).evidence;
  const double limit = std::max(16.0 * static_cast<double>(ev.dims(i).n), 16777216.0);
  for (std::size_t b = 0; b < v.got.size(); ++b) {
    if (v.got[b] > limit && static_cast<std::uint32_t>(v.got[b]) != problems::output_poison_word) {
      return b;
    }
  }
  return std::nullopt;
}

std::optional<std::pair<std::size_t, std::size_t>> garbage_bin(const evidence& ev) {
  for (const std::size_t i : failing_with_values(ev)) {
    if (const auto b = garbage_bin_of(ev, i)) {
      return std::pair{i, *b};
    }
  }
  return std::nullopt;
}

// Bins that start from garbage without one constant offset: a privatised kernel's shared bins
// were never cleared (their garbage differs per block and per run).
std::optional<candidate> not_cleared_private_bins(const evidence& ev) {
  if (bins_not_cleared(ev)) {
    return std::nullopt;
  }
  const auto g = garbage_bin(ev);
  if (!g) {
    return std::nullopt;
  }
  const auto [i, b] = *g;
  const bool privatized = ev.kernel().find("privat") != std::string::npos;
  candidate c{hint_code::not_cleared,
              specificity::cause,
              fmt::format("bin {} holds {:.0f} on {}, far more than all n = {} bytes: it started "
                          "from garbage. {}",
                          b, ev.outcome(i).evidence.got[b], ev.name(i), ev.dims(i).n,
                          privatized ? "The block's private bins in shared memory start with "
                                       "garbage: clear them (for (int b = threadIdx.x; b < 256; "
                                       "b += blockDim.x) local[b] = 0;) and __syncthreads() "
                                       "before counting"
                                     : "Every bin the kernel adds into must be set to 0 first"),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("bin {} on {} exceeds 16 n", b, ev.name(i)));
  c.failures_explained = ev.count([&](std::size_t k) {
    return ev.failed_without_fault(k) && garbage_bin_of(ev, k).has_value();
  });
  if (const auto short_clear = bytes_for_elements_match(ev)) {
    c.contradictions.push_back(
        fmt::format("the first 1/{} of the bins is right in every failing case and only the "
                    "rest holds garbage: the launcher cleared too few bytes",
                    short_clear->parts));
  }
  return c;
}

std::optional<std::size_t> first_private_bin_wrong(const evidence& ev) {
  if (ev.kernel().find("privat") == std::string::npos || bins_not_cleared(ev)) {
    return std::nullopt;
  }
  const auto failing = failing_with_values(ev);
  std::size_t lowest = 256;
  std::size_t most_wrong = 0;
  for (const std::size_t i : failing) {
    const auto wrong = wrong_bins(ev.outcome(i).evidence);
    if (!wrong.empty()) {
      lowest = std::min(lowest, wrong.front());
      most_wrong = std::max(most_wrong, wrong.size());
    }
  }
  if (failing.empty() || lowest < 16 || lowest >= 256 || most_wrong < 2) {
    return std::nullopt;
  }
  // Every bin from there up that should count something is wrong, in every failing case.
  for (const std::size_t i : failing) {
    const auto& v = ev.outcome(i).evidence;
    for (std::size_t b = lowest; b < v.got.size(); ++b) {
      if (v.expected[b] != 0 && v.got[b] == v.expected[b]) {
        return std::nullopt;
      }
    }
  }
  return lowest;
}

std::optional<candidate> private_bins_pattern(const evidence& ev) {
  const auto from = first_private_bin_wrong(ev);
  if (!from) {
    return std::nullopt;
  }
  candidate c{private_bins,
              specificity::cause,
              fmt::format("bins below {} are right in every case and the bins from {} up are "
                          "wrong: the loops that clear the block's private bins and merge them "
                          "into the global bins cover only the first blockDim.x bins. Stride "
                          "them over all 256 bins: for (int b = threadIdx.x; b < 256; b += "
                          "blockDim.x)",
                          *from, *from),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("in every failing case the first wrong bin is {} or above, "
                                  "and every counted bin from there up is wrong",
                                  *from));
  c.failures_explained = failing_with_values(ev).size();
  if (bytes_for_elements_match(ev)) {
    c.contradictions.push_back("the wrong bins hold more than their counts (garbage plus the "
                               "count), where bins never cleared or merged by the block hold "
                               "less");
  }
  return c;
}

std::optional<candidate> lost_updates_pattern(const evidence& ev) {
  const auto i = total_case(ev, true);
  if (!i) {
    return std::nullopt;
  }
  const bool privatized = ev.kernel().find("privat") != std::string::npos;
  candidate c{lost_updates,
              specificity::pattern,
              total_words(*ev.outcome(*i).comparison) +
                  ": counts were lost. When several threads increment the same bin at once, "
                  "a plain ++ loses all but one increment: every increment of a shared bin needs "
                  "atomicAdd" +
                  (privatized ? ", and the block's private bins need a __syncthreads() "
                                "before they are merged"
                              : ""),
              "",
              {},
              {}};
  c.support.push_back(total_words(*ev.outcome(*i).comparison) + " on " + ev.name(*i));
  c.failures_explained = count_totals(ev, true);
  if (auto contention = contention_evidence(ev)) {
    c.support.push_back(std::move(*contention));
  }
  if (const auto from = first_private_bin_wrong(ev)) {
    c.contradictions.push_back(fmt::format("the missing counts are all in bins {} and up", *from));
  }
  const bool repeatable = !ev.first_schedule_dependent();
  if (repeatable && boundary_shaped(ev) && c.support.size() == 1) {
    c.contradictions.push_back("counts go missing only where n is not a multiple of 16, the "
                               "same way on every run: elements were skipped, not lost");
  }
  return c;
}

std::optional<candidate> overcount_pattern(const evidence& ev) {
  const auto i = total_case(ev, false);
  if (!i) {
    return std::nullopt;
  }
  candidate c{hint_code::wrong_result,
              specificity::cause,
              total_words(*ev.outcome(*i).comparison) +
                  ": some bytes were counted twice (sections that overlap, a grid-stride loop "
                  "that revisits elements) or bytes past the end of the input were counted",
              "",
              {},
              {}};
  c.support.push_back(total_words(*ev.outcome(*i).comparison) + " on " + ev.name(*i));
  c.failures_explained = count_totals(ev, false);
  if (bins_not_cleared(ev)) {
    c.contradictions.push_back("every bin is its count plus the same garbage");
  }
  if (bytes_for_elements_match(ev)) {
    c.contradictions.push_back("the bins over n hold garbage plus their count: they were not "
                               "cleared, not counted twice");
  }
  return c;
}

// Bins indexed by a byte read as a signed char (signed_bytes.h), from the source: bytes 128..255
// index before the bins, which a GPU may or may not catch and the emulator reports as a write
// before the array. Every case that does not pass is explained by it (text-like inputs, all
// below 128, pass).
std::optional<candidate> signed_bytes_cause(const evidence& ev) {
  const auto bad = ev.count([&](std::size_t i) { return ev.bad(i); });
  if (ev.signed_byte_indexes().empty() || bad == 0) {
    return std::nullopt;
  }
  const signed_byte_index& s = ev.signed_byte_indexes().front();
  const std::string where = ev.at_line(s.line);
  candidate c{signed_bytes,
              specificity::cause,
              fmt::format("`{}` at {} indexes {} by a byte of {}, which is declared char: bytes "
                          "128 to 255 read as -128 to -1 and count into {}[-128] to {}[-1], before "
                          "the bins' start, so their counts go missing or land in other memory. "
                          "Read the input as unsigned char (const unsigned char* {}), or index by "
                          "(unsigned char){}[i]",
                          s.access, where, s.array, s.bytes, s.array, s.array, s.bytes, s.bytes),
              where,
              {},
              {}};
  c.support.push_back(fmt::format("{} in {} indexes {} by a char element; {} case(s) did not pass",
                                  s.access, s.function, s.array, bad));
  c.failures_explained = bad;
  return c;
}

} // namespace

kind_diagnosis histogram_diagnosis() {
  return {.kind = "histogram",
          .rules = {{rule_place::after_faults, signed_bytes_cause},
                    {rule_place::after_faults, not_cleared_bins},
                    {rule_place::after_faults, not_cleared_private_bins},
                    {rule_place::after_faults, private_bins_pattern},
                    {rule_place::after_size_patterns, lost_updates_pattern},
                    {rule_place::after_memory_faults, overcount_pattern}},
          .codes = {lost_updates, private_bins, signed_bytes},
          .output_not_cleared = bins_not_cleared};
}

} // namespace cugrade::grader::detail
