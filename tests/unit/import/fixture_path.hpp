// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Where the importer tests' nccl-tests outputs are (tests/fixtures/nccl-tests; the path comes from CMake).
#pragma once

#include <string>

inline std::string fixture(const std::string& name) { return std::string(PF_NCCL_TESTS_FIXTURES) + "/" + name; }
