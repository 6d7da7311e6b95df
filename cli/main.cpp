// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "command.hpp"

int main(int argc, char** argv) { return pf::cli::main(argc, argv); }
