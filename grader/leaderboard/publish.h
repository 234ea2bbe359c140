#pragma once
/// \file
/// `cugrade leaderboard`: reads a batch's reports (and optionally its roster for nicknames),
/// builds the boards and writes the published folder, DIR/leaderboard.json and DIR/index.html,
/// plus the instructor's private CSV mapping public names to students, which is never inside DIR
/// (by default it is BATCH_DIR/leaderboard-identities.csv, beside the reports that are private
/// already; mode 0600).

#include "grader/leaderboard/leaderboard.h"
#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::leaderboard {

struct publish_options {
  std::filesystem::path batch_dir;
  std::filesystem::path out_dir;
  std::string salt;
  std::string title;
  std::filesystem::path roster_file; ///< empty: no nicknames, pseudonyms for all
  std::string repository_template;   ///< for a GitHub Classroom roster, as `cugrade batch` takes
  std::filesystem::path identities_file; ///< empty: BATCH_DIR/leaderboard-identities.csv
  std::string created_at;                ///< empty: now
};

struct published {
  leaderboard board;
  std::vector<identity> identities;
  std::filesystem::path json_file, html_file, identities_file;
  std::vector<std::string> warnings; ///< nicknames replaced by pseudonyms, and why
};

/// Everything above; a usage failure (bad folder, roster, missing salt, a private file inside
/// DIR) names the file and the fix, and nothing is written.
[[nodiscard]] result<published> publish_leaderboard(const publish_options& o);

/// The private CSV's text: public_name,source,student,repository,commit.
[[nodiscard]] std::string render_identities(const std::vector<identity>& ids);

} // namespace cugrade::leaderboard
