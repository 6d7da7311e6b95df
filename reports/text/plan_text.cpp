// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight plan` in the terminal: the same section the HTML and Markdown pages show (tables/plan_section.cpp),
// as text, then the verdict line.
#include <fmt/format.h>

#include "tables/table_model.hpp"
#include "text_view.hpp"

namespace pf::reports {
namespace {

class PlanText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    std::string s;
    for (const Result& r : report.results) {
      if (r.kind != Kind::kPlan) {
        s += statusLines({r});
        continue;
      }
      s += tables::sectionText(tables::planSection(r));
      s += fmt::format("{}: {}\n", toString(r.status), r.message);
    }
    return s;
  }
};

PF_REGISTER_TEXT_VIEW(PlanText, "plan");

}  // namespace
}  // namespace pf::reports
