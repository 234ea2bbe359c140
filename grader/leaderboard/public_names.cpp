#include "grader/leaderboard/public_names.h"

#include "grader/leaderboard/name_folding.h"
#include "grader/leaderboard/pseudonym.h"
#include "harness/core/untrusted_text.h"

#include <algorithm>
#include <set>

namespace cugrade::leaderboard {

namespace {

constexpr std::size_t max_nickname_chars = 40;
constexpr std::size_t min_secret_chars = 3; // shorter ids ("al") would veto ordinary words

// Why `nickname` cannot be published (empty when it can). Both sides are compared folded
// (name_folding.h), so a zero-width space, fullwidth letters or case hide no id.
std::string nickname_problem(const std::string& nickname, const std::vector<std::string>& secrets) {
  if (nickname.size() > max_nickname_chars) {
    return "is longer than 40 characters";
  }
  const auto folded = folded_for_matching(nickname);
  for (const auto& secret : secrets) {
    const auto folded_secret = folded_for_matching(secret);
    if (folded_secret.size() >= min_secret_chars &&
        folded.find(folded_secret) != std::string::npos) {
      return "contains a student id, repository or commit";
    }
  }
  if (escape_untrusted_text(nickname) != nickname) {
    return "holds a control character, a bidirectional formatting character or bytes that are "
           "not UTF-8";
  }
  return {};
}

// Appends " (2)", " (3)", ... to names already taken.
void make_unique(std::map<std::string, public_name>& names,
                 const std::vector<known_student>& order) {
  std::set<std::string> taken;
  for (const auto& s : order) {
    auto& name = names.at(s.student).name;
    const std::string base = name;
    for (int n = 2; taken.contains(name); ++n) {
      name = base + " (" + std::to_string(n) + ")";
    }
    taken.insert(name);
  }
}

} // namespace

result<named_students> name_students(const naming& n) {
  named_students out;
  for (const auto& s : n.students) {
    std::string problem =
        s.nickname.empty() ? std::string() : nickname_problem(s.nickname, n.secrets);
    if (!s.nickname.empty() && problem.empty()) {
      out.by_student[s.student] = {s.nickname, true};
      continue;
    }
    if (!problem.empty()) {
      out.warnings.push_back("the nickname of " + s.student + " " + problem +
                             "; published under a pseudonym instead");
    }
    if (n.salt.empty()) {
      return fail_usage("student " + s.student +
                        " has no usable nickname and needs a pseudonym: give the course's secret "
                        "with --salt S (or CUGRADE_LEADERBOARD_SALT); keep it private and the same "
                        "all term so pseudonyms stay stable");
    }
    out.by_student[s.student] = {pseudonym(n.salt, s.student), false};
  }
  make_unique(out.by_student, n.students);
  return out;
}

} // namespace cugrade::leaderboard
