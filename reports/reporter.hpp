// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Every output format behind one interface. Reporters read a RunReport (the one result model) and nothing
// else: they never see MPI, CUDA or NCCL, so `preflight report` renders a saved document exactly as the run
// that wrote it did.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pf/registry.hpp"
#include "pf/result.hpp"

namespace pf::reports {

class Reporter {
 public:
  virtual ~Reporter() = default;
  /// Format name as given to --format ("json", "csv", "table").
  virtual std::string format() const = 0;
  /// The whole document in this format.
  virtual std::string render(const RunReport& report) const = 0;
};

/// The reporter for `format`. @throws UsageError listing the known formats.
std::unique_ptr<Reporter> makeReporter(const std::string& format);
std::vector<std::string> reporterFormats();

}  // namespace pf::reports

#define PF_REGISTER_REPORTER(Type, key) PF_REGISTER(::pf::reports::Reporter, Type, key)
