// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// readNvmlHealth (probes/cuda/nvml_health.cpp) against the stand-in NVML of tests/unit/core/fake_nvml.cpp: the
// calls, their arguments and the fallbacks to older entry points, on a machine without a GPU driver. The values
// are the stand-in's; that they match nvml.h's real ABI is a check for a GPU node (not run on one yet).
#include "cuda/nvml_health.hpp"

#include <gtest/gtest.h>

namespace pf::probes {
namespace {

nvmlDevice_t device(const NvmlSession& nvml, unsigned i) {
  auto byIndex = nvml.sym<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>("nvmlDeviceGetHandleByIndex_v2");
  nvmlDevice_t d = nullptr;
  EXPECT_EQ(byIndex(i, &d), 0);
  return d;
}

TEST(NvmlHealth, ReadsRetiredPagesRemapsLinksClocksAndFabric) {
  NvmlSession nvml(PF_FAKE_NVML);
  ASSERT_TRUE(nvml.ok()) << nvml.error();
  RuntimeGpu g;
  readNvmlHealth(nvml, device(nvml, 0), g);
  EXPECT_EQ(g.retiredPagesSbe, 0);
  EXPECT_EQ(g.retiredPagesDbe, 2);  // counted from the INSUFFICIENT_SIZE answer
  EXPECT_EQ(g.retiredPagesPending, true);
  EXPECT_EQ(g.remappedRowsCorrectable, 1);
  EXPECT_EQ(g.remappedRowsUncorrectable, 3);
  EXPECT_EQ(g.remapPending, true);
  EXPECT_EQ(g.remapFailed, false);
  ASSERT_EQ(g.nvlinkErrors.size(), 2u);  // the active links only
  EXPECT_EQ(g.nvlinkErrors[0].link, 0);
  EXPECT_EQ(g.nvlinkErrors[0].replay + g.nvlinkErrors[0].crcFlit, 0);
  EXPECT_EQ(g.nvlinkErrors[1].link, 2);
  EXPECT_EQ(g.nvlinkErrors[1].replay, 5);
  EXPECT_EQ(g.nvlinkErrors[1].recovery, 0);
  EXPECT_EQ(g.nvlinkErrors[1].crcFlit, 17);
  EXPECT_EQ(g.nvlinkErrors[1].crcData, 0);
  EXPECT_EQ(g.clocksEvents, 0x89u);
  EXPECT_EQ(g.fabricState, 2);  // through nvmlDeviceGetGpuFabricInfoV, with the v2 version word
  EXPECT_EQ(g.fabricStatus, 0);
}

TEST(NvmlHealth, FallsBackToTheOlderCallsAndLeavesUnsupportedQueriesUnset) {
  NvmlSession nvml(PF_FAKE_NVML);
  ASSERT_TRUE(nvml.ok()) << nvml.error();
  RuntimeGpu g;
  readNvmlHealth(nvml, device(nvml, 1), g);
  EXPECT_FALSE(g.remapPending.has_value());  // NOT_SUPPORTED: not reported as "no remap pending"
  EXPECT_FALSE(g.remappedRowsCorrectable.has_value());
  EXPECT_EQ(g.retiredPagesPending, false);
  EXPECT_TRUE(g.nvlinkErrors.empty());
  // nvmlDeviceGetCurrentClocksEventReasons is there but fails for this GPU: no fallback, no value.
  EXPECT_FALSE(g.clocksEvents.has_value());
  EXPECT_EQ(g.fabricState, 0);  // the _V call failed; nvmlDeviceGetGpuFabricInfo answered
}

}  // namespace
}  // namespace pf::probes
