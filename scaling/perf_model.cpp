// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "perf_model.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace pf::scaling {

LineFit fitLine(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || std::set<double>(x.begin(), x.end()).size() < 2)
    throw std::invalid_argument("a line fit needs at least two distinct sizes");
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  LineFit f;
  f.slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  f.intercept = (sy - f.slope * sx) / n;
  // A negative latency is meaningless: clamp and refit the slope through the origin.
  if (f.intercept < 0) {
    f.intercept = 0;
    f.slope = sxy / sxx;
  }
  for (std::size_t i = 0; i < x.size(); ++i)
    if (y[i] > 0) f.maxRelError = std::max(f.maxRelError, std::abs(f.intercept + f.slope * x[i] - y[i]) / y[i]);
  return f;
}

namespace {
AlphaBeta toAlphaBeta(const LineFit& f, int p) {
  AlphaBeta ab;
  ab.alphaUs = f.intercept / (2.0 * (p - 1));
  ab.betaUsPerB = f.slope / (2.0 * (p - 1) / p);
  ab.relError = f.maxRelError;
  return ab;
}
double ring(const AlphaBeta& ab, double s, int n) {
  return 2.0 * (n - 1) * ab.alphaUs + 2.0 * (n - 1) / n * s * ab.betaUsPerB;
}
double tree(const AlphaBeta& ab, double s, int n) {
  return 2.0 * std::log2(static_cast<double>(n)) * ab.alphaUs + 2.0 * s * ab.betaUsPerB;
}
}  // namespace

double CommModel::allReduceUs(double bytes, int ranks) const {
  if (ranks <= 1) return 0.0;
  const AlphaBeta& ab = bytes < splitBytes ? small : large;
  return std::min(ring(ab, bytes, ranks), tree(ab, bytes, ranks));
}

CommModel fitCommModel(const std::vector<double>& bytes, const std::vector<double>& timeUs, int sweepRanks,
                       double splitBytes) {
  if (sweepRanks < 2) throw std::invalid_argument("the all-reduce sweep must have run on at least 2 ranks");
  std::vector<double> xs, ys, xl, yl;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    (bytes[i] < splitBytes ? xs : xl).push_back(bytes[i]);
    (bytes[i] < splitBytes ? ys : yl).push_back(timeUs[i]);
  }
  CommModel m;
  m.splitBytes = splitBytes;
  // With too few points on one side, one fit serves both ranges.
  const bool both =
      std::set<double>(xs.begin(), xs.end()).size() >= 2 && std::set<double>(xl.begin(), xl.end()).size() >= 2;
  if (both) {
    m.small = toAlphaBeta(fitLine(xs, ys), sweepRanks);
    m.large = toAlphaBeta(fitLine(xl, yl), sweepRanks);
  } else {
    m.small = m.large = toAlphaBeta(fitLine(bytes, timeUs), sweepRanks);
  }
  return m;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

StepPrediction predictStep(const StepModelInput& in, const CommModel& model, int ranks) {
  return predictStep(
      in, [&](double bytes) { return model.allReduceUs(bytes, ranks); }, ranks);
}

StepPrediction predictStep(const StepModelInput& in, const std::function<double(double)>& allReduceUs, int ranks) {
  StepPrediction p;
  const double back = in.computeUs * in.backwardFraction;
  const double backStart = in.computeUs - back;
  double commFree = 0;  // buckets are reduced one after another, in ready order
  for (std::size_t b = 0; b < in.bucketBytes.size(); ++b) {
    const double ready = backStart + back * in.bucketReadyFraction[b];
    const double t = ranks > 1 ? allReduceUs(in.bucketBytes[b]) : 0.0;
    const double start = std::max(ready, commFree);
    commFree = start + t;
    p.commUs += t;
  }
  p.exposedUs = std::max(0.0, commFree - in.computeUs);
  if (!in.stepSamplesUs.empty() && ranks > in.baseRanks) {
    const double q = std::pow(0.5, static_cast<double>(in.baseRanks) / ranks);
    p.stragglerUs = std::max(0.0, quantile(in.stepSamplesUs, q) - quantile(in.stepSamplesUs, 0.5));
  }
  p.stepUs = in.computeUs + p.exposedUs + in.otherUs + p.stragglerUs;
  return p;
}

}  // namespace pf::scaling
