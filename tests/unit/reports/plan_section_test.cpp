// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The plan's page and charts: caveats first in the headline, humanly formatted cells, the Scaling tab's charts.
#include <gtest/gtest.h>

#include "charts/chart_model.hpp"
#include "pf/units.hpp"
#include "tables/table_model.hpp"

namespace pf::reports {
namespace {

Result plan() {
  Result r;
  r.key = "plan";
  r.kind = Kind::kPlan;
  r.message = "bounds: m (fsdp, 8.03 G parameters): E(N) stays at or above 0.8 up to 4 nodes of 8 GPUs";
  r.params = {{"target_efficiency", 0.8}};
  for (int n : {1, 8})
    r.rows.push_back(Json{{"nodes", n},
                          {"gpus", 8 * n},
                          {"bound", n > 1},
                          {"compute_ms", 800.0},
                          {"exposed_ms", n == 1 ? 0.0 : 250.0},
                          {"hidden_ms", 100.0},
                          {"step_ms", n == 1 ? 800.0 : 1050.0},
                          {"samples_per_s", n == 1 ? 10.0 : 9064324.8},
                          {"efficiency", n == 1 ? 1.0 : 800.0 / 1050},
                          {"efficiency_low", n == 1 ? 1.0 : 0.7},
                          {"efficiency_high", n == 1 ? 1.0 : 0.8},
                          {"collectives", Json::array({Json{{"collective", "all_gather"},
                                                            {"phase", "forward"},
                                                            {"what", "parameters"},
                                                            {"ranks", 8 * n},
                                                            {"buffer_bytes", 1048576.0},
                                                            {"wire_bytes_per_gpu", 917504.0},
                                                            {"time_ms", 1.5},
                                                            {"exposed_ms", 1.0},
                                                            {"hidden_ms", 0.5}}})}});
  r.metrics = {{"caveats", {"bounds, not measurements: the network at line rate"}},
               {"nodes_at_target", 4},
               {"nodes_at_target_low", 2},
               {"nodes_at_target_high", 4}};
  return r;
}

}  // namespace

TEST(PlanSection, CaveatsFirstThenTheAnswer) {
  const tables::Section s = tables::planSection(plan());
  ASSERT_GE(s.headline.size(), 3u);
  EXPECT_EQ(s.headline[0], "Caveat: bounds, not measurements: the network at line rate.");
  EXPECT_EQ(s.headline[1], plan().message + ".");
  EXPECT_EQ(s.headline[2], "Within the model's band the largest node count at the target is 2 to 4.");
  const tables::Table& t = s.tables.at(0);
  EXPECT_EQ(t.rows.at(1),
            (std::vector<std::string>{"8", "64", "bound", "1050", "800", "250", "100", "9.06 M", "0.76 (0.70-0.80)"}));
  EXPECT_EQ(s.tables.at(1).rows.at(0), (std::vector<std::string>{"all_gather", "forward", "parameters", "64", "1 MiB",
                                                                 "896 KiB", "1.5", "1", "0.5"}));
  EXPECT_NE(tables::sectionText(s).find("Caveat: bounds"), std::string::npos);
}

TEST(PlanSection, ChartsForTheScalingTab) {
  const auto charts = charts::planCharts(plan());
  ASSERT_EQ(charts.size(), 2u);
  EXPECT_EQ(charts[0].id, "scale.plan.efficiency");
  ASSERT_EQ(charts[0].series.size(), 2u);
  EXPECT_TRUE(charts[0].series[0].predicted);
  EXPECT_EQ(charts[0].series[0].points.at(1).low, 0.7);
  EXPECT_EQ(charts[0].series[1].name, "target");
  EXPECT_EQ(charts[1].id, "scale.plan.breakdown");
  EXPECT_EQ(charts[1].series.size(), 3u);
}

TEST(HumanNumber, NeverALongDigitString) {
  EXPECT_EQ(humanNumber(9064324.8), "9.06 M");
  EXPECT_EQ(humanNumber(850), "850");
  EXPECT_EQ(humanNumber(1024), "1024");
  EXPECT_EQ(humanNumber(12.345), "12.3");
  EXPECT_EQ(humanNumber(51200), "51.2 k");
  EXPECT_EQ(humanNumber(0.00123), "0.00123");
}

}  // namespace pf::reports
