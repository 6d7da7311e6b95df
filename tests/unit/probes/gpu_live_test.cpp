// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu and p2p probes on this node's real GPUs (CTest label `gpu`), asked through preflight-gpu.so as
// `preflight` asks: skipped where the node has no GPU, failed where it has one that CUDA cannot use. With GPUs,
// the probes must agree with the runtime and measure real copies.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "../gpu_presence.hpp"
#include "gpu_runtime.hpp"
#include "probe.hpp"

namespace pf::probes {
namespace {

// The module of this build tree; the test executable is not beside lib/preflight/ as `preflight` is.
const GpuRuntime& askThroughTheModule() {
#ifdef PF_GPU_MODULE_PATH
  setenv("PREFLIGHT_GPU_MODULE", PF_GPU_MODULE_PATH, 0);
#endif
  return queryGpuRuntime();
}

#define PF_REQUIRE_GPU(rt)                                               \
  if (auto why = ::pf::testing::noGpuOnThisNode()) GTEST_SKIP() << *why; \
  ASSERT_TRUE((rt).cudaOk && !(rt).gpus.empty())                         \
      << "this node has a GPU, but CUDA does not: "                      \
      << ((rt).cudaOk ? std::string("cudaGetDeviceCount() = 0") : (rt).cudaError)

TEST(GpuLive, GpuProbeAgreesWithTheRuntime) {
  const GpuRuntime& rt = askThroughTheModule();
  PF_REQUIRE_GPU(rt);
  Result r = Registry<Probe>::instance().create("gpu")->run(SystemView::live(), {});
  EXPECT_NE(r.status, Status::kAbsent) << r.message;
  EXPECT_EQ(r.metrics["gpu_count"], static_cast<int>(rt.gpus.size()));
  EXPECT_FALSE(r.params["cuda_runtime_version"].is_null());
  EXPECT_FALSE(r.params["cuda_driver_version"].is_null());
  int visible = 0;
  for (const auto& row : r.rows) {
    if (!row.contains("cuda_index")) continue;  // sysfs shows it, CUDA_VISIBLE_DEVICES hides it
    ++visible;
    ASSERT_TRUE(row.contains("memory_bytes")) << row.dump();
    EXPECT_GT(row["memory_bytes"].get<long long>(), 0);
    // Drivers from CUDA 12.1 on know CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: an answer, yes or no (NVLS).
    if (rt.driverVersion >= 12010) {
      EXPECT_TRUE(row.contains("multicast_supported")) << row.dump();
    }
  }
  EXPECT_EQ(visible, static_cast<int>(rt.gpus.size()));
}

TEST(GpuLive, P2pProbeMeasuresCopies) {
  const GpuRuntime& rt = askThroughTheModule();
  PF_REQUIRE_GPU(rt);
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
