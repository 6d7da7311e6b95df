// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The SQLite store: runs read back as written, the file's mode and marks, and the files it refuses (exit 2).
#include "history_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "history_fixtures.hpp"
#include "pf/error.hpp"

namespace pf::history {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class HistoryStore : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pf_history_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }

  // One query's first column as text, through SQLite itself (what `sqlite3 FILE` would show).
  static std::string query(const std::string& file, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    sqlite3_stmt* stmt = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
      out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
  }

  static std::string openError(const std::string& file, Store::Mode mode) {
    try {
      (void)Store::open(file, mode);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "opened";
  }

  fs::path dir_;
};

RunRecord sampleRun() {
  RunRecord r = testing::run(0, {{"a", Status::kPass}, {"b", Status::kFail}}, {10.5, std::nullopt});
  r.started = "2026-12-02T05:00:00Z";
  r.ended = "2026-12-02T05:00:03Z";
  r.commandLine = "preflight check --history h.db";
  r.verdict = Status::kFail;
  r.exitCode = 1;
  r.version = "0.1.0";
  r.allReduceBusbwGbps = 3.25;
  r.nodes[1].findings = 1;
  r.nodes[1].allReduceBusbwGbps = 1.5;
  r.findings.push_back({"b", "check.probe.profile", Status::kFail, "ib: 7 devices, the profile wants 8", "reseat"});
  r.pairs.push_back({"a", "b", 10.5, 11.25, 4.5});
  return r;
}

TEST_F(HistoryStore, AppendsRunsAndReadsThemBackWhole) {
  const std::string f = path("h.db");
  auto store = Store::open(f, Store::Mode::kWrite);
  EXPECT_EQ(store->append(sampleRun()), 1);
  EXPECT_EQ(store->append(sampleRun()), 2);
  const auto runs = Store::open(f, Store::Mode::kRead)->runs();
  ASSERT_EQ(runs.size(), 2u);
  const RunRecord& r = runs[1];
  EXPECT_EQ(r.id, 2);
  EXPECT_EQ(r.started, "2026-12-02T05:00:00Z");
  EXPECT_EQ(r.ended, "2026-12-02T05:00:03Z");
  EXPECT_EQ(r.commandLine, "preflight check --history h.db");
  EXPECT_EQ(r.hostCount, 2);
  EXPECT_EQ(r.verdict, Status::kFail);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.version, "0.1.0");
  EXPECT_EQ(r.allReduceBusbwGbps, 3.25);
  ASSERT_EQ(r.nodes.size(), 2u);
  EXPECT_EQ(r.nodes[0].host, "a");
  EXPECT_EQ(r.nodes[0].pairMedianGbps, 10.5);
  EXPECT_FALSE(r.nodes[0].allReduceBusbwGbps);
  EXPECT_EQ(r.nodes[1].verdict, Status::kFail);
  EXPECT_EQ(r.nodes[1].findings, 1);
  EXPECT_FALSE(r.nodes[1].pairMedianGbps);
  EXPECT_EQ(r.nodes[1].allReduceBusbwGbps, 1.5);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].check, "check.probe.profile");
  EXPECT_EQ(r.findings[0].message, "ib: 7 devices, the profile wants 8");
  EXPECT_EQ(r.findings[0].remedy, "reseat");
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_EQ(r.pairs[0].inGbps, 11.25);
  EXPECT_EQ(r.pairs[0].latUs, 4.5);
  // The file as sqlite3 sees it: WAL, marked as ours, schema version 1.
  EXPECT_EQ(query(f, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(query(f, "PRAGMA application_id"), std::to_string(kApplicationId));
  EXPECT_EQ(query(f, "PRAGMA user_version"), "1");
  EXPECT_EQ(query(f, "SELECT count(*) FROM findings"), "2");
  EXPECT_EQ(query(f, "PRAGMA integrity_check"), "ok");
}

TEST_F(HistoryStore, RefusesFilesThatAreNotAPreflightHistory) {
  const std::string text = path("notes.txt");
  std::ofstream(text) << "these are not the runs you are looking for\n";
  EXPECT_THAT(openError(text, Store::Mode::kWrite), HasSubstr("is not a Preflight history file (not an SQLite"));
  EXPECT_THAT(openError(text, Store::Mode::kRead), HasSubstr("is not a Preflight history file (not an SQLite"));
  EXPECT_EQ(std::ifstream(text).get(), 't');  // untouched

  const std::string other = path("other.db");
  query(other, "CREATE TABLE inventory(x)");
  EXPECT_THAT(openError(other, Store::Mode::kWrite), HasSubstr("is an SQLite database but not a Preflight history"));
  EXPECT_EQ(query(other, "SELECT count(*) FROM sqlite_master"), "1");  // nothing added

  const std::string newer = path("newer.db");
  (void)Store::open(newer, Store::Mode::kWrite);
  query(newer, "PRAGMA user_version=2");
  EXPECT_THAT(openError(newer, Store::Mode::kRead), HasSubstr("schema version 2, newer than this preflight reads (1)"));

  EXPECT_THAT(openError(path("missing.db"), Store::Mode::kRead), HasSubstr("does not exist"));
  EXPECT_FALSE(fs::exists(path("missing.db")));
  EXPECT_THROW(checkHistoryFile(text), UsageError);
  EXPECT_NO_THROW(checkHistoryFile(path("fresh.db")));
  EXPECT_FALSE(fs::exists(path("fresh.db")));  // checked, not created
}

TEST_F(HistoryStore, RecordCheckWarnsInsteadOfThrowing) {
  // After the verdict a check only warns: the exit code stays the verdict's (docs/check.md, "History").
  RunReport doc;
  doc.context.command = "check";
  doc.context.hostname = "solo";
  const std::string text = path("notes.txt");
  std::ofstream(text) << "not a history\n";
  EXPECT_EQ(recordCheck(text, doc), 0);
  EXPECT_EQ(std::ifstream(text).get(), 'n');
  const std::string f = path("h.db");
  EXPECT_EQ(recordCheck(f, doc), 1);
  EXPECT_EQ(recordCheck(f, doc), 2);
  const auto runs = Store::open(f, Store::Mode::kRead)->runs();
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_EQ(runs[1].nodes.size(), 1u);
  EXPECT_EQ(runs[1].nodes[0].host, "solo");
}

}  // namespace
}  // namespace pf::history
