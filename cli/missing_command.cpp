// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A command this build left out (its library was not found or was turned off) still answers to its name, with
// what to install, instead of CLI11's "unexpected argument". CMake compiles this file once per missing command,
// with PF_MISSING_COMMAND (the name) and PF_MISSING_WHY (the reason and the fix) defined.
#include <fmt/format.h>

#include "command.hpp"
#include "pf/error.hpp"

namespace pf::cli {
namespace {

class MissingCommand final : public Command {
 public:
  std::string summary() const override { return fmt::format("(not in this build: {})", PF_MISSING_WHY); }
  void setup(CLI::App& app) override { app.allow_extras(); }
  int run(const Invocation&) override {
    throw UsageError(fmt::format("'{}' is not in this build ({}); rebuild after installing what it needs",
                                 PF_MISSING_COMMAND, PF_MISSING_WHY));
  }
};

PF_REGISTER_COMMAND(MissingCommand, PF_MISSING_COMMAND);

}  // namespace
}  // namespace pf::cli
