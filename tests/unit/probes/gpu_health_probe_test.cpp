// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu_health probe on constructed NVML readings (SystemView::withGpuRuntime): what each reading means for the
// node, without a GPU. Not run on a GPU node yet.
#include <gtest/gtest.h>

#include <memory>

#include "gpu/gpu_health.hpp"
#include "gpu_runtime.hpp"
#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

RuntimeGpu healthyGpu(int index, const std::string& bdf) {
  RuntimeGpu g;
  g.index = index;
  g.pciBusId = bdf;
  g.retiredPagesSbe = g.retiredPagesDbe = 0;
  g.retiredPagesPending = false;
  g.remappedRowsCorrectable = g.remappedRowsUncorrectable = 0;
  g.remapPending = g.remapFailed = false;
  g.nvlinkErrors = {{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}};
  g.clocksEvents = 0x1;  // idle: not a fault
  g.fabricState = kFabricCompleted;
  g.fabricStatus = 0;
  return g;
}

Result runHealth(std::vector<RuntimeGpu> gpus, bool nvmlOk = true) {
  test::TempTree t;
  auto rt = std::make_shared<GpuRuntime>();
  rt->cudaOk = true;
  rt->nvmlOk = nvmlOk;
  rt->nvmlError = nvmlOk ? "" : "dlopen(libnvidia-ml.so.1): not found";
  rt->nvmlDriverVersion = "570.86.15";
  rt->gpus = std::move(gpus);
  SystemView sys(t.root(), Environment());
  sys.withGpuRuntime(rt);
  return Registry<Probe>::instance().create("gpu_health")->run(sys, {});
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(GpuHealthProbe, HealthyGpusPassSayingWhatNvmlAnswered) {
  Result r = runHealth({healthyGpu(0, "0000:18:00.0"), healthyGpu(1, "0000:2a:00.0")});
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.message,
            "2 GPU(s); NVML answered row remapping on 2, page retirement on 2, clock reasons on 2, NVLink error "
            "counters on 4 links, fabric state on 2: none pending, failed, throttled or above zero");
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0].at("fabric_state"), "completed");
}

TEST(GpuHealthProbe, PendingRemapAndFailedRemapFailWithAReset) {
  RuntimeGpu pending = healthyGpu(0, "0000:18:00.0");
  pending.remapPending = true;
  RuntimeGpu failed = healthyGpu(3, "0000:9a:00.0");
  failed.remapFailed = true;
  Result r = runHealth({pending, failed});
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "GPU 0 (0000:18:00.0): a memory row remap is pending")) << r.message;
  EXPECT_TRUE(has(r.message, "GPU 3 (0000:9a:00.0): row remapping failed")) << r.message;
  EXPECT_TRUE(has(r.remedy, "nvidia-smi -r -i 0000:18:00.0")) << r.remedy;
  EXPECT_TRUE(has(r.remedy, "RMA")) << r.remedy;
}

TEST(GpuHealthProbe, PendingPageRetirementFails) {
  RuntimeGpu g = healthyGpu(1, "0000:2a:00.0");
  g.retiredPagesPending = true;
  Result r = runHealth({g});
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "a page retirement is pending")) << r.message;
}

TEST(GpuHealthProbe, ThrottleReasonsAndNvlinkErrorsWarnNamingGpuAndLink) {
  RuntimeGpu g = healthyGpu(2, "0000:3b:00.0");
  g.clocksEvents = kClocksHwSlowdown | kClocksHwPowerBrake | 0x4;  // SW power cap alone would not warn
  g.nvlinkErrors[1].crcFlit = 12;
  Result r = runHealth({g});
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_TRUE(has(r.message, "GPU 2 (0000:3b:00.0): clocks held down by HW slowdown, HW power brake")) << r.message;
  EXPECT_TRUE(has(r.message, "GPU 2 (0000:3b:00.0) NVLink 1: error counters above zero")) << r.message;
  EXPECT_TRUE(has(r.message, "CRC flit 12")) << r.message;
  EXPECT_EQ(r.rows[0].at("clocks_event_reasons"), "0x8c");
}

TEST(GpuHealthProbe, AFabricNotUpFailsNamingTheFabricManager) {
  RuntimeGpu training = healthyGpu(0, "0000:18:00.0");
  training.fabricState = kFabricInProgress;
  RuntimeGpu errored = healthyGpu(1, "0000:2a:00.0");
  errored.fabricStatus = 999;
  RuntimeGpu noSwitch = healthyGpu(2, "0000:3b:00.0");
  noSwitch.fabricState = kFabricNotSupported;
  Result r = runHealth({training, errored, noSwitch});
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "GPU 0 (0000:18:00.0): the NVLink fabric is still being trained")) << r.message;
  EXPECT_TRUE(has(r.message, "the fabric manager finished with an error (NVML status 999)")) << r.message;
  EXPECT_TRUE(has(r.remedy, "systemctl status nvidia-fabricmanager")) << r.remedy;
  EXPECT_FALSE(r.rows[2].contains("fabric_state"));
}

TEST(GpuHealthProbe, NoPassWhenNothingWasAnsweredOrNvmlIsMissing) {
  RuntimeGpu bare;
  bare.pciBusId = "0000:18:00.0";
  Result r = runHealth({bare});
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_TRUE(has(r.message, "NVML answered none of the health queries")) << r.message;
  r = runHealth({healthyGpu(0, "0000:18:00.0")}, false);
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_TRUE(has(r.message, "NVML cannot be asked")) << r.message;
  test::TempTree t;
  EXPECT_EQ(Registry<Probe>::instance().create("gpu_health")->run(SystemView(t.root(), Environment()), {}).status,
            Status::kAbsent);
}

}  // namespace
}  // namespace pf::probes
