// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The capacity-planning model. An all-reduce of S bytes over n ranks costs, with a per-message latency
// alpha and a per-byte time beta (Thakur, Rabenseifner & Gropp 2005; NCCL's PERFORMANCE.md for the ring
// factor 2(n-1)/n, see nccl-tests' doc/PERFORMANCE.md):
//   ring: T = 2(n-1) alpha + 2(n-1)/n S beta
//   tree: T = 2 log2(n) alpha + 2 S beta   (reduce then broadcast, pipelined)
// A sweep measured at p ranks gives t(S) ~ a + b S per size range; a least-squares fit of (a, b) is turned
// into (alpha, beta) through the ring formula at p. The step time at n ranks is then simulated: buckets
// become ready during backward at their layers' share of the measured backward time, are reduced one after
// another, and whatever ends after backward is exposed. A synchronous step also waits for its slowest rank:
// that straggler term is read off the reference run's own step-time distribution (see StepModelInput).
// This file is one level's model; fabric_model.hpp puts an intra-node and an inter-node level together.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace pf::scaling {

struct LineFit {
  double intercept = 0, slope = 0;
  double maxRelError = 0;  ///< of the fit over its own points
};

/// Least squares y = intercept + slope x. @throws std::invalid_argument with fewer than 2 distinct x.
LineFit fitLine(const std::vector<double>& x, const std::vector<double>& y);

struct AlphaBeta {
  double alphaUs = 0;     ///< per message step
  double betaUsPerB = 0;  ///< per byte
  double splitBytes = 0;  ///< sizes below use `small`, at or above use this fit (see CommModel)
  double relError = 0;    ///< the fit's largest relative residual over the sweep points it was fitted to
};

struct CommModel {
  AlphaBeta small, large;
  double splitBytes = 65536;
  /// Ring/tree time (the faster, as NCCL's tuner picks) for `bytes` over `ranks`.
  double allReduceUs(double bytes, int ranks) const;
};

/// Fits from sweep points (bytes, time_us) measured at `sweepRanks` (>= 2).
CommModel fitCommModel(const std::vector<double>& bytes, const std::vector<double>& timeUs, int sweepRanks,
                       double splitBytes = 65536);

struct StepModelInput {
  double computeUs = 0;                     ///< forward + backward at 1 rank (per-rank batch fixed)
  double backwardFraction = 2.0 / 3.0;      ///< share of compute that is backward
  double otherUs = 0;                       ///< optimizer and the rest of the step
  std::vector<double> bucketBytes;          ///< in the order they become ready
  std::vector<double> bucketReadyFraction;  ///< of backward, when each bucket is complete (0..1]
  /// The reference's per-step times (each already the slowest of its `baseRanks` ranks); empty = no
  /// straggler term. A synchronous step waits for the slowest rank: with independent per-rank jitter the
  /// median of the max over n ranks is the 0.5^(baseRanks/n) quantile of the reference's step times.
  std::vector<double> stepSamplesUs;
  int baseRanks = 1;
};

struct StepPrediction {
  double stepUs = 0, exposedUs = 0, commUs = 0;
  double stragglerUs = 0;  ///< waiting for the slowest rank, from the reference's step-time spread
};

/// Linear-interpolated quantile q in [0, 1] of `v` (0 when empty).
double quantile(std::vector<double> v, double q);

/// The step at `ranks`, each bucket's all-reduce costing `allReduceUs(bytes)`.
StepPrediction predictStep(const StepModelInput& in, const std::function<double(double)>& allReduceUs, int ranks);
StepPrediction predictStep(const StepModelInput& in, const CommModel& model, int ranks);

}  // namespace pf::scaling
