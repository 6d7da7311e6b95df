// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL INFO start-up logs of nccl_info_startup_examples.txt: the extractor must report what each one's
// header says it shows (network, interfaces, HCAs, channels, transports), and healthy logs give no diagnosis.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

// Fixture number -> log text; key 0 holds the supplementary single lines.
std::map<int, std::string> fixtures() {
  std::map<int, std::string> out;
  std::istringstream in(test::readData("nccl_info_startup_examples.txt"));
  int current = -1;
  bool inLog = false, supplementary = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("=== FIXTURE ", 0) == 0)
      current = std::stoi(line.substr(12));
    else if (line.rfind("=== SUPPLEMENTARY", 0) == 0)
      supplementary = true, current = 0;
    else if (line == "--- BEGIN LOG ---")
      inLog = true;
    else if (line == "--- END LOG ---")
      inLog = false;
    else if (inLog || (supplementary && line.rfind("# ", 0) != 0))
      out[current] += line + "\n";
  }
  return out;
}

const ProcessInfo& firstProcess(const Analysis& a) { return a.info.processes().begin()->second; }

TEST(DoctorStartupLogs, AllFixturesPresent) { EXPECT_EQ(fixtures().size(), 6u); }

TEST(DoctorStartupLogs, Fixture1RoceOldFormat) {
  Analysis a = test::analyzeText(fixtures()[1]);
  const auto& p = firstProcess(a);
  EXPECT_EQ(p.network, "IB");
  EXPECT_EQ(p.hcas, std::vector<std::string>{"mlx5_1:1/RoCE"});
  EXPECT_EQ(p.oobIf, "ens192f1");
  EXPECT_EQ(p.bootstrapIfs, std::vector<std::string>{"ens192f1"});
  EXPECT_EQ(p.ncclVersion, "2.7.8");
  EXPECT_EQ(a.info.channels(), 2);
  EXPECT_EQ(a.info.transports().at("NET/IB"), 2u);
  EXPECT_TRUE(a.info.algorithms().count("Tree"));
  // The WARN in this log is a real failure (ibv_create_cq), so one diagnosis is expected, of that cause.
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->id, "resource-limits.verbs-object-create");
}

TEST(DoctorStartupLogs, Fixture2VethPickedUnderRayPrefix) {
  Analysis a = test::analyzeText(fixtures()[2]);
  const auto& p = firstProcess(a);
  EXPECT_EQ(p.host, "molgpu01");
  EXPECT_EQ(p.network, "Socket");
  EXPECT_TRUE(p.ibNoDevice);
  EXPECT_EQ(p.socketIfs, (std::vector<std::string>{"enp70s0", "vethe9ac691"}));
  EXPECT_EQ(a.info.transports().at("P2P/IPC"), 1u);
  ASSERT_EQ(a.diagnoses.size(), 1u);  // the header notes the veth was wrongly picked: that is the one finding
  EXPECT_EQ(a.diagnoses[0].rule->id, "network-interface.virtual-interface-selected");
}

TEST(DoctorStartupLogs, Fixture3RingFormatTransports) {
  Analysis a = test::analyzeText(fixtures()[3]);
  EXPECT_EQ(a.info.transports().at("P2P/IPC"), 15u);
  EXPECT_EQ(a.info.transports().at("NET/Socket"), 2u);
  EXPECT_EQ(a.info.processes().size(), 13u);  // 6 + 7 distinct host:pid on the two hosts
  EXPECT_TRUE(a.diagnoses.empty());
}

TEST(DoctorStartupLogs, Fixture4SocketNewFormatIsClean) {
  Analysis a = test::analyzeText(fixtures()[4]);
  const auto& p = firstProcess(a);
  EXPECT_EQ(p.network, "Socket");
  EXPECT_EQ(p.socketIfs, std::vector<std::string>{"ens7"});
  EXPECT_EQ(p.bootstrapIfs, std::vector<std::string>{"ens7"});
  EXPECT_EQ(p.cudaDriver, 12000);
  EXPECT_EQ(p.ncclVersion, "2.19.3");
  EXPECT_EQ(p.cudaVersion, "12.3");
  EXPECT_EQ(a.info.channels(), 32);
  ASSERT_EQ(a.info.comms().size(), 1u);
  EXPECT_EQ(a.info.comms().begin()->second.nranks, 1);
  EXPECT_TRUE(a.diagnoses.empty());
  EXPECT_TRUE(a.info.flags().empty());
}

TEST(DoctorStartupLogs, Fixture5TwoHostsRoceRelaxedOrderingIsClean) {
  Analysis a = test::analyzeText(fixtures()[5]);
  std::set<std::string> hosts;
  for (const auto& [who, p] : a.info.processes()) {
    hosts.insert(p.host);
    if (p.hcas.empty()) continue;
    EXPECT_EQ(p.hcas, (std::vector<std::string>{"mlx5_10:1/RoCE", "mlx5_11:1/RoCE"}));
    EXPECT_TRUE(p.relaxedOrdering);
    EXPECT_EQ(p.oobIf, "enp220s0np0");
    EXPECT_EQ(p.network, "IB");
  }
  EXPECT_EQ(hosts, (std::set<std::string>{"dgxh100-3", "dgxh100-4"}));
  EXPECT_TRUE(a.diagnoses.empty());
}

TEST(DoctorStartupLogs, SupplementaryTransportLines) {
  Analysis a = test::analyzeText(fixtures()[0]);
  const auto& t = a.info.transports();
  for (const char* name :
       {"P2P/IPC", "NET/IB", "P2P/CUMEM", "SHM", "P2P/direct", "NET/AWS Libfabric", "NET/Socket", "NET/IBext_v8"})
    EXPECT_TRUE(t.count(name)) << name;
  // nccl#1537's "GPU Direct RDMA Disabled" is a real finding: it is the only diagnosis.
  ASSERT_EQ(a.diagnoses.size(), 1u);
  EXPECT_EQ(a.diagnoses[0].rule->id, "ib-verbs.gdr-disabled");
  bool sharp = false;
  for (const auto& [who, p] : a.info.processes())
    for (const auto& h : p.hcas) sharp |= h == "mlx5_0:1/IB/SHARP";
  EXPECT_TRUE(sharp);
}

TEST(DoctorStartupLogs, DifferentVersionsAcrossRanksAreDiagnosed) {
  Analysis a = test::analyzeText(
      "n1:1:1 [0] NCCL INFO NCCL version 2.20.5+cuda12.4\nn2:2:2 [0] NCCL INFO NCCL version 2.19.3+cuda12.3\n");
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->id, "version-mismatch.nccl-versions-differ");
  EXPECT_EQ(a.diagnoses[0].evidence.size(), 2u);
}

}  // namespace
}  // namespace pf::doctor

namespace pf::doctor {
namespace {

TEST(DoctorStartupLogs, CompleteNcclTestsRunIsCleanAndATruncatedOneIsNot) {
  const std::string head =
      "# nThread 1 nGpus 1 minBytes 500000 maxBytes 1500000 step: 100000(bytes) warmup iters: 1 iters: 20\n"
      "#\n# Using devices\n"
      "#  Rank  0 Group  0 Pid 516704 on   gpu-0001 device  0 [0000:61:00] NVIDIA H100 NVL\n"
      "#  Rank  1 Group  0 Pid 516703 on   gpu-0001 device  1 [0000:81:00] NVIDIA H100 NVL\n";
  const std::string rows =
      "      500000        125000     float     sum      -1   188.69    2.65    3.97       0   187.07    2.67    4.01  "
      "0\n"
      "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 7.20321 \n";
  EXPECT_TRUE(test::analyzeText(head + rows).diagnoses.empty());
  Analysis stalled = test::analyzeText(head);
  ASSERT_EQ(stalled.diagnoses.size(), 1u);
  EXPECT_EQ(stalled.diagnoses[0].rule->id, "p2p.single-node-stall");
}

// One process driving several GPUs (-g 4, or the old single-process tests) puts them all on its host, so its
// header alone says "one node" even when the paste holds no "Rank ... on HOST" lines (and even when markdown ate
// the header's "# n"). One GPU per process says nothing about hosts.
TEST(DoctorStartupLogs, OneProcessDrivingSeveralGpusThatPrintsNothingIsAStall) {
  const std::string init =
      "gpu-7:10156:10156 [0] NCCL INFO comm 0x563ed42dd520 rank 0 nranks 4 cudaDev 0 nvmlDev 0\n"
      "gpu-7:10156:10156 [3] NCCL INFO comm 0x563ed42c2010 rank 3 nranks 4 cudaDev 3 nvmlDev 3\n";
  for (const std::string header :
       {"# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5\n",
        "Thread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5\n"}) {
    EXPECT_EQ(test::topRule(header + init), "p2p.single-node-stall") << header;
    const std::string row =
        "     8388608       2097152     float     sum      -1   1210.1    6.93   10.40       0   1198.4    7.00   "
        "10.50  "
        "0\n";
    EXPECT_EQ(test::topRule(header + init + row), "(none)") << header;
  }
  EXPECT_EQ(test::topRule("# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor)\n" + init), "(none)");
}

TEST(DoctorStartupLogs, ContainerPluginAndTunnelInterfacesAreNotTheNodesNic) {
  // Names that Kubernetes network plugins and VPNs give their devices; a node's own NIC (ens, enp, eth, bond) is quiet.
  auto bootstrapOn = [](const char* ifn) {
    return std::string("n1:1:1 [0] NCCL INFO Bootstrap : Using ") + ifn + ":10.42.0.7<0>\n";
  };
  for (const char* ifn : {"cali4f2a9c1b7e0", "lxc8d0e2f9a1b4", "vxlan.calico", "tailscale0", "wg0", "tun0"})
    EXPECT_EQ(test::topRule(bootstrapOn(ifn)), "network-interface.virtual-interface-selected") << ifn;
  for (const char* ifn : {"ens5", "enp70s0", "eth0", "bond0"})
    EXPECT_EQ(test::topRule(bootstrapOn(ifn)), "(none)") << ifn;
}

// A paste (or a log collector) that broke NCCL's interface list into one entry per line, the prefix lost too: the
// entries that follow "Using" are the list, up to the first line that is not one.
TEST(DoctorStartupLogs, InterfaceListBrokenIntoOneEntryPerLine) {
  const std::string broken =
      "INFO NET/Socket : Using\n[0]bond0:192.168.1.161<0>\n[1]br-05ab815fa14e:172.19.0.1<0>\n"
      "[2]veth6163fba:fe80::b878:6cff:fe52:abe2%veth6163fba<0> \n"
      "torch.distributed.DistBackendError: NCCL error\n";
  Analysis a = test::analyzeText(broken);
  ASSERT_EQ(a.info.processes().size(), 1u);
  EXPECT_EQ(a.info.processes().begin()->second.socketIfs,
            (std::vector<std::string>{"bond0", "br-05ab815fa14e", "veth6163fba"}));
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->id, "network-interface.virtual-interface-selected");
  EXPECT_NE(a.diagnoses[0].evidence.at(0).text.find("[2]veth6163fba"), std::string::npos);
  // A node's own NICs only: nothing to say. A line that is not an entry ends the list.
  EXPECT_EQ(test::topRule("n1:1:1 [0] NCCL INFO NET/Socket : Using\n[0]ens5:10.0.0.5<0>\nTraining started\n"
                          "[1]veth0:10.9.0.1<0>\n"),
            "(none)");
}

// The first GPU validation run (docs/validation/2026-12-04-NVIDIA-H200-first-run.md): a bundled PMIx opened the
// machine's own PMIx plugins, one failed to load, and the sweep ran correctly. That is the version-mismatch fallback's
// "undefined symbol" plus " error: ", so it read as a failure of mixed versions; it is a skipped plugin, named as such,
// and it ranks after any cause (Open MPI's one-line form too).
TEST(DoctorStartupLogs, AnMpiPluginThatFailedToLoadIsNamedAndRanksAfterACause) {
  const std::string pmix =
      "[vm:02084] pmix_mca_base_component_repository_open: unable to open "
      "/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/pmix_mca_pcompress_zlib: \n"
      "    dlopen error: /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/pmix_mca_pcompress_zlib.so: undefined symbol: "
      "pmix_output_info\n"
      "    Perhaps a missing symbol, or compiled for a different version of pmix? (ignored)\n";
  const std::string rows =
      "      524288        131072     float     sum      -1  14716.7    0.04    0.04       0  14595.4    0.04    0.04  "
      "0\n# Out of bounds values : 0 OK\n";
  EXPECT_EQ(test::topRule(pmix + rows), "rendezvous.mca-component-skipped");
  EXPECT_EQ(
      test::topRule("[n1:4242] mca_base_component_repository_open: unable to open mca_btl_openib: librdmacm.so.1: "
                    "cannot open shared object file: No such file or directory (ignored)\n"),
      "rendezvous.mca-component-skipped");
  const auto ids = test::rankedRuleIds(pmix + "bash: torchrun: command not found\n");
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0], "rendezvous.launcher-not-found");
  EXPECT_EQ(ids[1], "rendezvous.mca-component-skipped");
}

}  // namespace
}  // namespace pf::doctor
