#pragma once
/// \file
/// One prepared SQLite statement: bind, step, read columns; errors throw cugrade::error (a
/// journal that cannot be written is an infrastructure fault).

#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace cugrade::batch::detail {

class statement {
public:
  statement(sqlite3* db, const std::string& sql);
  ~statement();
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  void bind(int index, const std::string& value);
  void bind(int index, double value);
  /// True while a row is available.
  [[nodiscard]] bool step();
  /// Runs a statement that returns no rows (each is its own transaction).
  void run();
  [[nodiscard]] std::string text(int column) const;
  [[nodiscard]] int integer(int column) const;
  [[nodiscard]] double real(int column) const;

private:
  sqlite3* m_db;
  sqlite3_stmt* m_stmt = nullptr;
};

} // namespace cugrade::batch::detail
