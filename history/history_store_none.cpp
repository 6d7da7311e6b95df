// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The store in a build without SQLite: `check --history` and `preflight history` stop with exit code 2 and say
// how to get a build that has it.
#include <fmt/format.h>

#include "history_store.hpp"
#include "pf/error.hpp"

namespace pf::history {

bool available() { return false; }

namespace {
[[noreturn]] void noSqlite(const std::string& path) {
  throw UsageError(
      fmt::format("history file '{}': this preflight was built without SQLite; install libsqlite3-dev "
                  "(bash ci/install-deps.sh) and rebuild with -DPF_WITH_SQLITE=AUTO or ON",
                  path));
}
}  // namespace

std::unique_ptr<Store> Store::open(const std::string& path, Mode) { noSqlite(path); }

void checkHistoryFile(const std::string& path) { noSqlite(path); }

}  // namespace pf::history
