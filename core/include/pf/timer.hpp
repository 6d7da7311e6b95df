// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#pragma once

#include <chrono>
#include <string>

namespace pf {

/// Host wall-clock timer on steady_clock, the clock nccl-tests' timer.cc uses, so times compare directly.
class Timer {
 public:
  Timer() : start_(Clock::now()) {}
  void reset() { start_ = Clock::now(); }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  double micros() const { return seconds() * 1e6; }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

/// Current UTC time as ISO 8601 ("2026-11-22T10:00:00Z"), for result documents.
std::string utcNowIso8601();

}  // namespace pf
