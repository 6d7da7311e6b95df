// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A `preflight` subcommand. Each command lives in its own file, declares its options in setup() and registers
// itself with PF_REGISTER_COMMAND; main() builds the CLI11 app from the registry. Commands stay thin: they
// parse, call the libraries and choose reporters.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "pf/registry.hpp"

namespace pf::cli {

/// The process's arguments, for commands that relaunch themselves or initialise MPI.
struct Invocation {
  int* argc;
  char*** argv;
};

/// key() is the subcommand's name, handed over by the registry (pf::Registered).
class Command : public Registered {
 public:
  /// One line for `preflight --help`.
  virtual std::string summary() const = 0;
  /// Declares the options on `app` (the subcommand); values are bound to members.
  virtual void setup(CLI::App& app) = 0;
  /// Runs the command; returns the process exit code (pf::ExitCode values). May throw pf::Error.
  virtual int run(const Invocation& inv) = 0;
};

/// The `preflight` entry point, also called by tests: parses, runs, maps errors to exit codes.
int main(int argc, char** argv);

/// The version string ("0.1.0").
const char* version();
/// The git commit the binary was built from ("d367f56abcde", "-modified" appended when the tree had uncommitted
/// changes, "unknown" outside git); generated at build time (cmake/PfBuildInfo.cmake).
const char* gitCommit();
/// One line per optional component: name, yes/no, what it gives (generated at configure time).
const char* buildComponents();
/// What `preflight --version` prints: the version, the commit and the components.
std::string versionText();

}  // namespace pf::cli

#define PF_REGISTER_COMMAND(Type, key) PF_REGISTER(::pf::cli::Command, Type, key)
