#include "grader/batch/journal.h"

#include "grader/batch/detail/statement.h"
#include "harness/core/error.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace cugrade::batch {

namespace {

using detail::statement;

constexpr const char* schema_sql = R"sql(
CREATE TABLE IF NOT EXISTS settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS students(
  student TEXT PRIMARY KEY,
  inputs TEXT NOT NULL,
  state TEXT NOT NULL,
  commit_sha TEXT NOT NULL DEFAULT '',
  report_json TEXT NOT NULL DEFAULT '',
  report_path TEXT NOT NULL DEFAULT '',
  report_sha256 TEXT NOT NULL DEFAULT '',
  report_files TEXT NOT NULL DEFAULT '',
  gradings INTEGER NOT NULL DEFAULT 0,
  fetch_seconds REAL NOT NULL DEFAULT 0,
  build_seconds REAL NOT NULL DEFAULT 0,
  run_seconds REAL NOT NULL DEFAULT 0);
)sql";

student_state state_from(std::string_view text) {
  for (auto s : {student_state::queued, student_state::fetched, student_state::built,
                 student_state::graded, student_state::written}) {
    if (to_string(s) == text) {
      return s;
    }
  }
  CUGRADE_THROW("the journal holds an unknown state \"" + std::string(text) + "\"");
}

// report_files as the journal stores them: [["reports/alice.json", "<sha256>"], ...].
std::string files_text(const std::vector<written_file>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : files) {
    out.push_back({f.path, f.sha256});
  }
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<written_file> files_from(const std::string& text) {
  std::vector<written_file> out;
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_array()) {
    return out; // empty: a journal from before report_files, or a row not yet written
  }
  for (const auto& f : j) {
    if (f.is_array() && f.size() == 2 && f[0].is_string() && f[1].is_string()) {
      out.push_back({f[0].get<std::string>(), f[1].get<std::string>()});
    }
  }
  return out;
}

journal_entry entry_from(statement& s) {
  journal_entry e;
  e.student = s.text(0);
  e.inputs = s.text(1);
  e.state = state_from(s.text(2));
  e.commit = s.text(3);
  e.report_json = s.text(4);
  e.report_path = s.text(5);
  e.report_sha256 = s.text(6);
  e.gradings = s.integer(7);
  e.fetch_seconds = s.real(8);
  e.build_seconds = s.real(9);
  e.run_seconds = s.real(10);
  e.report_files = files_from(s.text(11));
  return e;
}

constexpr const char* select_sql =
    "SELECT student, inputs, state, commit_sha, report_json, report_path, report_sha256, "
    "gradings, fetch_seconds, build_seconds, run_seconds, report_files FROM students";

// A journal made by an earlier cugrade lacks the columns added since; they are added empty.
bool has_column(sqlite3* db, const std::string& table, const std::string& column) {
  statement s(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2");
  s.bind(1, table);
  s.bind(2, column);
  return s.step();
}

result<int> lock_folder(const std::filesystem::path& dir) {
  const auto path = dir / "journal.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return fail(path.string() + ": cannot create the batch lock (" + std::strerror(errno) +
                "); give --out a writable folder");
  }
  // A batch killed a moment ago may still have children between fork and exec (they hold the
  // descriptor until exec closes it, or until their parent-death signal ends them): such a lock
  // goes within a moment, a running batch's does not.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  bool locked = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  while (!locked && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    locked = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  }
  if (!locked) {
    ::close(fd);
    return fail(dir.string() +
                ": another cugrade batch is writing this folder; wait for it or give another "
                "--out");
  }
  return fd;
}

} // namespace

std::string_view to_string(student_state s) {
  switch (s) {
  case student_state::queued:
    return "queued";
  case student_state::fetched:
    return "fetched";
  case student_state::built:
    return "built";
  case student_state::graded:
    return "graded";
  case student_state::written:
    return "written";
  }
  return "queued";
}

result<std::unique_ptr<journal>> journal::open(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return fail(dir.string() + ": cannot create the output folder (" + ec.message() +
                "); give --out a writable place");
  }
  auto lock = lock_folder(dir);
  if (!lock) {
    return fail(lock.error());
  }
  const auto file = dir / "journal.sqlite";
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    std::string why = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    ::close(*lock);
    return fail(file.string() + ": cannot open the journal (" + why +
                "); delete it to start the batch afresh");
  }
  std::unique_ptr<journal> j(new journal(db, *lock));
  sqlite3_busy_timeout(db, 10000);
  // WAL: a state change is one append to the log; synchronous=FULL makes each commit durable
  // before the next step (a report is never said written before it is on disk).
  j->exec("PRAGMA journal_mode=WAL");
  j->exec("PRAGMA synchronous=FULL");
  j->exec(schema_sql);
  if (!has_column(db, "students", "report_files")) {
    j->exec("ALTER TABLE students ADD COLUMN report_files TEXT NOT NULL DEFAULT ''");
  }
  return j;
}

journal::~journal() {
  sqlite3_close(m_db);
  if (m_lock_fd >= 0) {
    ::close(m_lock_fd);
  }
}

void journal::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    CUGRADE_THROW("journal: " + why + " in: " + sql);
  }
}

std::optional<std::string> journal::setting(const std::string& key) {
  const std::lock_guard lock(m_mutex);
  statement s(m_db, "SELECT value FROM settings WHERE key = ?1");
  s.bind(1, key);
  return s.step() ? std::optional<std::string>(s.text(0)) : std::nullopt;
}

void journal::set_setting(const std::string& key, const std::string& value) {
  const std::lock_guard lock(m_mutex);
  statement s(m_db, "INSERT INTO settings(key, value) VALUES(?1, ?2) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  s.bind(1, key);
  s.bind(2, value);
  s.run();
}

std::optional<journal_entry> journal::find(const std::string& student) {
  const std::lock_guard lock(m_mutex);
  statement s(m_db, std::string(select_sql) + " WHERE student = ?1");
  s.bind(1, student);
  return s.step() ? std::optional<journal_entry>(entry_from(s)) : std::nullopt;
}

std::vector<journal_entry> journal::all() {
  const std::lock_guard lock(m_mutex);
  statement s(m_db, std::string(select_sql) + " ORDER BY student");
  std::vector<journal_entry> out;
  while (s.step()) {
    out.push_back(entry_from(s));
  }
  return out;
}

void journal::enqueue(const std::string& student, const std::string& inputs) {
  const std::lock_guard lock(m_mutex);
  statement s(m_db, "INSERT INTO students(student, inputs, state) VALUES(?1, ?2, 'queued') "
                    "ON CONFLICT(student) DO UPDATE SET inputs = excluded.inputs, "
                    "state = 'queued'");
  s.bind(1, student);
  s.bind(2, inputs);
  s.run();
}

void journal::mark_stage(const std::string& student, student_state state, double seconds) {
  const std::lock_guard lock(m_mutex);
  const char* column = state == student_state::fetched ? "fetch_seconds" : "build_seconds";
  statement s(m_db, std::string("UPDATE students SET state = ?2, ") + column +
                        " = ?3 WHERE student = ?1");
  s.bind(1, student);
  s.bind(2, std::string(to_string(state)));
  s.bind(3, seconds);
  s.run();
}

void journal::mark_graded(const std::string& student, const std::string& commit,
                          const std::string& report_json, double run_seconds) {
  const std::lock_guard lock(m_mutex);
  statement s(m_db, "UPDATE students SET state = 'graded', commit_sha = ?2, report_json = ?3, "
                    "run_seconds = ?4, gradings = gradings + 1 WHERE student = ?1");
  s.bind(1, student);
  s.bind(2, commit);
  s.bind(3, report_json);
  s.bind(4, run_seconds);
  s.run();
}

void journal::mark_written(const std::string& student, const std::vector<written_file>& files) {
  if (files.empty()) {
    CUGRADE_THROW("journal: " + student + " marked written without a report file");
  }
  const std::lock_guard lock(m_mutex);
  statement s(m_db, "UPDATE students SET state = 'written', report_path = ?2, "
                    "report_sha256 = ?3, report_files = ?4 WHERE student = ?1");
  s.bind(1, student);
  s.bind(2, files.front().path);
  s.bind(3, files.front().sha256);
  s.bind(4, files_text(files));
  s.run();
}

void journal::freeze() {
  m_mutex.lock(); // released only by the process's exit
}

} // namespace cugrade::batch
