// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// CSV of the table rows of every result, one table: a `key` column (the result the row belongs to), then the
// union of every row's fields in the order they first appear, so that a document mixing kinds of rows (a check
// has interface, sweep and pair rows) still gives one header as wide as every line. An empty cell means null
// or a field this kind of row does not have. Lists (a sweep row's every-iteration times, a scale row's samples)
// are not cells of a table and stay in the JSON document; an object (a median with its spread) is one JSON cell.
// A document without rows lists its results as key,status,message.
#include <set>
#include <sstream>

#include "reporter.hpp"

namespace pf::reports {
namespace {

std::string cell(const Json& v) {
  if (v.is_null()) return "";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

class CsvReporter final : public Reporter {
 public:
  void end(const RunReport& report, Output& out) override {
    std::vector<std::string> columns;
    std::set<std::string> seen;
    for (const Result& r : report.results)
      for (const Json& row : r.rows)
        if (row.is_object())
          for (const auto& [k, v] : row.items())
            if (!v.is_array() && seen.insert(k).second) columns.push_back(k);
    std::ostringstream s;
    if (columns.empty()) {
      s << "key,status,message\n";
      for (const Result& r : report.results)
        s << cell(r.key) << "," << toString(r.status) << "," << cell(r.message) << "\n";
      out.write(s.str());
      return;
    }
    s << "key";
    for (const auto& c : columns) s << "," << cell(c);
    s << "\n";
    for (const Result& r : report.results) {
      for (const Json& row : r.rows) {
        if (!row.is_object()) continue;
        s << cell(r.key);
        for (const auto& c : columns) s << "," << (row.contains(c) ? cell(row.at(c)) : "");
        s << "\n";
      }
    }
    out.write(s.str());
  }
};

PF_REGISTER_REPORTER(CsvReporter, "csv");

}  // namespace
}  // namespace pf::reports
