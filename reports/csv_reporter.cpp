// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// CSV of the table rows of every result (sweep rows today): one header from the first row's fields, then one
// line per row. Empty cells mean null (not measured). Results without rows are listed as key,status lines.
#include <sstream>

#include "reporter.hpp"

namespace pf::reports {
namespace {

std::string cell(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  }
  return v.dump();
}

class CsvReporter final : public Reporter {
 public:
  std::string format() const override { return "csv"; }
  std::string render(const RunReport& report) const override {
    std::ostringstream out;
    bool header = false;
    for (const Result& r : report.results) {
      for (const Json& row : r.rows) {
        if (!header) {
          out << "key";
          for (const auto& [k, v] : row.items()) out << "," << k;
          out << "\n";
          header = true;
        }
        out << r.key;
        for (const auto& [k, v] : row.items()) out << "," << cell(v);
        out << "\n";
      }
    }
    if (!header) {
      out << "key,status,message\n";
      for (const Result& r : report.results)
        out << cell(r.key) << "," << toString(r.status) << "," << cell(r.message) << "\n";
    }
    return out.str();
  }
};

PF_REGISTER_REPORTER(CsvReporter, "csv");

}  // namespace
}  // namespace pf::reports
