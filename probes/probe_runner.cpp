// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Runs the registered probes. The runner is the exception boundary: a probe that throws becomes an `error`
// result with the exception's text, and the remaining probes still run (one broken probe must not hide the
// others' findings).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>

#include "pf/error.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {

void addEvidence(Result& r, const std::string& what, const Json& value, const std::string& source) {
  r.evidence.push_back({what, value, "", source});
}

std::vector<Result> runProbes(const SystemView& sys, const ProbeOptions& opt, const std::vector<std::string>& only) {
  auto& registry = Registry<Probe>::instance();
  std::vector<std::string> names = registry.keys();
  if (!only.empty()) {
    for (const auto& want : only) {
      if (!registry.contains(want))
        throw UsageError(fmt::format("--only: no probe named '{}'; known probes: {}", want, fmt::join(names, ", ")));
    }
    std::erase_if(names, [&](const std::string& n) { return std::find(only.begin(), only.end(), n) == only.end(); });
  }
  const std::string host = nodeName(sys);
  std::vector<Result> results;
  for (const auto& name : names) {
    Result r;
    try {
      r = registry.create(name)->run(sys, opt);
    } catch (const std::exception& e) {
      r = Result{};
      r.status = Status::kError;
      r.message = fmt::format("probe '{}' could not run: {}", name, e.what());
    }
    // The runner owns identity fields so that every probe's result is addressable the same way.
    r.key = "probe." + name;
    r.kind = Kind::kProbe;
    if (r.host.empty()) r.host = host;
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace pf::probes
