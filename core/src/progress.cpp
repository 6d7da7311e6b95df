// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string_view>

namespace pf {
namespace {
// A run shorter than this prints no progress; then a line at most every kEverySeconds.
constexpr double kQuietSeconds = 3;
constexpr double kEverySeconds = 2;
}  // namespace

std::optional<double> secondsLeftByShare(double elapsed, double doneWeight, double leftWeight) {
  if (doneWeight <= 0 || elapsed < 0) return std::nullopt;
  return elapsed * std::max(0.0, leftWeight) / doneWeight;
}

std::optional<double> secondsLeftByFit(const std::vector<double>& doneSizes, const std::vector<double>& doneSeconds,
                                       const std::vector<double>& leftSizes) {
  const size_t n = std::min(doneSizes.size(), doneSeconds.size());
  if (n == 0) return std::nullopt;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += doneSizes[i], my += doneSeconds[i];
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (doneSizes[i] - mx) * (doneSizes[i] - mx);
    sxy += (doneSizes[i] - mx) * (doneSeconds[i] - my);
  }
  // A negative slope (noise among small sizes) or a negative intercept would predict less than nothing.
  double b = sxx > 0 ? std::max(0.0, sxy / sxx) : 0.0;
  double a = my - b * mx;
  if (a < 0) {
    a = 0;
    double sx2 = 0, sxy0 = 0;  // the line through the origin instead
    for (size_t i = 0; i < n; ++i) sx2 += doneSizes[i] * doneSizes[i], sxy0 += doneSizes[i] * doneSeconds[i];
    b = sx2 > 0 ? sxy0 / sx2 : 0.0;
  }
  double left = 0;
  for (double x : leftSizes) left += a + b * x;
  return left;
}

std::string formatDuration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  const long long t = std::llround(s);
  if (t < 60) return fmt::format("{} s", t);
  if (t < 3600) return fmt::format("{} min {:02} s", t / 60, t % 60);
  return fmt::format("{} h {:02} min", t / 3600, (t % 3600) / 60);
}

ProgressLine::ProgressLine(std::string subject, bool quiet, std::ostream* out)
    : subject_(std::move(subject)), out_(out ? out : &std::cerr) {
  const char* env = std::getenv("PREFLIGHT_PROGRESS");
  const std::string_view mode = env ? env : "";
  never_ = quiet || mode == "never";
  always_ = !never_ && mode == "always";
}

void ProgressLine::update(const std::string& done, std::optional<double> left) {
  if (never_) return;
  const double now = clock_.seconds();
  if (!always_ && (now < kQuietSeconds || (lastPrint_ >= 0 && now - lastPrint_ < kEverySeconds))) return;
  lastPrint_ = now;
  *out_ << fmt::format("[preflight] {}: {}, {} elapsed, {}", subject_, done, formatDuration(now),
                       left ? "about " + formatDuration(*left) + " left" : std::string("time left not known yet"))
        << std::endl;
}

}  // namespace pf
