// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight plan`'s numbers on a case small enough to compute by hand, the algorithm a sweep reflects, and
// the calibration from a scale document.
#include <gtest/gtest.h>

#include "pf/error.hpp"
#include "pf/sweep_row.hpp"
#include "plan_calibrate.hpp"
#include "plan_model.hpp"
#include "sweep_algorithm.hpp"
#include "sweep_probe_match.hpp"
#include "test_levels.hpp"

using namespace pf;
using namespace pf::scaling;
using pf::scaling::testing::level;

namespace {

// 1e6 fp32 parameters (4e6 bytes: one bucket under a 4 MiB cap), 10 ms of compute, 2 samples per GPU, no overlap.
// Intra-node: 1 us, 1 ns/B; inter-node: 10 us, 10 ns/B.
PlanInput smallCase(const char* parallelism) {
  PlanInput in;
  in.workload = parseWorkload(std::string("parameters = 1e6\ngradient_bytes = 4\nsamples_per_gpu = 2\n"
                                          "step_compute_ms = 10\nbucket_cap_mb = 4\noverlap = 0\nparallelism = \"") +
                                  parallelism + "\"\nsamples_to_train = 8000\ngpu_hour_cost = 3\n",
                              "small.toml");
  in.fabric = fabricModelFromLevels({level(1, 1e-3, 2, 1), level(10, 1e-2, 4, 2)});
  in.gpusPerNode = 2;
  in.nodes = {1, 2};
  return in;
}

}  // namespace

TEST(PlanModel, DdpByHand) {
  const PlanInput in = smallCase("ddp");
  // 1 node, 2 ranks: ring 2(n-1) alpha + 2(n-1)/n S beta = 2 + 4000 us (the tree's 8002 is slower).
  const Json one = planAllocation(in, 1);
  EXPECT_DOUBLE_EQ(one["step_ms"].get<double>(), 14.002);
  // 2 nodes x 2: the network bounds each of the ring's 6 steps: 6 (10 + 1e6 x 0.01) = 60060 us.
  const Json two = planAllocation(in, 2);
  EXPECT_EQ(two["data_parallel"], 4);
  EXPECT_DOUBLE_EQ(two["step_ms"].get<double>(), 70.06);
  EXPECT_DOUBLE_EQ(two["exposed_ms"].get<double>(), 60.06);
  EXPECT_DOUBLE_EQ(two["hidden_ms"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(two["efficiency"].get<double>(), 10 / 70.06);
  EXPECT_DOUBLE_EQ(two["samples_per_s"].get<double>(), 4 * 2 / 0.07006);
  EXPECT_DOUBLE_EQ(two["dp_wire_bytes_per_gpu"].get<double>(), 6e6);  // 2 (n-1)/n Psi
  // 8000 samples at 8 a step: 1000 steps of 70.06 ms on 4 GPUs, at 3 per GPU-hour.
  EXPECT_DOUBLE_EQ(two["steps_to_train"].get<double>(), 1000);
  EXPECT_DOUBLE_EQ(two["hours_to_train"].get<double>(), 70.06 / 3600);
  EXPECT_DOUBLE_EQ(two["gpu_hours"].get<double>(), 4 * 70.06 / 3600);
  EXPECT_DOUBLE_EQ(two["cost"].get<double>(), 3 * 4 * 70.06 / 3600);
  EXPECT_FALSE(two["bound"].get<bool>());
}

TEST(PlanModel, FsdpByHandMovesOneAndAHalfTimesTheBytes) {
  const PlanInput in = smallCase("fsdp");
  const Json two = planAllocation(in, 2);
  // All-gather forward, all-gather and reduce-scatter backward: each half an all-reduce (30030 us), all exposed.
  EXPECT_DOUBLE_EQ(two["step_ms"].get<double>(), 100.09);
  EXPECT_DOUBLE_EQ(two["dp_wire_bytes_per_gpu"].get<double>(), 9e6);
  const Json ddp = planAllocation(smallCase("ddp"), 2);
  EXPECT_DOUBLE_EQ(two["dp_wire_bytes_per_gpu"].get<double>() / ddp["dp_wire_bytes_per_gpu"].get<double>(), 1.5);
  ASSERT_EQ(two["collectives"].size(), 3u);
  EXPECT_DOUBLE_EQ(two["collectives"][0]["time_ms"].get<double>(), 30.03);
  EXPECT_DOUBLE_EQ(two["collectives"][0]["exposed_ms"].get<double>(), 30.03);
}

TEST(PlanModel, OverlapHidesBehindBackward) {
  PlanInput in = smallCase("ddp");
  in.workload.overlap = 0.5;
  // 1 node: the 4002 us all-reduce, half hidden (2001 us), which backward (6667 us) can take.
  const Json one = planAllocation(in, 1);
  EXPECT_DOUBLE_EQ(one["exposed_ms"].get<double>(), 2.001);
  EXPECT_DOUBLE_EQ(one["hidden_ms"].get<double>(), 2.001);
  // 2 nodes: half of 60060 us would be 30030 hidden, but backward lasts 6666.7 us: that much is hidden.
  const Json two = planAllocation(in, 2);
  EXPECT_NEAR(two["hidden_ms"].get<double>(), 20.0 / 3, 1e-9);
}

TEST(PlanModel, TensorParallelAllReducesAreOnTheCriticalPath) {
  PlanInput in = smallCase("ddp");
  in.workload = parseWorkload(
      "parameters = 1e6\ngradient_bytes = 2\nsamples_per_gpu = 1\nstep_compute_ms = 10\ntensor_parallel = 2\n"
      "layers = 2\nhidden_size = 100\nsequence_length = 10\n",
      "tp.toml");
  // 1 node of 2 GPUs, tp 2: one replica, no data-parallel traffic; 8 all-reduces of 2000 B over 2 GPUs, 4 us each.
  const Json one = planAllocation(in, 1);
  EXPECT_EQ(one["data_parallel"], 1);
  EXPECT_DOUBLE_EQ(one["step_ms"].get<double>(), 10.032);
  in.gpusPerNode = 3;
  EXPECT_THROW(planAllocation(in, 1), UsageError);  // tp must divide the GPUs of a node
}

TEST(PlanModel, LargestNodeCountAtTheTargetAndNoCapAdviceInsideTheBand) {
  PlanInput in = smallCase("ddp");
  in.targetEfficiency = 0.7;  // E(1) = 10 / 14.002 = 0.714, E(2) = 0.143
  Json plan = buildPlan(in);
  EXPECT_EQ(plan["nodes_at_target"], 1);
  in.targetEfficiency = 0.8;
  EXPECT_TRUE(buildPlan(in)["nodes_at_target"].is_null());
  // One bucket already: every cap from 4 MiB up predicts the same step, smaller ones more latency; nothing gains.
  EXPECT_TRUE(plan["recommend_cap"].is_null());
  EXPECT_EQ(plan["buckets"].size(), 1u);
  EXPECT_EQ(plan["buckets"][0]["bound"], "bandwidth");
}

TEST(PlanModel, PredictsBusbwPerSizeAndNodeCount) {
  PlanInput in = smallCase("ddp");
  in.sizes = {4e6};
  const Json plan = buildPlan(in);
  ASSERT_EQ(plan["sizes"].size(), 2u);
  // 2 nodes x 2: 60060 us for 4e6 B; busbw = S / t x 2 (n-1)/n
  EXPECT_DOUBLE_EQ(plan["sizes"][1]["busbw_gbps"].get<double>(), 4e6 / 60060 / 1e3 * 1.5);
  EXPECT_EQ(plan["sizes"][1]["algorithm"], "ring");
}

TEST(SweepAlgorithm, ReadsNcclAlgo) {
  EXPECT_EQ(algorithmFromNcclAlgo("Ring"), "ring");
  EXPECT_EQ(algorithmFromNcclAlgo("tree"), "tree");
  EXPECT_EQ(algorithmFromNcclAlgo("NVLSTree"), "nvls");
  EXPECT_EQ(algorithmFromNcclAlgo("CollNetDirect,CollNetChain"), "collnet");
  EXPECT_EQ(algorithmFromNcclAlgo("Ring,Tree"), "");  // the tuner still chooses
  EXPECT_EQ(algorithmFromNcclAlgo("^NVLS"), "");
  EXPECT_EQ(algorithmFromNcclAlgo("Tree;allreduce:Ring"), "ring");
}

TEST(SweepAlgorithm, FromSettingsThenFromShape) {
  RunReport doc;
  doc.context.node_count = 2;
  doc.context.world_size = 16;
  Result r;
  r.kind = Kind::kSweep;
  SweepRow row;
  row.collective = "all_reduce";
  row.size_bytes = 64u << 20;
  row.placement = "out";
  row.time_us = 1000;
  row.busbw_gbps = 100;
  r.rows.push_back(toJson(row));
  doc.results.push_back(r);
  // 100 GB/s across 2 nodes whose NICs carry 400 Gb/s = 50 GB/s: no ring does that.
  EXPECT_EQ(detectSweepAlgorithm(doc, 400.0).algorithm, "not_ring");
  EXPECT_TRUE(detectSweepAlgorithm(doc, 400.0).notRing());
  EXPECT_EQ(detectSweepAlgorithm(doc, 3200.0).algorithm, "unknown");
  EXPECT_EQ(detectSweepAlgorithm(doc, std::nullopt).algorithm, "unknown");
  doc.context.extra["nccl_settings"] = Json{{"NCCL_ALGO", "Ring"}};
  EXPECT_EQ(detectSweepAlgorithm(doc, 400.0).algorithm, "ring");  // the settings speak first
  doc.context.extra["nccl_settings"] = Json{{"NCCL_ALGO", "NVLS"}};
  EXPECT_EQ(detectSweepAlgorithm(doc, 3200.0).algorithm, "nvls");
  doc.context.extra["backend"] = Json{{"backend", "mpi"}};
  EXPECT_EQ(detectSweepAlgorithm(doc, 400.0).algorithm, "mpi");
}

namespace {

RunReport scaleDoc() {
  RunReport doc;
  Result r;
  r.kind = Kind::kScale;
  r.params = Json{{"parameters", 1e6}, {"batch_per_rank", 2}, {"bucket_cap_mb", 4}};
  r.rows.push_back(Json{{"ranks", 1},
                        {"nodes", 1},
                        {"step_us_p50", 12000},
                        {"exposed_comm_us", 0},
                        {"comm_us", 0},
                        {"efficiency", {{"median", 1.0}}}});
  r.rows.push_back(Json{{"ranks", 2},
                        {"nodes", 1},
                        {"step_us_p50", 15000},
                        {"exposed_comm_us", 2000},
                        {"comm_us", 4000},
                        {"efficiency", {{"median", 0.8}}}});
  doc.results.push_back(r);
  return doc;
}

}  // namespace

TEST(PlanCalibrate, TakesComputeAndOverlapFromTheScaleRun) {
  const ScaleCalibration c = calibrationFromScale(scaleDoc(), "scale.json");
  EXPECT_DOUBLE_EQ(c.stepComputeMs, 12);
  ASSERT_TRUE(c.overlap);
  EXPECT_DOUBLE_EQ(*c.overlap, 0.5);  // 2000 of 4000 us exposed at 2 ranks
  PlanInput in = smallCase("ddp");
  in.workload = workloadFromScale(c);
  EXPECT_DOUBLE_EQ(in.workload.parameters, 1e6);
  calibrate(in.workload, c);
  EXPECT_DOUBLE_EQ(*in.workload.overlap, 0.5);
  const Json side = measuredBesidePredicted(in, c);
  ASSERT_EQ(side.size(), 2u);
  // 2 ranks on 1 node: 12000 + half of the 4002 us all-reduce = 14001 us, against 15000 measured.
  EXPECT_DOUBLE_EQ(side[1]["predicted_step_ms"].get<double>(), 14.001);
  EXPECT_DOUBLE_EQ(side[1]["error"].get<double>(), (14.001 - 15) / 15);
  Workload other = in.workload;
  other.parameters = 2e6;
  EXPECT_THROW(calibrate(other, c), UsageError);  // another model
}

TEST(PlanCalibrate, FlagsAPredictedEfficiencyAboveAMeasuredOneAtFewerRanks) {
  const Json measured = Json::array({Json{{"ranks", 2}, {"measured_efficiency", 0.28}}});
  const Json rows = Json::array({Json{{"gpus", 8}, {"efficiency", 0.389}}, Json{{"gpus", 64}, {"efficiency", 0.2}}});
  const auto flagged = optimisticPredictions(rows, measured);
  ASSERT_EQ(flagged.size(), 1u);
  EXPECT_EQ(flagged[0], "E(8) is predicted at 0.39, above the 0.28 measured at 2 ranks: the model is optimistic there");
}

TEST(SweepProbeMatch, WarnsWhenACpuSweepMeetsAGpuNode) {
  RunReport sweep, probe;
  sweep.context.extra["backend"] = Json{{"backend", "mpi"}, {"buffers", "host"}};
  Result gpu;
  gpu.kind = Kind::kProbe;
  gpu.key = "probe.gpu";
  EXPECT_EQ(sweepProbeMismatch(sweep, "s.json", probe, "p.json"), "");  // no GPU result at all
  gpu.rows = Json::array({Json::object(), Json::object()});
  probe.results.push_back(gpu);
  EXPECT_EQ(sweepProbeMismatch(sweep, "s.json", probe, "p.json"),
            "--from s.json swept host buffers (a CPU run) but --nics p.json is a node with 2 GPU(s): the model mixes "
            "a CPU run with a GPU node's NICs");
  sweep.context.extra["backend"] = Json{{"backend", "nccl"}, {"buffers", "device"}};
  EXPECT_EQ(sweepProbeMismatch(sweep, "s.json", probe, "p.json"), "");
}
