#include "reports/hint_code.h"

#include "harness/core/error.h"

#include <algorithm>
#include <span>
#include <utility>

namespace cugrade::reports {

namespace {

struct shared_code {
  std::string_view word;
  std::string_view hidden;
  bool causes_memory_faults = false;
};

// The codes every kind shares, with what a hint says when only hidden tests show the mistake.
// A function's table, not namespace-scope objects, so codes made during static initialisation
// elsewhere find it.
std::span<const shared_code> shared_table() {
  static constexpr shared_code codes[]{
      {"boundary_check", "results go wrong at the edges of some shapes (a missing boundary check)",
       true},
      {"poison_left", "part of the output is never written"},
      {"canary_overwritten", "the kernel writes past the end of its output"},
      {"race", "results change from run to run (a race)"},
      {"barrier_divergence", "a barrier is not reached by every thread of a block"},
      {"out_of_bounds", "a memory access is out of bounds"},
      {"launch_failure", "a launch fails"},
      {"device_assert", "an assert in a kernel fails"},
      {"misaligned_address", "a load or store is not aligned to its type's size"},
      {"timeout", "a run does not finish in time"},
      {"missing_launcher", ""},
      {"forbidden_symbol", ""},
      {"build_error", ""},
      {"wrong_result", ""},
      {"input_modified", "the kernel changes its input"},
      {"not_cleared", "the output is not cleared before it is accumulated into"},
      {"stale_result", "an output answers an earlier call"},
      {"size_threshold", "the kernel is right only up to some size"},
      {"bytes_for_elements", "a size is counted in elements where bytes are needed"},
  };
  return codes;
}

const shared_code* find_shared(std::string_view word) {
  const auto codes = shared_table();
  const auto it = std::find_if(codes.begin(), codes.end(),
                               [&](const shared_code& c) { return c.word == word; });
  return it == codes.end() ? nullptr : &*it;
}

} // namespace

std::vector<hint_code> hint_code::shared_codes() {
  std::vector<hint_code> out;
  for (const shared_code& c : shared_table()) {
    out.emplace_back(c.word);
  }
  return out;
}

bool hint_code::well_formed(std::string_view word) {
  constexpr std::size_t longest = 64;
  if (word.empty() || word.size() > longest || word.front() < 'a' || word.front() > 'z') {
    return false;
  }
  return std::all_of(word.begin(), word.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
  });
}

hint_code::hint_code(std::string word, std::string hidden_words, bool causes_memory_faults)
    : m_word(std::move(word)), m_hidden_words(std::move(hidden_words)),
      m_causes_memory_faults(causes_memory_faults) {
  if (!well_formed(m_word)) {
    CUGRADE_THROW("a hint code must be lowercase words joined by underscores, not \"" + m_word +
                  "\"");
  }
}

hint_code::hint_code(std::string_view word) : hint_code(std::string(word), "") {
  if (const shared_code* c = find_shared(word)) {
    m_hidden_words = c->hidden;
    m_causes_memory_faults = c->causes_memory_faults;
  }
}

const hint_code hint_code::boundary_check{"boundary_check"};
const hint_code hint_code::poison_left{"poison_left"};
const hint_code hint_code::canary_overwritten{"canary_overwritten"};
const hint_code hint_code::race{"race"};
const hint_code hint_code::barrier_divergence{"barrier_divergence"};
const hint_code hint_code::out_of_bounds{"out_of_bounds"};
const hint_code hint_code::launch_failure{"launch_failure"};
const hint_code hint_code::device_assert{"device_assert"};
const hint_code hint_code::misaligned_address{"misaligned_address"};
const hint_code hint_code::timeout{"timeout"};
const hint_code hint_code::missing_launcher{"missing_launcher"};
const hint_code hint_code::forbidden_symbol{"forbidden_symbol"};
const hint_code hint_code::build_error{"build_error"};
const hint_code hint_code::wrong_result{"wrong_result"};
const hint_code hint_code::input_modified{"input_modified"};
const hint_code hint_code::not_cleared{"not_cleared"};
const hint_code hint_code::stale_result{"stale_result"};
const hint_code hint_code::size_threshold{"size_threshold"};
const hint_code hint_code::bytes_for_elements{"bytes_for_elements"};

} // namespace cugrade::reports
