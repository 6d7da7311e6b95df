// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "reporter.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pf/error.hpp"

namespace pf::reports {

std::unique_ptr<Reporter> makeReporter(const std::string& format) {
  auto r = Registry<Reporter>::instance().create(format);
  if (!r)
    throw UsageError(fmt::format("unknown output format '{}': use one of {}", format,
                                 fmt::join(reporterFormats(), ", ")));
  return r;
}

std::vector<std::string> reporterFormats() { return Registry<Reporter>::instance().keys(); }

}  // namespace pf::reports
