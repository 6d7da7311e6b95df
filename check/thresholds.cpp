// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "thresholds.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "toml_file.hpp"

namespace pf::check {
namespace {

// Every key the file may set, with its range. One table keeps the parser, the range checks and the error
// message that lists the known keys in agreement.
struct KeySpec {
  double* target;
  double min, max;
};

std::map<std::string, KeySpec> keySpecs(Thresholds& t) {
  return {
      {"pairs.bandwidth_fail_fraction", {&t.pairs.bwFailFraction, 0, 1}},
      {"pairs.bandwidth_warn_fraction", {&t.pairs.bwWarnFraction, 0, 1}},
      {"pairs.bandwidth_spread_fail_z", {&t.pairs.bwSpreadFailZ, 0, 1e6}},
      {"pairs.latency_fail_factor", {&t.pairs.latFailFactor, 1, 1e6}},
      {"pairs.latency_warn_factor", {&t.pairs.latWarnFactor, 1, 1e6}},
      {"pairs.latency_slack_us", {&t.pairs.latSlackUs, 0, 1e9}},
      {"pairs.bandwidth_min_gbps", {&t.pairs.bwMinGbps, 0, 1e6}},
      {"pairs.latency_max_us", {&t.pairs.latMaxUs, 0, 1e9}},
      {"allreduce.bandwidth_warn_fraction", {&t.allreduce.bwWarnFraction, 0, 1}},
      {"allreduce.latency_warn_factor", {&t.allreduce.latWarnFactor, 1, 1e6}},
      {"allreduce.bandwidth_bound_factor", {&t.allreduce.bandwidthBoundFactor, 0, 1e6}},
      {"baseline.regression_percent", {&t.regressionPercent, 0, 100}},
  };
}

}  // namespace

Json Thresholds::toJson() const {
  Thresholds copy = *this;
  Json j = Json::object();
  for (auto& [key, spec] : keySpecs(copy)) j[key] = *spec.target;
  j["source"] = source;
  if (pairs.declaredBwGbps) j["profile_pair_busbw_gbs"] = *pairs.declaredBwGbps;
  if (allreduce.declaredBusbwGbps) j["profile_allreduce_busbw_gbs"] = *allreduce.declaredBusbwGbps;
  return j;
}

Thresholds thresholdsFromText(const std::string& text, const std::string& origin) {
  Thresholds t;
  t.source = origin;
  auto specs = keySpecs(t);
  for (const auto& [key, value] : parseToml(text, origin)) {
    auto it = specs.find(key);
    if (it == specs.end()) {
      std::vector<std::string> known;
      for (const auto& [k, s] : specs) known.push_back(k);
      throw UsageError(fmt::format("{}: unknown threshold '{}'; known keys (as table.key): {}", origin, key,
                                   fmt::join(known, ", ")));
    }
    const double* v = std::get_if<double>(&value);
    if (!v) throw UsageError(fmt::format("{}: '{}' must be a number", origin, key));
    // !(in range) rather than (out of range): nan compares false both ways and would pass, switching a gate off.
    if (!std::isfinite(*v) || !(*v >= it->second.min && *v <= it->second.max))
      throw UsageError(
          fmt::format("{}: '{}' = {} is out of range [{}, {}]", origin, key, *v, it->second.min, it->second.max));
    *it->second.target = *v;
  }
  if (t.pairs.bwWarnFraction < t.pairs.bwFailFraction)
    throw UsageError(
        fmt::format("{}: pairs.bandwidth_warn_fraction ({}) is below bandwidth_fail_fraction ({}); "
                    "the warning limit must be the milder one",
                    origin, t.pairs.bwWarnFraction, t.pairs.bwFailFraction));
  if (t.pairs.latWarnFactor > t.pairs.latFailFactor)
    throw UsageError(
        fmt::format("{}: pairs.latency_warn_factor ({}) is above latency_fail_factor ({}); the "
                    "warning limit must be the milder one",
                    origin, t.pairs.latWarnFactor, t.pairs.latFailFactor));
  return t;
}

Thresholds loadThresholds(const std::string& path) {
  if (path.empty()) return Thresholds{};
  return thresholdsFromText(readTextFile(path), path);
}

}  // namespace pf::check
