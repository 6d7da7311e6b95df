// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu and p2p probes on this node's real GPUs (CTest label `gpu`): skipped, with the CUDA runtime's reason,
// where there is none. With GPUs, the probes must agree with the runtime and measure real copies.
#include <gtest/gtest.h>

#include "gpu_runtime.hpp"
#include "probe.hpp"

namespace pf::probes {
namespace {

const GpuRuntime& gpusOrSkip() { return queryGpuRuntime(); }

#define PF_SKIP_WITHOUT_GPU(rt)          \
  if (!(rt).cudaOk || (rt).gpus.empty()) \
  GTEST_SKIP() << "no GPU on this node: " << ((rt).cudaOk ? "cudaGetDeviceCount() = 0" : (rt).cudaError)

TEST(GpuLive, GpuProbeAgreesWithTheRuntime) {
  const GpuRuntime& rt = gpusOrSkip();
  PF_SKIP_WITHOUT_GPU(rt);
  Result r = Registry<Probe>::instance().create("gpu")->run(SystemView::live(), {});
  EXPECT_NE(r.status, Status::kAbsent) << r.message;
  EXPECT_EQ(r.metrics["gpu_count"], static_cast<int>(rt.gpus.size()));
  EXPECT_FALSE(r.params["cuda_runtime_version"].is_null());
  EXPECT_FALSE(r.params["cuda_driver_version"].is_null());
  for (const auto& row : r.rows) {
    EXPECT_TRUE(row.contains("cuda_index")) << row.dump();
    EXPECT_GT(row["memory_bytes"].get<long long>(), 0);
  }
}

TEST(GpuLive, P2pProbeMeasuresCopies) {
  const GpuRuntime& rt = gpusOrSkip();
  PF_SKIP_WITHOUT_GPU(rt);
  Result r = Registry<Probe>::instance().create("p2p")->run(SystemView::live(), {});
  ASSERT_NE(r.status, Status::kAbsent) << r.message;
  ASSERT_EQ(r.params["measured"], true) << r.message;
  int hostRows = 0;
  for (const auto& row : r.rows) {
    if (row["path"] == "host") {
      ++hostRows;
      EXPECT_GT(row["h2d_gbps"].get<double>(), 1.0) << row.dump();  // any PCIe link moves > 1 GB/s
      EXPECT_GT(row["d2h_gbps"].get<double>(), 1.0) << row.dump();
    } else {
      EXPECT_TRUE(row.contains("peer_access"));
      EXPECT_GT(row["copy_gbps"].get<double>(), 0.0) << row.dump();
    }
  }
  EXPECT_EQ(hostRows, static_cast<int>(rt.gpus.size()));
}

}  // namespace
}  // namespace pf::probes
