// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Progress lines for long runs (sweep per size, pairs per round, scale per world size and repetition), on
// stderr so that stdout stays what --format/--json put there. A run's first seconds print nothing; after that a
// line at most every few seconds says what is done, the time so far and an estimate of the time left.
// PREFLIGHT_PROGRESS=always prints from the first unit of work (tests, slow terminals), =never prints none.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "pf/timer.hpp"

namespace pf {

/// Seconds left when the work done so far took `elapsed` seconds: elapsed x left / done, for units of work
/// that each cost their weight (the caller's model of what a unit costs). nullopt before any work is done.
std::optional<double> secondsLeftByShare(double elapsed, double doneWeight, double leftWeight);

/// Seconds left from the units measured so far: a line seconds = a + b x size fitted by least squares to
/// (size, seconds) of each finished unit (a, b >= 0: a fixed cost and a cost per byte), summed over the sizes
/// of the units left. With one unit, or sizes all equal, every unit left costs the mean so far.
std::optional<double> secondsLeftByFit(const std::vector<double>& doneSizes, const std::vector<double>& doneSeconds,
                                       const std::vector<double>& leftSizes);

/// "45 s", "3 min 05 s", "2 h 07 min".
std::string formatDuration(double seconds);

class ProgressLine {
 public:
  /// @param subject what runs, e.g. "sweep all_reduce"; @param quiet no lines at all (--quiet).
  explicit ProgressLine(std::string subject, bool quiet = false, std::ostream* out = nullptr);
  /// Seconds since the line was made.
  double elapsed() const { return clock_.seconds(); }
  /// `done` e.g. "5/12 sizes"; `left` the estimate (nullopt: "time left unknown yet"). Prints when due.
  void update(const std::string& done, std::optional<double> left);

 private:
  std::string subject_;
  std::ostream* out_;
  bool never_ = false, always_ = false;
  Timer clock_;
  double lastPrint_ = -1;
};

}  // namespace pf
