// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The SQLite store. Writers: WAL journal (readers never block the writer, and a crash mid-run leaves the last
// committed run intact), a 60 s busy timeout (checks that end together take turns instead of failing), and
// BEGIN IMMEDIATE per run (the write lock is taken before anything is read, so two writers never deadlock
// upgrading a read lock).
#include "history_store.hpp"

#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "pf/error.hpp"
#include "pf/report_io.hpp"

namespace pf::history {

bool available() { return true; }

namespace {

constexpr int kBusyTimeoutMs = 60000;

constexpr const char* kSchema = R"sql(
CREATE TABLE runs(id INTEGER PRIMARY KEY, started TEXT NOT NULL, ended TEXT NOT NULL, command_line TEXT NOT NULL,
  host_count INTEGER NOT NULL, verdict TEXT NOT NULL, exit_code INTEGER NOT NULL, preflight_version TEXT NOT NULL,
  allreduce_busbw_gbps REAL);
CREATE TABLE nodes(run INTEGER NOT NULL REFERENCES runs(id), host TEXT NOT NULL, verdict TEXT NOT NULL,
  finding_count INTEGER NOT NULL, pair_median_gbps REAL, allreduce_busbw_gbps REAL, PRIMARY KEY(run, host));
CREATE TABLE findings(run INTEGER NOT NULL REFERENCES runs(id), host TEXT NOT NULL, check_key TEXT NOT NULL,
  status TEXT NOT NULL, message TEXT NOT NULL, remedy TEXT NOT NULL);
CREATE TABLE pairs(run INTEGER NOT NULL REFERENCES runs(id), host_a TEXT NOT NULL, host_b TEXT NOT NULL,
  out_gbps REAL NOT NULL, in_gbps REAL NOT NULL, lat_us REAL NOT NULL);
CREATE INDEX nodes_by_host ON nodes(host, run);
)sql";

// One prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& text(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& integer(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Statement& real(int i, std::optional<double> v) {
    if (v)
      sqlite3_bind_double(stmt_, i, *v);
    else
      sqlite3_bind_null(stmt_, i);
    return *this;
  }
  /// Steps once: true while a row is there.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }
  /// Runs an insert, then readies the statement for the next one.
  void exec() {
    step();
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::string columnText(int i) const {
    const unsigned char* t = sqlite3_column_text(stmt_, i);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  int64_t columnInt(int i) const { return sqlite3_column_int64(stmt_, i); }
  std::optional<double> columnReal(int i) const {
    if (sqlite3_column_type(stmt_, i) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(stmt_, i);
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw SystemError(fmt::format("history file '{}': {} failed: {}", path_, what, sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string path_;
};

class SqliteStore final : public Store {
 public:
  SqliteStore(const std::string& path, Mode mode) : path_(path) {
    const int flags = mode == Mode::kWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (mode == Mode::kRead && !std::filesystem::exists(path))
      throw UsageError(
          fmt::format("history file '{}' does not exist; `preflight check --history {}` creates it", path, path));
    try {
      if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK)
        throw UsageError(fmt::format("history file '{}' cannot be opened: {}", path, sqlite3_errmsg(db_)));
      sqlite3_busy_timeout(db_, kBusyTimeoutMs);
      // A file that is not SQLite fails here, at its first read.
      const int version = pragmaInt("user_version");
      const int appId = pragmaInt("application_id");
      if (appId == 0 && version == 0 && mode == Mode::kWrite) {
        create();
      } else {
        validate(appId, version);
      }
    } catch (...) {
      sqlite3_close_v2(db_);  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~SqliteStore() override { sqlite3_close_v2(db_); }

  int64_t append(const RunRecord& run) override {
    exec("BEGIN IMMEDIATE");
    try {
      Statement r(db_,
                  "INSERT INTO runs(started, ended, command_line, host_count, verdict, exit_code, preflight_version, "
                  "allreduce_busbw_gbps) VALUES(?,?,?,?,?,?,?,?)",
                  path_);
      r.text(1, run.started).text(2, run.ended).text(3, run.commandLine).integer(4, run.hostCount);
      r.text(5, toString(run.verdict)).integer(6, run.exitCode).text(7, run.version).real(8, run.allReduceBusbwGbps);
      r.exec();
      const int64_t id = sqlite3_last_insert_rowid(db_);
      Statement n(db_,
                  "INSERT INTO nodes(run, host, verdict, finding_count, pair_median_gbps, allreduce_busbw_gbps) "
                  "VALUES(?,?,?,?,?,?)",
                  path_);
      for (const NodeRecord& x : run.nodes) {
        n.integer(1, id).text(2, x.host).text(3, toString(x.verdict)).integer(4, x.findings);
        n.real(5, x.pairMedianGbps).real(6, x.allReduceBusbwGbps).exec();
      }
      Statement f(db_, "INSERT INTO findings(run, host, check_key, status, message, remedy) VALUES(?,?,?,?,?,?)",
                  path_);
      for (const FindingRecord& x : run.findings)
        f.integer(1, id)
            .text(2, x.host)
            .text(3, x.check)
            .text(4, toString(x.status))
            .text(5, x.message)
            .text(6, x.remedy)
            .exec();
      Statement p(db_, "INSERT INTO pairs(run, host_a, host_b, out_gbps, in_gbps, lat_us) VALUES(?,?,?,?,?,?)", path_);
      for (const PairRecord& x : run.pairs)
        p.integer(1, id).text(2, x.hostA).text(3, x.hostB).real(4, x.outGbps).real(5, x.inGbps).real(6, x.latUs).exec();
      exec("COMMIT");
      return id;
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  std::vector<RunRecord> runs() override {
    // One read transaction: the four tables as of one moment, even while checks append.
    exec("BEGIN");
    std::vector<RunRecord> out;
    std::map<int64_t, size_t> index;
    Statement r(db_,
                "SELECT id, started, ended, command_line, host_count, verdict, exit_code, preflight_version, "
                "allreduce_busbw_gbps FROM runs ORDER BY id",
                path_);
    while (r.step()) {
      RunRecord x;
      x.id = r.columnInt(0);
      x.started = r.columnText(1);
      x.ended = r.columnText(2);
      x.commandLine = r.columnText(3);
      x.hostCount = static_cast<int>(r.columnInt(4));
      x.verdict = statusFromString(r.columnText(5));
      x.exitCode = static_cast<int>(r.columnInt(6));
      x.version = r.columnText(7);
      x.allReduceBusbwGbps = r.columnReal(8);
      index[x.id] = out.size();
      out.push_back(std::move(x));
    }
    Statement n(db_,
                "SELECT run, host, verdict, finding_count, pair_median_gbps, allreduce_busbw_gbps FROM nodes "
                "ORDER BY run, rowid",
                path_);
    while (n.step())
      out[index.at(n.columnInt(0))].nodes.push_back({n.columnText(1), statusFromString(n.columnText(2)),
                                                     static_cast<int>(n.columnInt(3)), n.columnReal(4),
                                                     n.columnReal(5)});
    Statement f(db_, "SELECT run, host, check_key, status, message, remedy FROM findings ORDER BY run, rowid", path_);
    while (f.step())
      out[index.at(f.columnInt(0))].findings.push_back(
          {f.columnText(1), f.columnText(2), statusFromString(f.columnText(3)), f.columnText(4), f.columnText(5)});
    Statement p(db_, "SELECT run, host_a, host_b, out_gbps, in_gbps, lat_us FROM pairs ORDER BY run, rowid", path_);
    while (p.step())
      out[index.at(p.columnInt(0))].pairs.push_back(
          {p.columnText(1), p.columnText(2), *p.columnReal(3), *p.columnReal(4), *p.columnReal(5)});
    exec("COMMIT");
    return out;
  }

 private:
  int pragmaInt(const char* name) {
    const std::string sql = fmt::format("PRAGMA {}", name);
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr);
    int value = 0;
    if (rc == SQLITE_OK) {
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) value = sqlite3_column_int(stmt, 0);
    }
    sqlite3_finalize(stmt);
    if (rc == SQLITE_NOTADB)
      throw UsageError(
          fmt::format("'{}' is not a Preflight history file (not an SQLite database); give another "
                      "path, or remove it to start a new history",
                      path_));
    if (rc != SQLITE_ROW && rc != SQLITE_DONE && rc != SQLITE_OK)
      throw UsageError(fmt::format("history file '{}' cannot be read: {}", path_, sqlite3_errmsg(db_)));
    return value;
  }

  void validate(int appId, int version) {
    if (appId == 0 && version == 0 && tableCount() == 0)
      throw UsageError(fmt::format("history file '{}' is empty: no check has written to it yet", path_));
    if (appId != kApplicationId)
      throw UsageError(
          fmt::format("'{}' is an SQLite database but not a Preflight history file (application_id {:#x}, "
                      "expected {:#x}); give another path",
                      path_, static_cast<uint32_t>(appId), static_cast<uint32_t>(kApplicationId)));
    if (version > kSchemaVersion)
      throw UsageError(
          fmt::format("history file '{}' has schema version {}, newer than this preflight reads ({}); "
                      "use a newer preflight",
                      path_, version, kSchemaVersion));
  }

  // A new (or empty) file: WAL first (it cannot change inside a transaction), then the tables under the write
  // lock, checked again there since another check may have created them meanwhile.
  void create() {
    exec("PRAGMA journal_mode=WAL");
    exec("BEGIN IMMEDIATE");
    try {
      const int appId = pragmaInt("application_id"), version = pragmaInt("user_version");
      if (appId == 0 && version == 0) {
        if (tableCount() != 0) validate(0, 0);  // someone else's tables: refuse, touch nothing
        exec(kSchema);
        exec(fmt::format("PRAGMA application_id={}", kApplicationId).c_str());
        exec(fmt::format("PRAGMA user_version={}", kSchemaVersion).c_str());
      } else {
        validate(appId, version);
      }
      exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  int64_t tableCount() {
    Statement tables(db_, "SELECT count(*) FROM sqlite_master", path_);
    tables.step();
    return tables.columnInt(0);
  }

  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string msg = err ? err : sqlite3_errmsg(db_);
      sqlite3_free(err);
      throw SystemError(fmt::format("history file '{}': {}", path_, msg));
    }
  }

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Store> Store::open(const std::string& path, Mode mode) {
  return std::make_unique<SqliteStore>(path, mode);
}

void checkHistoryFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) > 0) {
    (void)Store::open(path, Store::Mode::kRead);
    if (::access(path.c_str(), W_OK) != 0)
      throw UsageError(
          fmt::format("history file '{}' cannot be written (permissions); give a file this user can "
                      "write",
                      path));
    return;
  }
  checkWritable(path);
}

}  // namespace pf::history
