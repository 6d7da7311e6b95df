// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Helpers shared by the doctor's tests: read a data file, analyse a string with the built-in catalog.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "rule_catalog.hpp"

namespace pf::doctor::test {

/// A folder under /tmp for one test's files, removed with everything in it when the test ends.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/pf_doctor_test_XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// Writes `bytes` to `name` inside the folder (creating its parent folders); returns the file's path.
  std::string file(const std::string& name, const std::string& bytes) const {
    const std::string p = path_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string readData(const std::string& name) {
  std::ifstream in(std::string(PF_DOCTOR_DATA) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline const Catalog& catalog() {
  static const Catalog c = builtinCatalog();
  return c;
}

inline Analysis analyzeText(const std::string& text, const std::string& name = "log") {
  return analyze(catalog(), {Source{name, text}});
}

/// The ids of the diagnoses of `text`, ranked as the report lists them.
inline std::vector<std::string> rankedRuleIds(const std::string& text) {
  std::vector<std::string> ids;
  for (const auto& d : analyzeText(text).diagnoses) ids.push_back(d.rule->id);
  return ids;
}

/// Whether `rule` is among the diagnoses of `text`, at any rank.
inline bool diagnoses(const std::string& text, const std::string& rule) {
  const auto ids = rankedRuleIds(text);
  return std::find(ids.begin(), ids.end(), rule) != ids.end();
}

/// The id of the diagnosis the report lists first, or "(none)".
inline std::string topRule(const std::string& text) {
  auto a = analyzeText(text);
  return a.diagnoses.empty() ? "(none)" : a.diagnoses.front().rule->id;
}

/// Lines a program prints, each expected to reach `rule` first (the sweeps of programs' own messages).
struct RuleLines {
  const char* rule;
  std::vector<std::string> lines;
};

/// Whether every line of `table` reaches its rule first, and the table holds `expectedLines` lines (so a test also
/// notices a table that lost some); the failure lists each line with the rule it reached instead.
inline ::testing::AssertionResult eachLineReachesItsRule(const std::vector<RuleLines>& table, int expectedLines) {
  std::vector<std::string> misses;
  int count = 0;
  for (const auto& e : table) {
    for (const auto& line : e.lines) {
      ++count;
      const std::string got = topRule(line + "\n");
      if (got != e.rule) misses.push_back(line + " -> " + got + " (expected " + e.rule + ")");
    }
  }
  if (misses.empty() && count == expectedLines) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << count << " lines (expected " << expectedLines
                                       << "); missing their rule: " << ::testing::PrintToString(misses);
}

/// PyTorch's watchdog line for a collective that timed out on `rank`: the consequence most chains of events end in.
inline std::string watchdogTimeoutLine(int rank = 0) {
  const std::string r = std::to_string(rank);
  return "[rank" + r + "]:[E109 22:46:25.933527530 ProcessGroupNCCL.cpp:632] [Rank " + r +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, NumelIn=1, "
         "NumelOut=1, Timeout(ms)=600000) ran for 600044 milliseconds before timing out.\n";
}

}  // namespace pf::doctor::test
