// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "efficiency.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pf::scaling {

Spread spreadOf(std::vector<double> v) {
  Spread s;
  s.n = static_cast<int>(v.size());
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  s.median = v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
  s.min = v.front();
  s.max = v.back();
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  s.stddev = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
  return s;
}

Spread efficiency(const std::vector<double>& thrN, const std::vector<double>& thr1, int ranks) {
  if (ranks < 1) throw std::invalid_argument("ranks must be >= 1");
  const double base = spreadOf(thr1).median;
  if (thr1.empty() || !(base > 0)) throw std::invalid_argument("the 1-rank throughput must be measured and > 0");
  std::vector<double> e;
  for (double t : thrN) e.push_back(t / (ranks * base));
  return spreadOf(e);
}

double nearestRankPercentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(std::min<double>(v.size() - 1, std::floor(q * (v.size() - 1) + 0.5)))];
}

Json toJson(const Spread& s) {
  return Json{{"median", s.median}, {"min", s.min}, {"max", s.max}, {"stddev", s.stddev}, {"n", s.n}};
}

}  // namespace pf::scaling
