// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pf::stats {

double percentileSorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0;
  // Nearest rank: the smallest value with at least p% of the sample at or below it.
  double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  size_t idx = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(idx, sorted.size() - 1)];
}

Summary summarize(std::span<const double> sample) {
  Summary s;
  if (sample.empty()) return s;
  std::vector<double> v(sample.begin(), sample.end());
  std::sort(v.begin(), v.end());
  s.n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.p50 = percentileSorted(v, 50);
  s.p90 = percentileSorted(v, 90);
  s.p99 = percentileSorted(v, 99);
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(s.n);
  double sq = 0;
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  s.stddev = s.n > 1 ? std::sqrt(sq / static_cast<double>(s.n - 1)) : 0;
  return s;
}

double median(std::span<const double> sample) {
  if (sample.empty()) return 0;
  std::vector<double> v(sample.begin(), sample.end());
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double mad(std::span<const double> sample) {
  double med = median(sample);
  std::vector<double> dev;
  dev.reserve(sample.size());
  for (double x : sample) dev.push_back(std::fabs(x - med));
  return median(dev);
}

double robustZ(double x, double med, double madValue) {
  // 1.4826 makes the MAD a consistent estimator of the standard deviation for normal data.
  double scale = 1.4826 * madValue;
  if (scale == 0)
    return x == med ? 0
                    : (x > med ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
  return (x - med) / scale;
}

}  // namespace pf::stats
