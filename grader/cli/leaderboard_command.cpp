#include "grader/cli/commands.h"

#include "grader/leaderboard/publish.h"

#include <cstdlib>
#include <iostream>

namespace cugrade::cli {

namespace {

constexpr const char* salt_variable = "CUGRADE_LEADERBOARD_SALT";

int run_leaderboard(leaderboard::publish_options& o) {
  if (o.salt.empty()) {
    if (const char* env = std::getenv(salt_variable)) {
      o.salt = env;
    }
  }
  const auto p = leaderboard::publish_leaderboard(o);
  if (!p) {
    std::cerr << "cugrade leaderboard: " << shown(p.error()) << "\n";
    return p.why().kind == failure_kind::usage ? exit_usage : exit_infrastructure;
  }
  for (const auto& w : p->warnings) {
    std::cerr << "cugrade leaderboard: " << shown(w) << "\n";
  }
  for (const auto& b : p->board.boards) {
    std::cout << b.name << ": " << b.ranked.size() << " ranked, " << b.unranked.size()
              << " unranked\n";
  }
  std::cout << "published: " << p->json_file.string() << "\npublished: " << p->html_file.string()
            << "\nprivate (do not publish): " << p->identities_file.string() << "\n";
  return exit_ok;
}

void add_options(CLI::App& sub, leaderboard::publish_options& o) {
  sub.add_option("batch_dir", o.batch_dir, "The --out folder of a `cugrade batch` run")->required();
  sub.add_option("--out", o.out_dir,
                 "Folder to publish: leaderboard.json and index.html, nothing private")
      ->required();
  sub.add_option("--salt", o.salt,
                 "The course's secret for pseudonyms (keyed hash of the student id); keep it the "
                 "same all term. Default: $CUGRADE_LEADERBOARD_SALT. Needed when a student has no "
                 "usable nickname");
  sub.add_option("--title", o.title, "The page's title (default: '<assignment> leaderboard')");
  sub.add_option("--roster", o.roster_file,
                 "The batch's roster, for its nickname column (without it every name is a "
                 "pseudonym)");
  sub.add_option("--repository-template", o.repository_template,
                 "As for `cugrade batch`, when --roster is a GitHub Classroom export");
  sub.add_option("--identities", o.identities_file,
                 "Where the private CSV mapping public names to students goes (default: "
                 "BATCH_DIR/leaderboard-identities.csv; never inside --out)");
}

} // namespace

command leaderboard_command() {
  return {"leaderboard",
          "Publish a batch's leaderboard: anonymised, banded by confidence interval, as "
          "leaderboard.json and a static index.html",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<leaderboard::publish_options>();
            add_options(sub, *o);
            return [o] { return run_leaderboard(*o); };
          }};
}

} // namespace cugrade::cli
