#include "grader/batch/detail/statement.h"

#include "harness/core/error.h"

#include <sqlite3.h>

namespace cugrade::batch::detail {

statement::statement(sqlite3* db, const std::string& sql) : m_db(db) {
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &m_stmt, nullptr) != SQLITE_OK) {
    CUGRADE_THROW(std::string("journal: ") + sqlite3_errmsg(db) + " in: " + sql);
  }
}

statement::~statement() {
  sqlite3_finalize(m_stmt);
}

void statement::bind(int index, const std::string& value) {
  if (sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    CUGRADE_THROW(std::string("journal: ") + sqlite3_errmsg(m_db));
  }
}

void statement::bind(int index, double value) {
  if (sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK) {
    CUGRADE_THROW(std::string("journal: ") + sqlite3_errmsg(m_db));
  }
}

bool statement::step() {
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc != SQLITE_DONE) {
    CUGRADE_THROW(std::string("journal: ") + sqlite3_errmsg(m_db) +
                  " (is the disk full or the folder read-only?)");
  }
  return false;
}

void statement::run() {
  while (step()) {
  }
}

std::string statement::text(int column) const {
  const auto* p = sqlite3_column_text(m_stmt, column);
  return p == nullptr ? std::string()
                      : std::string(reinterpret_cast<const char*>(p),
                                    static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column)));
}

int statement::integer(int column) const {
  return sqlite3_column_int(m_stmt, column);
}

double statement::real(int column) const {
  return sqlite3_column_double(m_stmt, column);
}

} // namespace cugrade::batch::detail
