// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu and p2p probes with a stubbed CUDA runtime and NVML answer beside a captured tree: how many GPUs CUDA
// sees against the PCI bus, the driver's and the runtime's CUDA versions, the driver's multicast answer.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "device_fixtures.hpp"
#include "gpu_runtime.hpp"
#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using test::TempTree;
namespace fs = std::filesystem;

// A stubbed CUDA runtime that sees one GPU, the one at `bdf` (CUDA_VISIBLE_DEVICES, a container, a Slurm
// allocation: sysfs is not namespaced and still lists them all).
std::shared_ptr<const GpuRuntime> cudaSeesOnly(const std::string& bdf) {
  auto rt = std::make_shared<GpuRuntime>();
  rt->cudaOk = true;
  rt->driverVersion = rt->runtimeVersion = 12040;
  RuntimeGpu g;
  g.name = "NVIDIA H100 80GB HBM3";
  g.pciBusId = bdf;
  g.memBytes = 85'000'000'000;
  g.ccMajor = 9;
  rt->gpus.push_back(g);
  return rt;
}

Result runWithRuntime(const std::string& probe, SystemView sys, std::shared_ptr<const GpuRuntime> rt) {
  return Registry<Probe>::instance().create(probe)->run(sys.withGpuRuntime(std::move(rt)), {});
}

const Evidence* evidence(const Result& r, const std::string& what) {
  for (const auto& e : r.evidence)
    if (e.what == what) return &e;
  return nullptr;
}

TEST(P2pProbe, EightGpusInSysfsAndOneVisibleGivesOneGpu) {
  const fs::path tree = fs::path(PF_FIXTURES) / "ib-ndr-8hca";
  const std::string bdf = runFixture("gpu", "ib-ndr-8hca").rows.at(3)["bdf"];
  Result r = runWithRuntime("p2p", SystemView(tree, envFile("ib-ndr-8hca")), cudaSeesOnly(bdf));
  // Pairs among the GPUs CUDA shows: none, and no index past CUDA's one.
  const Evidence* counted = evidence(r, "GPUs");
  ASSERT_NE(counted, nullptr);
  EXPECT_EQ(counted->value, 1);
  EXPECT_EQ(r.status, Status::kAbsent) << r.message;
  EXPECT_TRUE(has(r.message, "one GPU")) << r.message;
  EXPECT_TRUE(has(r.message, "copies need the CUDA runtime on a live node")) << r.message;  // a captured tree
  const Evidence* onBus = evidence(r, "GPUs on the PCI bus");
  ASSERT_NE(onBus, nullptr);
  EXPECT_EQ(onBus->value, 8);
}

// Two GPUs on the bus, the driver loaded, CUDA sees one: a fault only when nothing limits this process to one.
TEST(GpuProbe, FewerCudaGpusThanOnTheBusFailsUnlessTheProcessIsLimited) {
  TempTree t;
  std::vector<std::string> bdfs = {"0000:00:04.0", "0000:00:05.0"};
  for (const auto& b : bdfs) {
    const std::string g = "/sys/devices/pci0000:00/" + b;
    t.file(g + "/vendor", "0x10de").file(g + "/device", "0x2330").file(g + "/class", "0x030200");
    t.link("/sys/bus/pci/devices/" + b, "../../../devices/pci0000:00/" + b);
  }
  t.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.08");
  t.file("/dev/nvidia0", "");
  Result limited = runWithRuntime("gpu", SystemView(t.root(), Environment()), cudaSeesOnly(bdfs[0]));
  EXPECT_FALSE(has(limited.message, "fell off the bus")) << limited.message;
  const Evidence* mayUse = evidence(limited, "GPUs this process may use");
  ASSERT_NE(mayUse, nullptr) << limited.message;
  EXPECT_TRUE(has(mayUse->source, "1 of the 2 /dev/nvidia<N>")) << mayUse->source;

  Environment env;
  env.set("CUDA_VISIBLE_DEVICES", "0");
  t.file("/dev/nvidia1", "");
  Result visible = runWithRuntime("gpu", SystemView(t.root(), env), cudaSeesOnly(bdfs[0]));
  EXPECT_FALSE(has(visible.message, "fell off the bus")) << visible.message;

  Result lost = runWithRuntime("gpu", SystemView(t.root(), Environment()), cudaSeesOnly(bdfs[0]));
  EXPECT_EQ(lost.status, Status::kFail);
  EXPECT_TRUE(has(lost.message, "CUDA sees 1 of the 2 GPUs on the PCI bus")) << lost.message;
}

// CUDA's minor-version compatibility: a 13.1 runtime runs on a driver that supports 13.0; a 13.0 runtime on a
// driver of the 12.x family does not run at all.
// One H100 on the bus, as a Firecracker GPU VM shows it (the first GPU validation run, docs/validation/): the open
// kernel modules' banner puts the architecture after "Kernel Module", and a container may hide procfs altogether.
TEST(GpuProbe, TheOpenModulesBannerAndAGpuWithoutProcfsAreALoadedDriver) {
  TempTree t;
  const std::string bdf = "0000:00:06.0", g = "/sys/devices/pci0000:00/" + bdf;
  t.file(g + "/vendor", "0x10de").file(g + "/device", "0x2330").file(g + "/class", "0x030200");
  t.link("/sys/bus/pci/devices/" + bdf, "../../../devices/pci0000:00/" + bdf);
  t.file("/dev/nvidia0", "");
  t.file("/proc/driver/nvidia/version",
         "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
         "(dvs-builder@U22-I3-AE18-23-3)  Wed Nov 12 2025\nGCC version:  gcc version 12.3.0\n");
  Result open = runWithRuntime("gpu", SystemView(t.root(), Environment()), cudaSeesOnly(bdf));
  EXPECT_EQ(open.status, Status::kPass) << open.message;
  EXPECT_EQ(open.params["driver_version"], "580.159.04");
  EXPECT_EQ(open.params["open_kernel_module"], true);

  fs::remove_all(t.root() / "proc");  // procfs hidden: the GPU's bound driver, or CUDA opening it, says loaded
  auto rt = std::make_shared<GpuRuntime>(*cudaSeesOnly(bdf));
  rt->nvmlDriverVersion = "580.159.04";
  Result hidden = runWithRuntime("gpu", SystemView(t.root(), Environment()), rt);
  EXPECT_FALSE(has(hidden.message, "not loaded")) << hidden.message;
  EXPECT_EQ(hidden.params["driver_version"], "580.159.04");
  t.link(g + "/driver", "../../../bus/pci/drivers/nvidia");
  EXPECT_FALSE(has(run("gpu", t.root()).message, "not loaded"));  // bound, no runtime to ask
}

TEST(GpuProbe, ANewerMinorRuntimePassesAndANewerMajorFails) {
  const fs::path tree = fs::path(PF_FIXTURES) / "ib-ndr-8hca";
  const std::string bdf = runFixture("gpu", "ib-ndr-8hca").rows.at(3)["bdf"];
  Environment env;
  env.set("CUDA_VISIBLE_DEVICES", "3");
  auto rt = std::make_shared<GpuRuntime>(*cudaSeesOnly(bdf));
  rt->driverVersion = 13000;
  rt->runtimeVersion = 13010;
  Result minor = runWithRuntime("gpu", SystemView(tree, env), rt);
  EXPECT_FALSE(has(minor.message, "driver version is insufficient")) << minor.message;
  const Evidence* compat = evidence(minor, "CUDA minor-version compatibility");
  ASSERT_NE(compat, nullptr) << minor.message;
  EXPECT_EQ(compat->value, "13.1");
  EXPECT_TRUE(has(compat->source, "CUDA 13.0")) << compat->source;

  rt->driverVersion = 12040;
  rt->runtimeVersion = 13000;
  Result major = runWithRuntime("gpu", SystemView(tree, env), rt);
  EXPECT_EQ(major.status, Status::kFail);
  EXPECT_TRUE(has(major.message, "the driver supports CUDA 12.4 but the runtime is CUDA 13.0")) << major.message;
}

TEST(GpuProbe, TheDriversMulticastAnswerIsRecordedOnlyWhenItGaveOne) {  // NVLS in the model: in_switch.hpp
  const fs::path tree = fs::path(PF_FIXTURES) / "ib-ndr-8hca";
  const std::string bdf = runFixture("gpu", "ib-ndr-8hca").rows.at(3)["bdf"];
  Environment env;
  env.set("CUDA_VISIBLE_DEVICES", "3");
  auto rt = std::make_shared<GpuRuntime>(*cudaSeesOnly(bdf));
  EXPECT_FALSE(runWithRuntime("gpu", SystemView(tree, env), rt).rows.at(3).contains("multicast_supported"));
  rt->gpus[0].multicast = true;
  EXPECT_EQ(runWithRuntime("gpu", SystemView(tree, env), rt).rows.at(3)["multicast_supported"], true);
}

}  // namespace
}  // namespace pf::probes
