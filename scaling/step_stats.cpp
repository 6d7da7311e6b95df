// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "step_stats.hpp"

#include <algorithm>

#include "efficiency.hpp"

namespace pf::scaling {

void StepStats::addStep(const StepTiming& st, GradReducer& g, int n) {
  stepUs_.push_back(g.allMax(st.stepUs));  // a step is as slow as its slowest rank
  computeUs_.push_back(g.allSum(st.computeUs) / n);
  commUs_.push_back(g.allSum(st.commUs) / n);
  exposedUs_.push_back(g.allSum(st.exposedUs) / n);
  restUs_.push_back(g.allSum(st.restUs) / n);
}

void StepStats::addRep(double wallSeconds, int globalBatch, int steps, const std::vector<BucketEvent>& events,
                       int depth, GradReducer& g) {
  const double wall = g.allMax(wallSeconds);
  thr_.push_back(static_cast<double>(globalBatch) * steps / wall);
  for (const auto& e : events) overlapped_ += e.completedAfterLayers < depth ? 1 : 0;
  buckets_ += static_cast<int>(events.size());
  ++reps_;
}

Json StepStats::rowFields() const {
  const int reps = std::max(1, reps_);
  return Json{{"throughput_sps", toJson(spreadOf(thr_))},
              {"throughput_reps_sps", thr_},
              {"step_us_p50", nearestRankPercentile(stepUs_, 0.5)},
              {"step_us_p90", nearestRankPercentile(stepUs_, 0.9)},
              {"step_us_samples", stepUs_},
              {"compute_us", nearestRankPercentile(computeUs_, 0.5)},
              {"comm_us", nearestRankPercentile(commUs_, 0.5)},
              {"exposed_comm_us", nearestRankPercentile(exposedUs_, 0.5)},
              {"rest_us", nearestRankPercentile(restUs_, 0.5)},
              {"buckets", buckets_ / reps},
              {"buckets_completed_during_backward", overlapped_ / reps}};
}

}  // namespace pf::scaling
