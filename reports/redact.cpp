#include "reports/redact.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace cugrade::reports {
namespace {

constexpr std::string_view scrubbed = "<hidden case>";
// Shorter strings ("1", "7") are ordinary words of any message; scrubbing them would garble text
// without protecting anything a student could not guess.
constexpr std::size_t min_secret_length = 3;

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// Replaces whole-word occurrences only, so the secret "n=1" leaves "n=1000" alone.
void replace_word(std::string& text, std::string_view secret) {
  std::size_t at = 0;
  while ((at = text.find(secret, at)) != std::string::npos) {
    const std::size_t end = at + secret.size();
    const bool starts_word = at == 0 || !is_word_char(text[at - 1]);
    const bool ends_word = end == text.size() || !is_word_char(text[end]);
    if (starts_word && ends_word) {
      text.replace(at, secret.size(), scrubbed);
      at += scrubbed.size();
    } else {
      at = end;
    }
  }
}

// The sizes in a shape ("17x33x9", "n=1000"): a hint may quote one alone ("n = 1000").
void add_sizes(std::string_view shape, std::set<std::string>& into) {
  std::string digits;
  for (const char c : std::string(shape) + " ") {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      digits += c;
    } else if (!digits.empty()) {
      into.insert(std::exchange(digits, {}));
    }
  }
}

void add_test(const test_result& t, std::set<std::string>& into) {
  into.insert(t.name);
  into.insert(t.shape);
  add_sizes(t.shape, into);
}

// Names, shapes and sizes that only hidden tests carry, longest first so a name goes before its
// shape and a shape before its sizes.
std::vector<std::string> hidden_secrets(const kernel_report& k) {
  std::set<std::string> hidden;
  std::set<std::string> known;
  for (const test_result& t : k.tests) {
    add_test(t, conceals_details(k, t) ? hidden : known);
  }
  for (const performance_entry& p : k.performance) {
    known.insert(p.shape);
    add_sizes(p.shape, known);
  }
  std::vector<std::string> secrets;
  for (const std::string& s : hidden) {
    if (s.size() >= min_secret_length && !known.contains(s)) {
      secrets.push_back(s);
    }
  }
  std::ranges::sort(secrets, [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return secrets;
}

void scrub(std::string& text, const std::vector<std::string>& secrets) {
  for (const std::string& s : secrets) {
    replace_word(text, s);
  }
}

bool names_a_secret(const std::string& text, const std::vector<std::string>& secrets) {
  std::string scrubbed_copy = text;
  scrub(scrubbed_copy, secrets);
  return scrubbed_copy != text;
}

// A hint built from a hidden case's values ("the bins total 999, but n = 1000") gives away more
// than the words scrub() can find (999 is n - 1): it keeps only its kind of mistake.
void redact_hint(hint& h, const std::vector<std::string>& secrets) {
  bool named = names_a_secret(h.message, secrets) || names_a_secret(h.location, secrets);
  for (const std::string& e : h.evidence) {
    named = named || names_a_secret(e, secrets);
  }
  if (named) {
    h.message = hidden_hint_message(h.code);
    h.evidence.clear();
    scrub(h.location, secrets);
  }
}

test_result stripped(const test_result& t, std::size_t ordinal) {
  test_result out;
  out.name = hidden_test_name(t.group, ordinal);
  out.group = t.group;
  out.vis = visibility::hidden;
  out.status = t.status;
  return out;
}

kernel_report redact_kernel(const kernel_report& k) {
  const std::vector<std::string> secrets = hidden_secrets(k);
  kernel_report out = k;
  std::map<std::string, std::size_t> ordinals;
  for (std::size_t i = 0; i < k.tests.size(); ++i) {
    if (conceals_details(k, k.tests[i])) {
      out.tests[i] = stripped(k.tests[i], ++ordinals[k.tests[i].group]);
    } else {
      scrub(out.tests[i].message, secrets);
      scrub(out.tests[i].output, secrets); // a launcher may print what it saw in a hidden case
    }
  }
  scrub(out.message, secrets);
  for (hint& h : out.diagnosis) {
    redact_hint(h, secrets);
  }
  for (performance_entry& p : out.performance) {
    scrub(p.note, secrets);
  }
  return out;
}

} // namespace

bool conceals_details(const kernel_report& k, const test_result& t) {
  if (t.vis == visibility::hidden) {
    return true;
  }
  return std::ranges::any_of(k.groups, [&](const group_result& g) {
    return g.name == t.group && g.vis == visibility::hidden;
  });
}

std::string hidden_test_name(std::string_view group, std::size_t ordinal) {
  return "hidden group " + std::string(group) + " case " + std::to_string(ordinal);
}

redacted_report redact(const report& r) {
  report out = r;
  for (kernel_report& k : out.kernels) {
    k = redact_kernel(k);
  }
  return redacted_report(std::move(out));
}

std::string hidden_hint_message(const hint_code& code) {
  const std::string& words = code.hidden_words();
  return (words.empty() ? std::string("results are wrong") : words) +
         " on hidden tests, whose shapes and values stay hidden: test your kernel on shapes "
         "that are not multiples of the block or tile size, rectangular, tiny and large";
}

} // namespace cugrade::reports
