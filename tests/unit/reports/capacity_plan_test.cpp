// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The capacity plan: every cell is a figure of the scale document, and the sentences say what they compare.
#include <gtest/gtest.h>

#include "reporter.hpp"
#include "tables/table_model.hpp"

namespace pf::reports::tables {
namespace {

Result plannedScale() {
  Result r;
  r.key = "scale.weak";
  r.kind = Kind::kScale;
  r.params = {{"bucket_cap_mb", 25.0}};
  r.rows.push_back(Json{{"ranks", 1},
                        {"throughput_sps", {{"median", 1000.0}, {"min", 990.0}, {"max", 1010.0}}},
                        {"efficiency", {{"median", 1.0}, {"min", 0.99}, {"max", 1.01}}},
                        {"step_us_p50", 32000.0},
                        {"exposed_comm_us", 0.0}});
  r.metrics["predictions"] = Json::array({Json{{"ranks", 64},
                                               {"step_us", 40000.0},
                                               {"exposed_comm_us", 8000.0},
                                               {"throughput_sps", 51200.0},
                                               {"efficiency", 0.8}}});
  r.metrics["prediction_max_abs_error"] = 0.05;
  r.metrics["validation"] = Json::array({Json{{"ranks", 2},
                                              {"from_ranks", 1},
                                              {"predicted_step_us", 33000.0},
                                              {"measured_step_us", 34000.0},
                                              {"relative_error", -0.0294}}});
  r.metrics["buckets"] = {
      {"ranks", 64},
      {"buckets",
       {Json{{"bytes", 4096.0}, {"latency_us", 30.0}, {"bandwidth_us", 2.0}, {"bound", "latency"}},
        Json{{"bytes", 26214400.0}, {"latency_us", 30.0}, {"bandwidth_us", 5000.0}, {"bound", "bandwidth"}}}},
      {"caps",
       {Json{{"cap_mb", 1.0}, {"buckets", 30}, {"step_us", 41000.0}},
        Json{{"cap_mb", 25.0}, {"buckets", 2}, {"step_us", 40000.0}},
        Json{{"cap_mb", 100.0}, {"buckets", 1}, {"step_us", 39000.0}}}},
      {"best_cap_mb", 100.0}};
  return r;
}

TEST(CapacityPlan, AnswersFromTheDocumentsFigures) {
  const Section s = capacityPlan(plannedScale());
  ASSERT_EQ(s.tables.size(), 4u);
  const Table& sizes = s.tables[0];
  ASSERT_EQ(sizes.rows.size(), 2u);
  EXPECT_EQ(sizes.rows[0],
            (std::vector<std::string>{"1", "measured", "32000.0", "1000", "1.000 (0.990-1.010)", "0.0"}));
  EXPECT_EQ(sizes.rows[1], (std::vector<std::string>{"64", "predicted", "40000.0", "51.2 k", "0.800", "8000.0"}));
  EXPECT_EQ(s.tables[1].rows.at(0).back(), "-2.9%");
  EXPECT_EQ(s.tables[2].rows.at(0), (std::vector<std::string>{"0", "4 KiB", "30.0", "2.0", "latency"}));
  ASSERT_EQ(s.headline.size(), 4u);
  EXPECT_EQ(s.headline[0],
            "At 64 ranks the model predicts a step of 40 ms, 51.2 k samples/s and a scaling efficiency of 0.80.");
  EXPECT_EQ(s.headline[1], "On the sizes that were measured, the model's step time was off by at most 5.0%.");
  EXPECT_NE(s.headline[2].find("1 of 2 gradient buckets are latency-bound"), std::string::npos);
  EXPECT_EQ(s.headline[3], "The model's best bucket cap at 64 ranks is 100 MiB (this run used 25 MiB).");
}

TEST(CapacityPlan, ModelledInSwitchReductionsAreSaidToBeModelled) {
  Result r = plannedScale();
  EXPECT_EQ(capacityPlan(r).headline.size(), 4u);  // no bucket in the switch: no sentence about it
  r.metrics["predictions"][0]["buckets"] =
      Json::array({Json{{"bytes", 4096.0}, {"algorithm", "tree"}, {"in_switch", false}},
                   Json{{"bytes", 26214400.0}, {"algorithm", "nvls_tree"}, {"in_switch", true}}});
  const Section s = capacityPlan(r);
  ASSERT_EQ(s.headline.size(), 5u);
  EXPECT_NE(s.headline[1].find("in-switch reductions (NVLS, CollNet)"), std::string::npos) << s.headline[1];
  EXPECT_NE(s.headline[1].find("not from a sweep that ran them"), std::string::npos) << s.headline[1];
}

TEST(CapacityPlan, NoPlanWithoutTheModel) {
  Result r = plannedScale();
  r.metrics = Json::object();
  EXPECT_TRUE(capacityPlan(r).tables.empty());
  RunReport doc;
  doc.context.command = "scale";
  doc.results.push_back(plannedScale());
  EXPECT_NE(renderDocument("html", doc).find("<h2>Capacity plan</h2>"), std::string::npos);
  EXPECT_NE(renderDocument("md", doc).find("## Capacity plan"), std::string::npos);
}

}  // namespace
}  // namespace pf::reports::tables
