// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <memory>

#include "command.hpp"
#include "completion.hpp"
#include "pf/error.hpp"
#include "pf/gpu_module.hpp"
#include "pf/log.hpp"
#include "run_guards.hpp"

namespace pf::cli {

const char* version() { return PF_VERSION; }

std::string versionText() {
  // Whether this node can use the GPU module (opening it, so --version answers for the libraries here).
  const std::string why = gpu::unavailableReason();
  std::string text =
      fmt::format("preflight {}\ncommit: {}\noptional components (yes = built in):\n{}GPU module: {}", version(),
                  gitCommit(), buildComponents(), why.empty() ? gpu::modulePath() + " (loads)" : why);
  if (!text.empty() && text.back() == '\n') text.pop_back();  // CLI11 ends the version text with its own newline
  return text;
}

int main(int argc, char** argv) {
  restoreDefaultSignals();
  CLI::App app{"preflight: diagnostics and benchmarks for distributed GPU training clusters", "preflight"};
  app.set_version_flag(
      "--version", [] { return versionText(); },
      "print the version, the git commit and the optional components built in");
  app.require_subcommand(1);
  app.footer(
      "Run `preflight <command> --help` for a command's options and examples.\n"
      "Exit codes: 0 pass, 1 a check failed, 2 bad usage or input, 3 a library or the system failed, 4 timeout.\n");
  std::string logLevel;
  app.add_option("--log-level", logLevel, "stderr log threshold: debug, info, warn (default) or error")
      ->check(CLI::IsMember({"debug", "info", "warn", "error"}));

  std::map<CLI::App*, std::unique_ptr<Command>> commands;
  auto& registry = Registry<Command>::instance();
  for (const std::string& key : registry.keys()) {
    auto cmd = registry.create(key);
    CLI::App* sub = app.add_subcommand(cmd->key(), cmd->summary());
    cmd->setup(*sub);
    commands[sub] = std::move(cmd);
  }
  std::string completionShell;
  addCompletionCommand(app, completionShell);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0; everything else is bad usage: exit 2, said the way
    // every other error is ("preflight sweep: ..."), with CLI11's text naming the option and the value.
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string who = "preflight";
    for (const CLI::App* sub : app.get_subcommands()) who += " " + sub->get_name();
    std::cerr << fmt::format("{}: {}\nRun `{} --help` for the options.", who, e.what(), who) << std::endl;
    return static_cast<int>(ExitCode::kUsage);
  }
  if (logLevel == "debug") log::setLevel(log::Level::kDebug);
  if (logLevel == "info") log::setLevel(log::Level::kInfo);
  if (logLevel == "error") log::setLevel(log::Level::kError);

  if (app.got_subcommand("completion")) {
    std::cout << (completionShell == "bash" ? bashCompletion(app) : zshCompletion(app));
    return 0;
  }
  for (auto& [sub, cmd] : commands) {
    if (!sub->parsed()) continue;
    Invocation inv{&argc, &argv};
    try {
      return cmd->run(inv);
    } catch (const Error& e) {
      std::cerr << "preflight " << cmd->key() << ": " << e.what() << std::endl;
      return static_cast<int>(e.code());
    } catch (const std::exception& e) {
      std::cerr << "preflight " << cmd->key() << ": internal error: " << e.what() << std::endl;
      return static_cast<int>(ExitCode::kRuntime);
    }
  }
  return static_cast<int>(ExitCode::kUsage);
}

}  // namespace pf::cli
