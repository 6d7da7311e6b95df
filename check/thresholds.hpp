// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The limits `preflight check` and `preflight pairs` judge by. Defaults need no editing on a normal cluster:
// they are relative to the expected figure (from the topology, or from the healthy majority of pairs), so one
// file serves every SKU. A threshold file (TOML, docs/check.md) overrides any of them.
//
// Limits are size-aware: a small message is judged by its latency, a bandwidth limit applies only where a size
// is bandwidth-bound (at least `bandwidth_bound_factor` x the bandwidth-delay product), because judging a 64 KiB
// transfer by GB/s fails healthy nodes on latency noise.
#pragma once

#include <optional>
#include <string>

#include "pf/result.hpp"

namespace pf::check {

struct PairLimits {
  double bwFailFraction = 0.5;   ///< fail a pair below this fraction of the expected bandwidth
  double bwWarnFraction = 0.75;  ///< warn below this fraction
  double latFailFactor = 5.0;    ///< fail a pair above this multiple of the expected latency ...
  double latWarnFactor = 2.5;    ///< ... warn above this one ...
  double latSlackUs = 100;       ///< ... and never for less than this many microseconds above it
  /// A pair below bwFailFraction fails (below bwWarnFraction warns) only when it is also this many robust
  /// deviations (log scale) below the healthy pairs' median, where their spread is known: a pair within the
  /// majority's own noise is a warning (a pass above the fail fraction).
  double bwSpreadFailZ = 3.5;
  double bwMinGbps = 0;  ///< absolute floor (0 = none)
  double latMaxUs = 0;   ///< absolute ceiling (0 = none)
  /// A node profile's expect.pair_busbw_gbs: replaces the expectation derived from the link rates.
  std::optional<double> declaredBwGbps;
  std::string declaredSource;  ///< where it came from, for the report
};

struct AllReduceLimits {
  double bwWarnFraction = 0.25;     ///< warn when busbw is below this fraction of the pair expectation
  double latWarnFactor = 10;        ///< warn when a latency-bound size takes this multiple of 2(n-1) x pair latency
  double bandwidthBoundFactor = 4;  ///< a size is bandwidth-bound from this multiple of the bandwidth-delay product
  /// A node profile's expect.allreduce_busbw_gbs: the bandwidth-bound sizes are judged against it instead of
  /// the pair expectation.
  std::optional<double> declaredBusbwGbps;
  std::string declaredSource;
};

struct Thresholds {
  PairLimits pairs;
  AllReduceLimits allreduce;
  double regressionPercent = 20;  ///< --baseline: fail when a figure drops by more than this
  std::string source = "defaults";

  /// The values as JSON (for the result document's params).
  Json toJson() const;
};

/// Defaults, overridden by the file at `path` (empty = defaults only).
/// @throws UsageError naming the file, line and key for a syntax error, an unknown key or an out-of-range value.
Thresholds loadThresholds(const std::string& path);

/// Defaults overridden by TOML `text` (for tests). @param origin name used in messages
Thresholds thresholdsFromText(const std::string& text, const std::string& origin);

}  // namespace pf::check
