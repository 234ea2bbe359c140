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

// Names and shapes that only hidden tests carry, longest first so a name goes before its shape.
std::vector<std::string> hidden_secrets(const kernel_report& k) {
  std::set<std::string> hidden;
  std::set<std::string> known;
  for (const test_result& t : k.tests) {
    auto& into = conceals_details(k, t) ? hidden : known;
    into.insert(t.name);
    into.insert(t.shape);
  }
  for (const performance_entry& p : k.performance) {
    known.insert(p.shape);
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
    }
  }
  scrub(out.message, secrets);
  for (hint& h : out.diagnosis) {
    scrub(h.message, secrets);
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

report redact(const report& r) {
  report out = r;
  for (kernel_report& k : out.kernels) {
    k = redact_kernel(k);
  }
  return out;
}

} // namespace cugrade::reports
