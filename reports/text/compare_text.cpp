// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight compare` in the terminal: per compared result, one line per figure (BASE, NEW, the signed
// change and the limit that applied; regressions marked), then the result's verdict line and fix.
#include <fmt/format.h>

#include "pf/comparison_row.hpp"
#include "text_view.hpp"

namespace pf::reports {
namespace {

class CompareText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    std::string s;
    for (const Result& r : report.results) {
      if (r.kind == Kind::kComparison && r.rows.size() > 1) {
        s += fmt::format("# {} vs {} ({})\n", r.params.value("base_key", r.key), r.params.value("new", ""),
                         r.params.value("basis", ""));
        s += fmt::format("{:<14} {:>12} {:<15} {:>12} {:>12} {:>9} {:>7}  {}\n", "series", "item", "metric", "base",
                         "new", "change", "limit", "");
        for (const Json& j : r.rows) {
          const ComparisonRow row = comparisonRowFromJson(j);
          s += fmt::format("{:<14} {:>12} {:<15} {:>12.4g} {:>12.4g} {:>+8.1f}% {:>6.1f}%  {}{}\n", row.subject,
                           row.item, row.metric, row.base, row.value, row.change_pct, row.limit_pct,
                           row.regressed ? "REGRESSED" : "", row.note.empty() ? "" : " (" + row.note + ")");
        }
      }
      s += statusLines({r});
    }
    return s;
  }
};

PF_REGISTER_TEXT_VIEW(CompareText, "compare");

}  // namespace
}  // namespace pf::reports
