#include "grader/leaderboard/public_names.h"

#include "grader/leaderboard/pseudonym.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace cugrade::leaderboard {

namespace {

constexpr std::size_t max_nickname_chars = 40;
constexpr std::size_t min_secret_chars = 3; // shorter ids ("al") would veto ordinary words

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Why `nickname` cannot be published (empty when it can).
std::string nickname_problem(const std::string& nickname, const std::vector<std::string>& secrets) {
  if (nickname.size() > max_nickname_chars) {
    return "is longer than 40 characters";
  }
  if (std::any_of(nickname.begin(), nickname.end(),
                  [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
    return "holds a control character";
  }
  const auto folded = lower(nickname);
  for (const auto& secret : secrets) {
    if (secret.size() >= min_secret_chars && folded.find(lower(secret)) != std::string::npos) {
      return "contains a student id, repository or commit";
    }
  }
  return {};
}

// Appends " (2)", " (3)", ... to names already taken.
void make_unique(std::map<std::string, public_name>& names, const std::vector<known_student>& order) {
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
    std::string problem = s.nickname.empty() ? std::string() : nickname_problem(s.nickname, n.secrets);
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
