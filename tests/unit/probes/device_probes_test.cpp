// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The device probes (ib, efa, sriov, gpu, p2p, topo) against the captured trees in tests/fixtures (written by
// make_device_trees.py) with their job environments, against this machine's tree, and against small trees built
// here with other names and layouts, so that nothing depends on a fixture's names.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "consistency.hpp"
#include "device_fixtures.hpp"
#include "gpu_runtime.hpp"
#include "pci.hpp"
#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using test::TempTree;
namespace fs = std::filesystem;

TEST(DeviceProbes, ThisMachineReportsEveryDeviceAbsent) {
  for (const char* p : {"ib", "efa", "sriov", "gpu", "p2p", "topo"}) {
    Result r = run(p, fs::path(PF_FIXTURES) / "host-thismachine");
    EXPECT_EQ(r.status, Status::kAbsent) << p << ": " << r.message;
    EXPECT_FALSE(r.evidence.empty()) << p << " must say what it looked for";
  }
}

TEST(IbProbe, NdrHostPortsRatesAndPrefixAmbiguity) {
  Result r = runFixture("ib", "ib-ndr-8hca");
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  EXPECT_EQ(r.metrics["device_count"], 12);
  EXPECT_EQ(r.metrics["infiniband_ports"], 8);
  EXPECT_EQ(r.metrics["roce_ports"], 4);
  EXPECT_EQ(r.metrics["active_ports"], 12);
  EXPECT_EQ(r.params["ofed_version"], "23.10-1.1.9");
  const Json& row0 = r.rows[0];
  EXPECT_EQ(row0["device"], "mlx5_0");
  EXPECT_EQ(row0["state"], "ACTIVE");
  EXPECT_EQ(row0["phys_state"], "LinkUp");
  EXPECT_EQ(row0["rate_gbit"], 400.0);
  EXPECT_EQ(row0["link_layer"], "InfiniBand");
  EXPECT_EQ(row0["lid"], "0x2a0");
  EXPECT_EQ(row0["uverbs"], "uverbs0");
  EXPECT_EQ(row0["is_vf"], false);
  EXPECT_EQ(row0["numa_node"], 0);
  // "mlx5_1" is a prefix: it also selects the storage NICs mlx5_10 and mlx5_11.
  EXPECT_TRUE(has(r.message, "mlx5_1, mlx5_10, mlx5_11")) << r.message;
  EXPECT_TRUE(has(r.remedy, "=")) << r.remedy;
  // mlx5_7 trained down to 2X; the 400G Ethernet ports are not compared with InfiniBand ones.
  EXPECT_TRUE(has(r.message, "mlx5_7 port 1 runs at 200 Gb/sec (2X NDR)")) << r.message;
  // NCCL 2.19 (< 2.21) uses GID index 0 on the RoCE ports the prefix dragged in.
  EXPECT_TRUE(has(r.message, "NCCL 2.19.3 uses GID index 0 on mlx5_10")) << r.message;
}

TEST(IbProbe, RoceGidIndexEmptyOnOnePortFailsAndNamesTheRightIndex) {
  Result r = runFixture("ib", "roce-gid");
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "NCCL_IB_GID_INDEX=3 is empty on mlx5_1 port 1")) << r.message;
  EXPECT_TRUE(has(r.remedy, "NCCL_IB_GID_INDEX=1")) << r.remedy;
  EXPECT_EQ(r.params["roce_preferred_gid_index"]["mlx5_0 port 1"], 3);
  EXPECT_EQ(r.rows[0]["active_mtu"], 4096);  // netdev MTU 9000
  EXPECT_EQ(r.rows[1]["active_mtu"], 1024);  // netdev MTU 1500
  EXPECT_EQ(r.rows[0]["netdev"], "ens1f0np0");
  EXPECT_EQ(r.rows[0]["gids"].size(), 4u);
  EXPECT_EQ(r.rows[0]["gids"][3]["type"], "RoCE v2");
  EXPECT_TRUE(has(r.message, "RoCE ports run different MTUs")) << r.message;
}

TEST(IbProbe, MissingUverbsFails) {
  Result r = runFixture("ib", "ib-no-uverbs");
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "ib_uverbs module is not loaded")) << r.message;
  EXPECT_TRUE(has(r.remedy, "modprobe ib_uverbs"));
}

TEST(IbProbe, GidIndexSetWithNewNcclWarns) {
  TempTree t;
  fs::copy(fs::path(PF_FIXTURES) / "roce-gid", t.root(), fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove(t.root() / "usr/lib/x86_64-linux-gnu/libnccl.so.2.18.3");
  t.file("/usr/lib/x86_64-linux-gnu/libnccl.so.2.23.4", "");
  Environment env;
  env.set("NCCL_IB_GID_INDEX", "3");
  env.set("NCCL_IB_HCA", "=mlx5_0");
  Result r = run("ib", t.root(), env);
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  EXPECT_TRUE(has(r.message, "NCCL 2.23.4 chooses the GID itself")) << r.message;
}

TEST(EfaProbe, P4dDevicesInstallerAndPlugin) {
  Result r = runFixture("efa", "aws-p4d-efa");
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.metrics["device_count"], 4);
  EXPECT_EQ(r.params["installer_version"], "1.29.1");
  EXPECT_EQ(r.params["aws_ofi_nccl"], "/opt/amazon/ofi-nccl/lib/libnccl-net.so");
  for (const auto& row : r.rows) {
    EXPECT_EQ(row["rdma_read"], true);
    EXPECT_EQ(row["device_id"], "0xefa1");
    EXPECT_EQ(row["link_layer"], "Unspecified");
  }
  // The EFA devices are not InfiniBand HCAs.
  EXPECT_EQ(runFixture("ib", "aws-p4d-efa").status, Status::kAbsent);
}

/// A one-EFA host built here; `gen` is the PCI device id (0xefa0 has no RDMA read).
void efaHost(TempTree& t, unsigned gen) {
  const std::string pci = "/sys/devices/pci0000:00/0000:00:1d.0";
  t.file(pci + "/vendor", "0x1d0f")
      .file(pci + "/device", fmt::format("0x{:04x}", gen))
      .file(pci + "/class", "0x020000");
  t.dir("/sys/bus/pci/drivers/efa").link(pci + "/driver", "../../../bus/pci/drivers/efa");
  t.link("/sys/bus/pci/devices/0000:00:1d.0", "../../../devices/pci0000:00/0000:00:1d.0");
  const std::string ib = pci + "/infiniband/efa_0";
  t.link(ib + "/device", "../../../0000:00:1d.0");
  t.file(ib + "/ports/1/state", "4: ACTIVE").file(ib + "/ports/1/rate", "100 Gb/sec (4X EDR)");
  t.link("/sys/class/infiniband/efa_0", "../../devices/pci0000:00/0000:00:1d.0/infiniband/efa_0");
  t.dir("/sys/module/ib_uverbs").file("/dev/infiniband/uverbs0", "");
  t.file("/opt/amazon/efa_installed_packages", "# EFA installer version: 1.33.0");
  t.file("/opt/amazon/ofi-nccl/lib/libnccl-net-ofi.so", "");
  t.file("/proc/self/limits", "Max locked memory         unlimited            unlimited            bytes     ");
}

TEST(EfaProbe, DeviceRdmaOnFirstGenerationEfaFails) {
  TempTree t;
  efaHost(t, 0xefa0);
  Environment env;
  env.set("FI_EFA_USE_DEVICE_RDMA", "1");
  env.set("LD_LIBRARY_PATH", "/opt/amazon/ofi-nccl/lib");
  Result r = run("efa", t.root(), env);
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "FI_EFA_USE_DEVICE_RDMA=1 but efa_0 has no RDMA read")) << r.message;
  EXPECT_TRUE(has(r.remedy, "unset FI_EFA_USE_DEVICE_RDMA"));
  Environment plain;
  plain.set("LD_LIBRARY_PATH", "/opt/amazon/ofi-nccl/lib");
  Result ok = run("efa", t.root(), plain);
  EXPECT_EQ(ok.status, Status::kPass) << ok.message;
}

TEST(EfaProbe, ProviderExclusionAndPluginOffTheLoaderPathFail) {
  TempTree t;
  efaHost(t, 0xefa2);
  Environment env;
  env.set("FI_PROVIDER", "^efa");
  Result r = run("efa", t.root(), env);
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "FI_PROVIDER=^efa excludes efa")) << r.message;
  EXPECT_TRUE(has(r.message, "not where the loader looks")) << r.message;
  EXPECT_TRUE(has(r.remedy, "add /opt/amazon/ofi-nccl/lib to LD_LIBRARY_PATH")) << r.remedy;
}

TEST(SriovProbe, AzureVmHasInfiniBandVfsWithoutPhysfn) {
  Result r = runFixture("sriov", "azure-ndv4");
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.params["hypervisor"], "hyper-v");
  EXPECT_EQ(r.metrics["vf_count"], 9);
  EXPECT_EQ(r.metrics["ib_vf_count"], 8);
  EXPECT_EQ(r.metrics["pf_count"], 0);
  for (const auto& used : r.params["nccl_rdma_functions"]) EXPECT_EQ(used["is_vf"], true);
  Result ib = runFixture("ib", "azure-ndv4");
  EXPECT_EQ(ib.status, Status::kPass) << ib.message;
  EXPECT_EQ(ib.rows[1]["is_vf"], true);
}

TEST(SriovProbe, AzureVmWithoutInfiniBandVfWarns) {
  TempTree t;
  t.file("/sys/class/dmi/id/sys_vendor", "Microsoft Corporation");
  const std::string an = "/sys/devices/LNXSYSTM:00/VMBUS:00/abcd/pcia1b2:00/a1b2:00:02.0";
  t.file(an + "/vendor", "0x15b3").file(an + "/device", "0x1016").file(an + "/class", "0x020000");
  t.link("/sys/bus/pci/devices/a1b2:00:02.0", "../../../devices/LNXSYSTM:00/VMBUS:00/abcd/pcia1b2:00/a1b2:00:02.0");
  Result r = run("sriov", t.root());
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  EXPECT_TRUE(has(r.message, "no InfiniBand VF")) << r.message;
}

TEST(SriovProbe, BareMetalPhysicalFunctionsWithVfsLinked) {
  Result r = runFixture("sriov", "ib-ndr-8hca");
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_EQ(r.metrics["pf_count"], 8);
  EXPECT_EQ(r.rows[0]["sriov_totalvfs"], 16);
  EXPECT_EQ(r.rows[0]["sriov_numvfs"], 0);
}

TEST(GpuProbe, DgxTreeModelsDriverAndNarrowLink) {
  Result r = runFixture("gpu", "ib-ndr-8hca");
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  EXPECT_EQ(r.metrics["gpu_count"], 8);
  EXPECT_EQ(r.params["model"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.params["driver_version"], "535.161.08");
  EXPECT_TRUE(has(r.message, "0000:bc:00.0 PCIe link runs x8 of x16")) << r.message;
  EXPECT_EQ(r.rows[0]["pcie_gen"], 5);
  EXPECT_EQ(r.rows[0]["numa_node"], 0);
}

TEST(GpuProbe, NvSwitchesAreNotGpus) {
  Result r = runFixture("gpu", "aws-p4d-efa");
  EXPECT_EQ(r.metrics["gpu_count"], 8);  // the tree also holds six 10de:1af1 NVSwitch bridges
  EXPECT_EQ(r.params["model"], "NVIDIA A100-SXM4-40GB");
}

TEST(GpuProbe, GpusWithoutDriverFail) {
  TempTree t;
  const std::string g = "/sys/devices/pci0000:00/0000:00:04.0";
  t.file(g + "/vendor", "0x10de").file(g + "/device", "0x2330").file(g + "/class", "0x030200");
  t.link("/sys/bus/pci/devices/0000:00:04.0", "../../../devices/pci0000:00/0000:00:04.0");
  Result r = run("gpu", t.root());
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "nvidia kernel module is not loaded")) << r.message;
  EXPECT_EQ(r.rows[0]["model"], "10de:2330");
}

TEST(P2pAndTopo, PathsFromPciAncestry) {
  Result p = runFixture("p2p", "ib-ndr-8hca");
  EXPECT_EQ(p.metrics["gpu_count"], 8);
  ASSERT_EQ(p.rows.size(), 56u);
  EXPECT_EQ(p.rows[0]["path"], "PHB");  // GPU 0 -> 1: separate host bridges on one socket
  EXPECT_EQ(p.rows[3]["path"], "SYS");  // GPU 0 -> 4: the other socket
  Result t = runFixture("topo", "ib-ndr-8hca");
  EXPECT_EQ(t.status, Status::kPass) << t.message;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(t.rows[i]["path"], "PIX");
    EXPECT_EQ(t.rows[i]["nearest_nics"][0], "mlx5_" + std::to_string(i));
  }
  EXPECT_EQ(t.rows[4]["local_cpus"], "56-111,168-223");
}

TEST(TopoProbe, NicOnTheOtherSocketWarns) {
  TempTree t;
  auto fn = [&](const std::string& path, const std::string& bdf, const char* vendor, const char* cls, int numa) {
    t.file(path + "/vendor", vendor).file(path + "/device", "0x1021").file(path + "/class", cls);
    t.file(path + "/numa_node", std::to_string(numa));
    t.link("/sys/bus/pci/devices/" + bdf, "../../.." + path.substr(4));
  };
  fn("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0", "0000:01:00.0", "0x10de", "0x030200", 0);
  fn("/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0", "0000:81:00.0", "0x15b3", "0x020700", 1);
  t.link("/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0/infiniband/ibp129s0/device", "../../../0000:81:00.0");
  t.link("/sys/class/infiniband/ibp129s0", "../../devices/pci0000:80/0000:80:01.0/0000:81:00.0/infiniband/ibp129s0");
  Result r = run("topo", t.root());
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  EXPECT_TRUE(has(r.message, "nearest RDMA NIC (ibp129s0) is across the inter-socket link")) << r.message;
}

TEST(PciPath, NamesFollowTheAncestry) {
  PciFunction a, b;
  a.bdf = "0000:03:00.0";
  b.bdf = "0000:04:00.0";
  a.rootComplex = b.rootComplex = "pci0000:00";
  a.chain = {"0000:00:01.0", "0000:01:00.0", "0000:02:00.0", a.bdf};
  b.chain = {"0000:00:01.0", "0000:01:00.0", "0000:02:01.0", b.bdf};
  EXPECT_EQ(pciPath(a, b), PciPath::kPix);
  b.chain = {"0000:00:01.0", "0000:01:00.0", "0000:02:01.0", "0000:05:00.0", "0000:06:00.0", b.bdf};
  EXPECT_EQ(pciPath(a, b), PciPath::kPxb);
  b.chain = {"0000:00:02.0", b.bdf};
  EXPECT_EQ(pciPath(a, b), PciPath::kPhb);
  a.numaNode = 0;
  b.numaNode = 1;
  EXPECT_EQ(pciPath(a, b), PciPath::kSys);
  EXPECT_EQ(pcieGeneration("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(pcieGeneration("8.0 GT/s PCIe"), 3);
  EXPECT_EQ(pcieGeneration("Unknown"), 0);
}

TEST(DeviceProbes, ACopiedTreeUnderAnotherNameGivesTheSameResults) {
  TempTree t;
  fs::copy(fs::path(PF_FIXTURES) / "azure-ndv4", t.root() / "elsewhere",
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  for (const char* p : {"ib", "sriov", "gpu", "topo"}) {
    Result a = runFixture(p, "azure-ndv4");
    Result b = run(p, t.root() / "elsewhere", envFile("azure-ndv4"));
    EXPECT_EQ(a.status, b.status) << p;
    EXPECT_EQ(a.rows, b.rows) << p;
    EXPECT_EQ(a.message, b.message) << p;
  }
}

TEST(DeviceProbes, ConsistencyNamesTheNodeWithAnotherDriverAndAMissingGpu) {
  // Three nodes as captured, a fourth whose driver differs and whose GPU 7 is gone.
  TempTree t;
  fs::copy(fs::path(PF_FIXTURES) / "ib-ndr-8hca", t.root(),
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  t.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar 5 2024");
  fs::remove(t.root() / "sys/bus/pci/devices/0000:dd:00.0");
  std::vector<RankResults> ranks;
  for (int r = 0; r < 4; ++r) {
    fs::path root = r == 3 ? t.root() : fs::path(PF_FIXTURES) / "ib-ndr-8hca";
    ranks.push_back(
        {r, "node" + std::to_string(r), runProbes(SystemView(root, envFile("ib-ndr-8hca")), {}, {"gpu", "ib"})});
  }
  std::map<std::string, Result> byFact;
  for (const auto& d : checkConsistency(ranks)) byFact[d.params["fact"]] = d;
  ASSERT_TRUE(byFact.count("gpu.count")) << byFact.size();
  EXPECT_EQ(byFact["gpu.count"].host, "node3");
  EXPECT_EQ(byFact["gpu.count"].status, Status::kFail);
  ASSERT_TRUE(byFact.count("gpu.driver_version"));
  EXPECT_EQ(byFact["gpu.driver_version"].host, "node3");
  EXPECT_FALSE(byFact.count("ib.active_ports"));  // the HCAs are the same everywhere
}

}  // namespace
}  // namespace pf::probes
