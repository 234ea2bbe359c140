#pragma once
/// \file
/// The batch journal: one SQLite database per output folder (WAL mode), one row per student,
/// one transaction per state change. A student moves queued -> fetched -> built -> graded ->
/// written. `graded` stores the report itself, so a batch killed after grading never grades that
/// student again: the next run writes the files from the journal. Only the process that owns the
/// output folder writes the journal (an exclusive lock on DIR/journal.lock), so the design holds
/// when gradings later run elsewhere (Slurm) and deliver reports by atomic rename.

#include "harness/core/result.h"

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace cugrade::batch {

enum class student_state { queued, fetched, built, graded, written };

[[nodiscard]] std::string_view to_string(student_state s);

/// A report file as written: its path relative to the batch folder and the SHA-256 of its bytes.
struct written_file {
  std::string path; ///< e.g. "reports/alice.gradescope.json"
  std::string sha256;
  bool operator==(const written_file&) const = default;
};

/// A student's row.
struct journal_entry {
  std::string student;
  std::string inputs; ///< what the grading depends on (repository, commit, deadline), as JSON
  student_state state = student_state::queued;
  std::string commit;      ///< the graded commit (git sources), once graded
  std::string report_json; ///< the report, once graded
  std::string report_path; ///< DIR-relative path of the JSON report, once written
  std::string report_sha256;
  /// Every report file written (the JSON one first), so a resumed batch notices one that another
  /// student's report or a hand replaced. Empty in a journal written before cugrade kept them.
  std::vector<written_file> report_files;
  int gradings = 0; ///< how many times a report was produced (a regrade adds one)
  double fetch_seconds = 0, build_seconds = 0, run_seconds = 0;
};

class journal {
public:
  /// Opens (creating) `<dir>/journal.sqlite`; fails when another batch holds the folder or
  /// SQLite cannot open it. SQLite errors later are infrastructure faults (cugrade::error).
  [[nodiscard]] static result<std::unique_ptr<journal>> open(const std::filesystem::path& dir);
  ~journal();
  journal(const journal&) = delete;
  journal& operator=(const journal&) = delete;

  [[nodiscard]] std::optional<std::string> setting(const std::string& key);
  void set_setting(const std::string& key, const std::string& value);

  [[nodiscard]] std::optional<journal_entry> find(const std::string& student);
  [[nodiscard]] std::vector<journal_entry> all();
  /// Inserts the student or resets it to queued with new inputs (its report stays until
  /// replaced, `gradings` is kept).
  void enqueue(const std::string& student, const std::string& inputs);
  /// fetched or built, with the seconds that stage took.
  void mark_stage(const std::string& student, student_state state, double seconds);
  void mark_graded(const std::string& student, const std::string& commit,
                   const std::string& report_json, double run_seconds);
  /// written: `files` are the report files written, the JSON report first.
  void mark_written(const std::string& student, const std::vector<written_file>& files);

  /// Holds the journal's mutex for good: no further state change starts (Ctrl-C uses it before
  /// leaving, so no transaction is cut in half by the exit).
  void freeze();

private:
  journal(sqlite3* db, int lock_fd) : m_db(db), m_lock_fd(lock_fd) {}
  void exec(const std::string& sql);
  sqlite3* m_db = nullptr;
  int m_lock_fd = -1;
  std::mutex m_mutex;
};

} // namespace cugrade::batch
