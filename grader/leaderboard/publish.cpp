#include "grader/leaderboard/publish.h"

#include "grader/batch/csv_table.h"
#include "grader/batch/roster.h"
#include "grader/leaderboard/batch_reports.h"
#include "grader/leaderboard/build_board.h"
#include "grader/leaderboard/html_page.h"
#include "grader/leaderboard/leaderboard_json.h"
#include "harness/core/file_io.h"

#include <algorithm>
#include <map>

namespace cugrade::leaderboard {

namespace {

namespace fs = std::filesystem;

// Secrets this long are checked for in the published files before they are written (shorter ids
// could occur in ordinary words: the nickname rule covers those).
constexpr std::size_t checked_secret_chars = 8;

bool inside(const fs::path& path, const fs::path& folder) {
  const auto p = fs::weakly_canonical(path);
  const auto f = fs::weakly_canonical(folder);
  auto [end, unused] = std::mismatch(f.begin(), f.end(), p.begin(), p.end());
  return end == f.end();
}

result<void> check_paths(const publish_options& o, const fs::path& identities) {
  if (inside(o.batch_dir, o.out_dir) || inside(o.out_dir, o.batch_dir / "reports")) {
    return fail_usage("--out " + o.out_dir.string() + " holds the batch folder " +
                      o.batch_dir.string() +
                      ", or lies among its reports, which name students; give a folder of its "
                      "own for the published files");
  }
  if (inside(identities, o.out_dir)) {
    return fail_usage("--identities " + identities.string() + " lies inside --out " +
                      o.out_dir.string() +
                      ", which is published; keep the private CSV outside that folder");
  }
  return {};
}

struct roster_view {
  std::map<std::string, batch::roster_entry> by_student;
};

result<roster_view> read_roster(const publish_options& o) {
  roster_view out;
  if (o.roster_file.empty()) {
    return out;
  }
  auto r = batch::load_roster(o.roster_file, {o.repository_template});
  if (!r) {
    return fail_usage(r.error() + "\ncugrade leaderboard: the roster has problems");
  }
  for (auto& e : r->entries) {
    out.by_student.emplace(e.student, std::move(e));
  }
  return out;
}

std::vector<std::string> roster_only(const roster_view& roster,
                                     const std::vector<student_report>& reports) {
  std::vector<std::string> out;
  for (const auto& [student, unused] : roster.by_student) {
    if (std::none_of(reports.begin(), reports.end(),
                     [&](const auto& s) { return s.student == student; })) {
      out.push_back(student);
    }
  }
  return out;
}

naming naming_of(const publish_options& o, const roster_view& roster,
                 const std::vector<student_report>& reports,
                 const std::vector<std::string>& absent) {
  naming n{o.salt, {}, {}};
  for (const auto& s : reports) {
    n.secrets.push_back(s.student);
    if (s.report) {
      n.secrets.push_back(s.report->submission.source);
      n.secrets.push_back(s.report->submission.commit.value_or(""));
      n.secrets.push_back(s.report->submission.student);
    }
  }
  for (const auto& [student, e] : roster.by_student) {
    n.secrets.push_back(student);
    n.secrets.push_back(e.repository);
    n.secrets.push_back(e.commit.value_or(""));
  }
  std::vector<std::string> students = absent;
  for (const auto& s : reports) {
    students.push_back(s.student);
  }
  std::sort(students.begin(), students.end());
  for (const auto& s : students) {
    const auto it = roster.by_student.find(s);
    n.students.push_back({s, it == roster.by_student.end() ? "" : it->second.nickname});
  }
  return n;
}

std::vector<identity> identities_of(const named_students& names, const roster_view& roster,
                                    const std::vector<student_report>& reports) {
  std::vector<identity> out;
  for (const auto& [student, name] : names.by_student) {
    identity id{name.name, student, name.from_nickname ? "nickname" : "pseudonym", {}, {}};
    if (const auto it = roster.by_student.find(student); it != roster.by_student.end()) {
      id.repository = it->second.repository;
    }
    const auto r = std::find_if(reports.begin(), reports.end(),
                                [&](const auto& s) { return s.student == student; });
    if (r != reports.end() && r->report) {
      id.repository = r->report->submission.source;
      id.commit = r->report->submission.commit.value_or("");
    }
    out.push_back(std::move(id));
  }
  std::sort(out.begin(), out.end(),
            [](const identity& a, const identity& b) { return a.public_name < b.public_name; });
  return out;
}

// Defence in depth: the published text must not hold a long secret (repository, commit, id).
result<void> check_anonymous(const std::string& text, const fs::path& file,
                             const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.size() >= checked_secret_chars && text.find(s) != std::string::npos) {
      return fail("refusing to write " + file.string() +
                  ": it would contain a student id, repository or commit (a bug in cugrade "
                  "leaderboard; please report it)");
    }
  }
  return {};
}

result<void> write_private(const fs::path& file, const std::string& text) {
  if (auto w = write_file_atomically(file, text); !w) {
    return w;
  }
  std::error_code ec;
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace,
                  ec);
  return {};
}

} // namespace

std::string render_identities(const std::vector<identity>& ids) {
  std::string out =
      batch::spreadsheet_csv_line({"public_name", "source", "student", "repository", "commit"});
  for (const auto& id : ids) {
    out += batch::spreadsheet_csv_line(
        {id.public_name, id.source, id.student, id.repository, id.commit});
  }
  return out;
}

result<published> publish_leaderboard(const publish_options& o) {
  published out;
  out.identities_file =
      o.identities_file.empty() ? o.batch_dir / "leaderboard-identities.csv" : o.identities_file;
  if (auto paths = check_paths(o, out.identities_file); !paths) {
    return paths.why();
  }
  auto reports = read_batch_reports(o.batch_dir);
  if (!reports) {
    return reports.why();
  }
  const auto roster = read_roster(o);
  if (!roster) {
    return roster.why();
  }
  const auto absent = roster_only(*roster, *reports);
  const auto n = naming_of(o, *roster, *reports, absent);
  auto names = name_students(n);
  if (!names) {
    return names.why();
  }
  out.warnings = names->warnings;
  out.identities = identities_of(*names, *roster, *reports);
  out.board = build_leaderboard({*reports, absent, *names, o.title,
                                 o.created_at.empty() ? reports::now_iso8601_utc() : o.created_at});
  out.json_file = o.out_dir / "leaderboard.json";
  out.html_file = o.out_dir / "index.html";
  const auto json = render_json(out.board);
  const auto html = render_html(out.board);
  for (const auto& [file, text] :
       {std::pair{out.json_file, json}, std::pair{out.html_file, html}}) {
    if (auto safe = check_anonymous(text, file, n.secrets); !safe) {
      return safe.why();
    }
  }
  for (const auto& [file, text] :
       {std::pair{out.json_file, json}, std::pair{out.html_file, html}}) {
    if (auto w = write_file_atomically(file, text); !w) {
      return w.why();
    }
  }
  if (auto w = write_private(out.identities_file, render_identities(out.identities)); !w) {
    return w.why();
  }
  return out;
}

} // namespace cugrade::leaderboard
