#pragma once
/// \file
/// The name each student is published under: the roster's nickname when it is safe to publish,
/// else a pseudonym (pseudonym.h). A nickname is not used when it is longer than 40 bytes, when
/// it contains any roster student id of 3 or more characters, any repository or any graded
/// commit (compared after NFKC case folding with zero-width and other format characters removed,
/// name_folding.h: "s2001-\u200Bbob" and "Ｓ２００１-ＢＯＢ" name s2001-bob), or when it holds a
/// control character, a bidirectional formatting character or bytes that are not UTF-8 (what
/// escape_untrusted_text would change): a nickname must never carry what anonymity hides, nor
/// reorder the page it is shown on. Names that come out equal get " (2)", " (3)", ... in student
/// order.

#include "harness/core/result.h"

#include <map>
#include <string>
#include <vector>

namespace cugrade::leaderboard {

struct known_student {
  std::string student;
  std::string nickname; ///< from the roster; may be empty
};

struct naming {
  std::string salt;                    ///< the course's secret; needed for any pseudonym
  std::vector<known_student> students; ///< sorted by student id
  /// Every text that must never appear in a public name: roster ids, repositories, commits.
  std::vector<std::string> secrets;
};

struct public_name {
  std::string name;
  bool from_nickname = false;
};

struct named_students {
  std::map<std::string, public_name> by_student;
  std::vector<std::string> warnings; ///< nicknames not used, and why (for the instructor only)
};

/// Names every student. Fails (usage) when a student needs a pseudonym and the salt is empty.
[[nodiscard]] result<named_students> name_students(const naming& n);

} // namespace cugrade::leaderboard
