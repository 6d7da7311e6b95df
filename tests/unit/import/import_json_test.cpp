// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// nccl-tests' -J JSON: reading a file in the layout of nccl-tests' src/util.cu, and the round trip
// Preflight sweep → toNcclTestsJson → fromNcclTestsJson → the same rows.
#include <gtest/gtest.h>

#include <cmath>

#include "fixture_path.hpp"
#include "pf/error.hpp"
#include "pf/import.hpp"
#include "pf/sweep_row.hpp"
#include "pf/verdict.hpp"

namespace {

TEST(ImportJson, ReadsNcclTestsLayout) {
  pf::RunReport r = pf::loadDocument(fixture("synthetic-nccl-tests-J.json"));
  EXPECT_EQ(r.context.tool, "nccl-tests");
  EXPECT_EQ(r.context.world_size, 4);
  EXPECT_EQ(r.context.node_count, 2);
  EXPECT_EQ(r.context.hostname, "gpu-00");
  EXPECT_EQ(r.context.argv.at(0), "./build/all_reduce_perf");
  EXPECT_EQ(r.context.extra["import"]["format"], "json");
  EXPECT_EQ(r.context.extra["nccl-tests"]["nccl_version"], 22903);
  ASSERT_EQ(r.results.size(), 1u);
  const pf::Result& res = r.results[0];
  EXPECT_EQ(res.key, "sweep.all_reduce");
  ASSERT_EQ(res.rows.size(), 5u);  // the last in-place half is "nan": a warning, no row
  pf::SweepRow a = pf::sweepRowFromJson(res.rows[0]);
  EXPECT_EQ(a.size_bytes, 1048576u);
  EXPECT_EQ(a.root, -1);  // written as the string "    -1"
  EXPECT_DOUBLE_EQ(a.time_us, 40.5);
  EXPECT_DOUBLE_EQ(a.busbw_gbps, 38.84);
  EXPECT_EQ(a.wrong, 0);
  EXPECT_DOUBLE_EQ(*a.iter_min_us, 38.1);
  EXPECT_DOUBLE_EQ(*a.iter_max_us, 45.2);
  EXPECT_DOUBLE_EQ(*a.iter_p50_us, 39.9);
  EXPECT_DOUBLE_EQ(*a.iter_p99_us, 45.0);
  pf::SweepParams p = pf::sweepParamsFromJson(res.params);
  EXPECT_EQ(p.min_bytes, 1048576u);
  EXPECT_EQ(p.iters, 20);
  EXPECT_TRUE(p.per_iter_timing);
  EXPECT_DOUBLE_EQ(pf::sweepMetricsFromJson(res.metrics).avg_busbw_gbps, 48.656);
  EXPECT_EQ(res.status, pf::Status::kWarn);
  ASSERT_EQ(r.context.extra["import"]["warnings"].size(), 1u);
  EXPECT_EQ(r.context.extra["import"]["warnings"][0]["text"], "/results/2/in_place");
}

pf::RunReport preflightSweep() {
  pf::RunReport rep;
  rep.context.command = "sweep";
  rep.context.argv = {"preflight", "sweep", "reduce", "-b", "1K", "-e", "2K"};
  rep.context.start_time = "2026-11-23T10:00:00Z";
  rep.context.world_size = 2;
  rep.context.extra["devices"] = pf::Json::array(
      {{{"rank", 0},
        {"host", "n1"},
        {"pid", 11},
        {"device", "0"},
        {"pci_bus_id", "0000:61:00"},
        {"device_name", "H100"}},
       {{"rank", 1}, {"host", "n2"}, {"pid", 12}, {"device", "-"}, {"pci_bus_id", "host"}, {"device_name", "cpu"}}});
  pf::Result r;
  r.key = "sweep.reduce";
  r.kind = pf::Kind::kSweep;
  pf::SweepParams p;
  p.collective = "reduce";
  p.backend = "mpi";
  p.ranks = 2;
  p.min_bytes = 1024;
  p.max_bytes = 2048;
  p.step_factor = 2;
  p.iters = 7;
  p.warmup_iters = 2;
  p.check_iters = 1;
  p.per_iter_timing = true;
  p.root = 1;
  r.params = pf::toJson(p);
  for (uint64_t size : {1024u, 2048u})
    for (const char* place : {"out", "in"}) {
      pf::SweepRow row;
      row.collective = "reduce";
      row.size_bytes = size;
      row.count = size / 4;
      row.dtype = "float";
      row.op = "max";
      row.root = 1;
      row.placement = place;
      row.time_us = 12.345678901;
      row.algbw_gbps = 0.083;
      row.busbw_gbps = 0.0831;
      row.wrong = 0;
      row.iter_min_us = 10.5;
      row.iter_p50_us = 12.25;
      row.iter_p99_us = 20.125;
      row.iter_max_us = 21.0;
      row.rank_skew = 1.1;
      row.slowest_rank = 1;
      r.rows.push_back(pf::toJson(row));
    }
  pf::SweepMetrics m;
  m.avg_busbw_gbps = 0.0831;
  m.peak_busbw_gbps = 0.0831;
  m.wrong_total = 0;
  r.metrics = pf::toJson(m);
  rep.results.push_back(r);
  pf::applyVerdict(rep, false);
  return rep;
}

TEST(ImportJson, WritesNcclTestsKeys) {
  pf::Json j = pf::toNcclTestsJson(preflightSweep());
  std::vector<std::string> top;
  for (auto& [k, v] : j.items()) top.push_back(k);
  EXPECT_EQ(top, (std::vector<std::string>{"version", "start_time", "args", "env", "nccl_version", "config", "results",
                                           "out_of_bounds", "average_bus_bandwidth", "errors", "end_time"}));
  EXPECT_EQ(j["version"], 3);
  EXPECT_EQ(j["start_time"], "2026-11-23 10:00:00");
  EXPECT_EQ(j["config"]["per_iter_timing"], "true");
  EXPECT_EQ(j["config"]["step_factor"], 2);
  EXPECT_EQ(j["config"]["devices"][0]["hostname"], "n1");
  EXPECT_EQ(j["config"]["devices"][0]["device"], 0);
  EXPECT_TRUE(j["config"]["devices"][1]["device"].is_null());
  const pf::Json& e = j["results"][0];
  std::vector<std::string> keys;
  for (auto& [k, v] : e.items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"size", "count", "type", "redop", "root", "out_of_place", "out_of_place_per_iter",
                                      "in_place", "in_place_per_iter", "actual_iterations", "experiment_name"}));
  EXPECT_EQ(e["root"], "     1");
  EXPECT_EQ(e["out_of_place"]["nwrong"], 0.0);
  EXPECT_TRUE(e["out_of_place_per_iter"]["avg_us"].is_null());  // not measured: null, never made up
  EXPECT_EQ(j["out_of_bounds"]["okay"], "true");
  EXPECT_EQ(j["average_bus_bandwidth"]["okay"], "unchecked");
}

// With every iteration's time kept (-I 1), the per-iteration object is nccl-tests' own statistics of them, and
// each rank's list becomes a per_process_max_times_us row (tools/analyze_perf_json.py reads both).
TEST(ImportJson, PerIterationStatisticsFromEveryTime) {
  pf::RunReport rep = preflightSweep();
  pf::Json& out = rep.results[0].rows[0];  // 1024 B, out-of-place
  out["iter_times_us"] = {4.0, 1.0, 3.0, 2.0};
  out["iter_rank_times_us"] = {{4.0, 1.0, 3.0, 2.0}, {3.0, 1.0, 2.0, 2.0}};
  const pf::Json j = pf::toNcclTestsJson(rep);
  const pf::Json& pi = j["results"][0]["out_of_place_per_iter"];
  EXPECT_EQ(pi["times_us"], (pf::Json{4.0, 1.0, 3.0, 2.0}));  // in the order they ran
  EXPECT_DOUBLE_EQ(pi["min_us"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(pi["max_us"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(pi["avg_us"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(pi["p50_us"].get<double>(), 3.0);  // sorted[n/2]
  EXPECT_DOUBLE_EQ(pi["p95_us"].get<double>(), 4.0);  // sorted[ceil(0.95 n) - 1]
  EXPECT_DOUBLE_EQ(pi["p99_us"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(pi["stdev_us"].get<double>(), std::sqrt(1.25));  // population: sum of squares 5 over 4
  EXPECT_DOUBLE_EQ(pi["cv_pct"].get<double>(), std::sqrt(1.25) / 2.5 * 100);
  ASSERT_EQ(pi["per_process_max_times_us"].size(), 2u);
  EXPECT_EQ(pi["per_process_max_times_us"][1], (pf::Json{3.0, 1.0, 2.0, 2.0}));
  // The in-place half of that size has no times: what the row has, null for the rest.
  const pf::Json& in = j["results"][0]["in_place_per_iter"];
  EXPECT_DOUBLE_EQ(in["min_us"].get<double>(), 10.5);
  EXPECT_TRUE(in["avg_us"].is_null());
  EXPECT_FALSE(in.contains("per_process_max_times_us"));
}

TEST(ImportJson, RoundTripKeepsRows) {
  pf::RunReport ours = preflightSweep();
  pf::RunReport back = pf::fromNcclTestsJson(pf::Json::parse(pf::toNcclTestsJson(ours).dump()), "rt.json");
  ASSERT_EQ(back.results.size(), 1u);
  EXPECT_EQ(back.results[0].key, "sweep.reduce");  // from args: "sweep reduce"
  ASSERT_EQ(back.results[0].rows.size(), ours.results[0].rows.size());
  for (size_t i = 0; i < ours.results[0].rows.size(); ++i) {
    pf::SweepRow a = pf::sweepRowFromJson(ours.results[0].rows[i]);
    pf::SweepRow b = pf::sweepRowFromJson(back.results[0].rows[i]);
    // nccl-tests' layout has no rank skew: those two fields are the only ones lost.
    a.rank_skew.reset();
    a.slowest_rank.reset();
    EXPECT_EQ(pf::toJson(a), pf::toJson(b)) << i;
  }
  pf::SweepParams p = pf::sweepParamsFromJson(back.results[0].params);
  EXPECT_EQ(p.iters, 7);
  EXPECT_EQ(p.warmup_iters, 2);
  EXPECT_EQ(p.max_bytes, 2048u);
  EXPECT_EQ(p.root, 1);
  EXPECT_EQ(back.context.world_size, 2);
}

TEST(ImportJson, OneSweepOnly) {
  pf::RunReport none;
  EXPECT_THROW(pf::toNcclTestsJson(none), pf::UsageError);
  EXPECT_THROW(pf::fromNcclTestsJson(pf::Json::array(), "x.json"), pf::UsageError);
  EXPECT_THROW(pf::fromNcclTestsJson(pf::Json{{"version", 3}, {"results", pf::Json::array()}}, "x.json"),
               pf::UsageError);
}

}  // namespace
