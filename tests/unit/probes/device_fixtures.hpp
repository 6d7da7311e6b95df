// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What the device probe tests share: a probe run on a captured tree of tests/fixtures (PF_FIXTURES) with its job
// environment (tests/fixtures/env/device-<tree>.env).
#pragma once

#include <filesystem>
#include <string>

#include "probe.hpp"

namespace pf::probes {

inline Environment envFile(const std::string& name) {
  return Environment::fromFile(std::string(PF_FIXTURES "/env/device-") + name + ".env");
}

inline Result run(const std::string& probe, const std::filesystem::path& root, const Environment& env = Environment()) {
  return Registry<Probe>::instance().create(probe)->run(SystemView(root, env), {});
}

inline Result runFixture(const std::string& probe, const std::string& tree) {
  return run(probe, std::filesystem::path(PF_FIXTURES) / tree, envFile(tree));
}

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace pf::probes
