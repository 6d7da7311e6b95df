// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "verdict.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pf::check {

std::vector<Result> findingsToResults(const std::vector<Finding>& findings) {
  std::vector<Result> out;
  for (const Finding& f : findings) {
    Result r;
    r.key = "check." + f.check;
    r.kind = Kind::kCheck;
    r.status = f.status;
    r.message = f.message;
    r.remedy = f.remedy;
    r.host = fmt::format("{}", fmt::join(f.hosts, ","));
    r.evidence = f.evidence;
    r.params["hosts"] = f.hosts;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace pf::check
