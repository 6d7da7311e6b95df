// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <fmt/format.h>

#include "history_store.hpp"
#include "pf/error.hpp"
#include "pf/log.hpp"

namespace pf::history {

int64_t recordCheck(const std::string& path, const RunReport& report) {
  try {
    return Store::open(path, Store::Mode::kWrite)->append(recordFromReport(report));
  } catch (const Error& e) {
    PF_LOG_WARN("history", "this run was not added to the history file: {} (the exit code is the verdict's)", e.what());
  }
  return 0;
}

}  // namespace pf::history
