// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// bash and zsh completion scripts made from the CLI11 app's own subcommands and options (completion.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace pf::cli {

/// The bash completion script for `app` (installed as share/bash-completion/completions/preflight).
std::string bashCompletion(const CLI::App& app);
/// The zsh completion function for `app` (installed as share/zsh/vendor-completions/_preflight).
std::string zshCompletion(const CLI::App& app);
/// Adds the hidden `completion <bash|zsh>` subcommand; the chosen shell lands in `shell`.
void addCompletionCommand(CLI::App& app, std::string& shell);

}  // namespace pf::cli
