// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "reporter.hpp"

namespace pf::reports {
namespace {

class JsonReporter final : public Reporter {
 public:
  std::string format() const override { return "json"; }
  std::string render(const RunReport& report) const override { return toJson(report).dump(2) + "\n"; }
};

PF_REGISTER_REPORTER(JsonReporter, "json");

}  // namespace
}  // namespace pf::reports
