// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "capacity_plan.hpp"

#include <gtest/gtest.h>

#include "sweep_fit.hpp"
#include "test_levels.hpp"

using namespace pf::scaling;
using pf::Json;
using pf::scaling::testing::level;

namespace {

// A measured row as world_size_runner writes it (only the fields the model reads).
Json row(int ranks, int nodes, double stepUs, double computeUs, double exposedUs, double thrMin, double thrMax) {
  return Json{{"ranks", ranks},
              {"nodes", nodes},
              {"batch_per_rank", 4},
              {"step_us_p50", stepUs},
              {"compute_us", computeUs},
              {"exposed_comm_us", exposedUs},
              {"throughput_sps", {{"median", 4 * ranks / (stepUs * 1e-6)}, {"min", thrMin}, {"max", thrMax}}}};
}

TrainerSpec trainerSpec() {
  TrainerSpec s;
  s.model = {256, 512, 4, 16, 1};
  return s;  // 25 MiB cap: one bucket of all 2.7 MB of gradients
}

}  // namespace

TEST(ScalePlan, PredictsEachMeasuredSizeAtItsOwnAllocationWithABand) {
  const FabricModel m = fabricModelFromLevels({level(1, 1e-4, 2, 1, 0.02), level(50, 4e-2, 4, 2, 0.05)});
  // 1x2 base: 1000 us compute, 200 us exposed, 100 us rest; the throughput spread is +-10% of the median.
  Json base = row(2, 1, 1300, 1000, 200, 0, 0);
  const double med = base["throughput_sps"]["median"].get<double>();
  base["throughput_sps"]["min"] = 0.9 * med;
  base["throughput_sps"]["max"] = 1.1 * med;
  const Json rows = Json::array({base, row(6, 3, 200000, 1000, 190000, 1, 1)});
  const Json v = validatePrediction(rows, trainerSpec(), m);
  ASSERT_EQ(v["rows"].size(), 1u);
  const Json& r = v["rows"][0];
  EXPECT_EQ(r["allocation"], "3x2");  // from the row's `nodes`, not a flat count
  EXPECT_EQ(r["bottleneck"], "inter-node");
  const double low = r["predicted_step_us_low"], mid = r["predicted_step_us"], high = r["predicted_step_us_high"];
  EXPECT_LT(low, mid);
  EXPECT_LT(mid, high);
  // The band: communication by 5% (the inter-node fit), the rest by 10% (the base's spread).
  const Json p = predictRows(base, trainerSpec(), m, {{3, 2}})[0];
  const double comm = p["comm_us"];
  EXPECT_NEAR(high - mid, 0.05 * comm + 0.1 * 1100, 1e-6 * mid);
  // E(N) is relative to the base row (2 ranks), as measured rows' efficiency is: 1 at the base's allocation.
  EXPECT_NEAR(predictRows(base, trainerSpec(), m, {{1, 2}})[0]["efficiency"].get<double>(), 1.0, 1e-12);
}

TEST(ScalePlan, AddsPredictionsModelAndAdviceToTheResult) {
  const FabricModel m = fabricModelFromLevels({level(1, 1e-4, 2, 1, 0.02), level(50, 4e-2, 4, 2, 0.05)});
  pf::Result r;
  r.status = pf::Status::kPass;
  const Json rows = Json::array({row(2, 1, 1300, 1000, 200, 1, 1), row(4, 2, 100000, 1000, 98000, 1, 1)});
  addCapacityPlan(r, rows, trainerSpec(), m, {"8x4", "6"});
  ASSERT_EQ(r.metrics["predictions"].size(), 2u);
  EXPECT_EQ(r.metrics["predictions"][0]["allocation"], "8x4");
  EXPECT_EQ(r.metrics["predictions"][1]["allocation"], "3x2");  // a plain 6 laid out 2 to a node, as measured
  EXPECT_EQ(r.metrics["model"]["levels"], 2);
  EXPECT_EQ(r.metrics["buckets"]["allocation"], "8x4");
  EXPECT_EQ(r.evidence.size(), 2u);  // each level's sweep
}

TEST(ScalePlan, SaysWhenAcrossNodesRestsOnTheIntraNodeFitAlone) {
  const FabricModel m = fabricModelFromLevels({level(1, 1e-4, 2, 1, 0.02)});
  pf::Result r;
  const Json rows = Json::array({row(1, 1, 1000, 1000, 0, 1, 1), row(2, 1, 1100, 1000, 50, 1, 1)});
  addCapacityPlan(r, rows, trainerSpec(), m, {"4x2"});
  EXPECT_NE(r.message.find("no inter-node sweep"), std::string::npos) << r.message;
}

TEST(ScalePlan, FlagsAPredictedEfficiencyAboveAMeasuredOneAtFewerRanks) {
  // Measured: E(2) = 0.28. The model, from the 1-rank row and a fast intra-node fit, predicts E(8) far above it.
  const FabricModel m = fabricModelFromLevels({level(1, 1e-6, 2, 1, 0.01)});
  pf::Result r;
  r.status = pf::Status::kPass;
  Json one = row(1, 1, 1000, 1000, 0, 1, 1), two = row(2, 1, 3571, 1000, 2571, 1, 1);
  one["efficiency"] = {{"median", 1.0}};
  two["efficiency"] = {{"median", 0.28}};
  addCapacityPlan(r, Json::array({one, two}), trainerSpec(), m, {"8"});
  EXPECT_EQ(r.status, pf::Status::kWarn);
  EXPECT_NE(r.message.find("above the 0.280 measured at 2 ranks: the model is optimistic there"), std::string::npos)
      << r.message;
  EXPECT_NE(r.remedy.find("E(8) is predicted at"), std::string::npos) << r.remedy;
}
