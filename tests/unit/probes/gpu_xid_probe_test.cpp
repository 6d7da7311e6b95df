// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu_xid probe on captured kernel logs (ROOT/dev/kmsg, as /dev/kmsg records and as `dmesg` text): each GPU's
// Xids counted and classed with NVIDIA's catalogue, the node failed for a reset or a drain, absent without a driver;
// with `--xid-since`, only the messages from then on (tests/fixtures/xid-window: an old Xid 48, a recent Xid 13).
#include <gtest/gtest.h>

#include <filesystem>

#include "gpu/xid_catalogue.hpp"
#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using test::TempTree;

Result runXid(const TempTree& t) {
  return Registry<Probe>::instance().create("gpu_xid")->run(SystemView(t.root(), Environment()), {});
}

const Json* rowFor(const Result& r, const std::string& pci, const std::string& xid) {
  for (const auto& row : r.rows)
    if (row.at("pci") == pci && row.at("xid") == xid) return &row;
  return nullptr;
}

TEST(GpuXidProbe, FallenOffTheBusFailsTheNodeAndNamesTheGpuAndTheAction) {
  TempTree t;
  t.dir("/sys/module/nvidia");
  // /dev/kmsg records: "priority,sequence,microseconds,flags;message", a dictionary line after one of them.
  t.file("/dev/kmsg",
         "6,1001,5000000,-;nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver\n"
         "4,1002,7000000,-;NVRM: Xid (PCI:0000:3B:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the "
         "bus.\n"
         " SUBSYSTEM=pci\n"
         "4,1003,7000100,-;NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the "
         "bus.\n"
         "4,1004,8000000,-;NVRM: Xid (PCI:0000:86:00): 13, pid=2231, name=python, Graphics Exception\n"
         "4,1005,9000000,-;NVRM: Xid (PCI:0000:86:00): 63, Row Remapper: New row marked for remapping\n");
  Result r = runXid(t);
  EXPECT_EQ(r.status, Status::kFail) << r.message;
  EXPECT_EQ(r.metrics.at("kernel_log_records"), 5);
  ASSERT_EQ(r.rows.size(), 3u);
  const Json* bus = rowFor(r, "0000:3b:00", "Xid 79");
  ASSERT_NE(bus, nullptr);
  EXPECT_EQ(bus->at("count"), 2);
  EXPECT_EQ(bus->at("class"), "drain_node");
  EXPECT_EQ(bus->at("nvidia_action"), "RESTART_BM");
  EXPECT_NE(bus->at("first").get<std::string>().find("PCI:0000:3B:00"), std::string::npos);
  EXPECT_NE(r.message.find("Xid 79 (GPU has fallen off the bus) on GPU 0000:3b:00, 2 times"), std::string::npos)
      << r.message;
  EXPECT_NE(r.remedy.find("power-cycle"), std::string::npos) << r.remedy;
  EXPECT_EQ(rowFor(r, "0000:86:00", "Xid 13")->at("class"), "application");
  EXPECT_EQ(rowFor(r, "0000:86:00", "Xid 63")->at("class"), "informational");
}

TEST(GpuXidProbe, DmesgTextWithOnlyAnApplicationFaultWarns) {
  TempTree t;
  t.dir("/sys/module/nvidia");
  t.file("/dev/kmsg",
         "[Fri Nov 27 03:12:09 2026] NVRM: Xid (PCI:0000:18:00): 31, pid=88, name=train, Ch 00000008, MMU Fault\n"
         "[Fri Nov 27 03:12:10 2026] python[88]: my own message mentioning Xid (PCI:0000:18:00): 79, not the driver\n");
  Result r = runXid(t);
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  ASSERT_EQ(r.rows.size(), 1u);  // the second line is not the driver's
  EXPECT_EQ(r.rows[0].at("xid"), "Xid 31");
  EXPECT_EQ(r.rows[0].at("meaning"), "GPU memory page fault");
}

TEST(GpuXidProbe, UncontainedEccAsksForAResetAndAnUnknownCodeAndAnSxidWarn) {
  TempTree t;
  t.dir("/sys/module/nvidia");
  t.file("/dev/kmsg",
         "NVRM: Xid (PCI:0000:9a:00): 95, pid=1, Uncontained: FBHUB. RST: Yes\n"
         "NVRM: Xid (PCI:0000:9a:00): 999, pid=1, something new\n"
         "nvidia-nvswitch2: SXid (PCI:0000:c5:00.0): 12028, Non-fatal, Link 32 egress non-posted PRIV error\n");
  Result r = runXid(t);
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_EQ(rowFor(r, "0000:9a:00", "Xid 95")->at("class"), "reset_gpu");
  EXPECT_NE(r.remedy.find("nvidia-smi -r -i 0000:9a:00"), std::string::npos) << r.remedy;
  EXPECT_EQ(rowFor(r, "0000:9a:00", "Xid 999")->at("class"), "unknown");
  const Json* sxid = rowFor(r, "0000:c5:00.0", "SXid 12028");
  ASSERT_NE(sxid, nullptr);
  EXPECT_EQ(sxid->at("class"), "unknown");
  EXPECT_NE(sxid->at("remedy").get<std::string>().find("unknown: see NVIDIA's Xid catalogue"), std::string::npos);
}

TEST(GpuXidProbe, ACleanLogPassesCountingItsRecordsAndInformationalXidsStayAPass) {
  TempTree t;
  t.dir("/sys/module/nvidia");
  t.file("/dev/kmsg", "6,1,1,-;Linux version 6.1.0\n6,2,2,-;NVRM: loading NVIDIA UNIX x86_64 Kernel Module\n");
  Result r = runXid(t);
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_EQ(r.message, "no Xid in the 2 records the kernel log holds");
  t.file("/dev/kmsg", "NVRM: Xid (PCI:0000:3b:00): 43, pid=7, Ch 00000010\n");
  r = runXid(t);
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_NE(r.message.find("informational: Xid 43 (GPU stopped processing) on GPU 0000:3b:00"), std::string::npos)
      << r.message;
}

TEST(GpuXidProbe, AbsentWithoutTheDriverOrWithoutACapturedLog) {
  TempTree none;
  none.file("/proc/cpuinfo", "processor : 0");
  EXPECT_EQ(runXid(none).status, Status::kAbsent);
  TempTree noLog;
  noLog.dir("/sys/module/nvidia");
  Result r = runXid(noLog);
  EXPECT_EQ(r.status, Status::kAbsent);
  EXPECT_EQ(r.message, "the captured tree holds no kernel log (ROOT/dev/kmsg)");
}

// The evidence as text, for the failure message and for finding a value in it.
std::string evidenceText(const Result& r) {
  Json all = Json::array();
  for (const auto& e : r.evidence) all.push_back(toJson(e));
  return all.dump();
}

Result runXidSince(const std::filesystem::path& root, const std::string& since) {
  ProbeOptions opt;
  opt.xidSince = parseKernelLogSince(since, "--xid-since");
  return Registry<Probe>::instance().create("gpu_xid")->run(SystemView(root, Environment()), opt);
}

const std::filesystem::path kWindowTree = std::filesystem::path(PF_FIXTURES) / "xid-window";

TEST(GpuXidSince, AnEarlierJobsXidIsLeftOutOfTheWindowAndTheRecentOneJudged) {
  // Without a window: the Xid 48 of 2000 s after boot asks for a GPU reset.
  Result all = Registry<Probe>::instance().create("gpu_xid")->run(SystemView(kWindowTree, Environment()), {});
  EXPECT_EQ(all.status, Status::kFail) << all.message;
  // The last 30 minutes of the capture (10000 s after boot): the Xid 13 at 9500 s, an application fault, only.
  for (const std::string since : {"30m", "2026-12-02T09:00:00Z", "2026-12-02T10:00:00+01:00", "@1796202000"}) {
    SCOPED_TRACE(since);
    Result r = runXidSince(kWindowTree, since);
    EXPECT_EQ(r.status, Status::kWarn) << r.message;
    ASSERT_EQ(r.rows.size(), 1u);
    EXPECT_EQ(r.rows[0].at("xid"), "Xid 13");
    EXPECT_EQ(r.metrics.at("kernel_log_records"), 8);
    EXPECT_EQ(r.metrics.at("records_before_window"), 6);
  }
  Result r = runXidSince(kWindowTree, "30m");
  bool window = false;
  for (const auto& e : r.evidence)
    window |= e.what == "Xid window" && e.value == "since 2026-12-02T09:30:00Z (--xid-since 30m)";
  EXPECT_TRUE(window) << evidenceText(r);
  // A window that reaches back past the Xid 48 (or "boot") judges it again.
  EXPECT_EQ(runXidSince(kWindowTree, "3h").status, Status::kFail);
  EXPECT_EQ(runXidSince(kWindowTree, "boot").status, Status::kFail);
  // After both: a pass that says what it looked at.
  Result quiet = runXidSince(kWindowTree, "5m");
  EXPECT_EQ(quiet.status, Status::kPass);
  EXPECT_EQ(quiet.message, "no Xid in the 1 records since 2026-12-02T09:55:00Z (--xid-since 5m)");
}

TEST(GpuXidSince, MessagesTheWindowCannotPlaceAreLookedAtAndCounted) {
  // dmesg -T's local times name no zone: the Xid is kept, and the result says why.
  TempTree t;
  t.dir("/sys/module/nvidia");
  t.file("/proc/uptime", "10000.25 149870.02");
  t.file("/proc/stat", "btime 1796195600");
  t.file("/dev/kmsg", "[Wed Dec  2 07:46:40 2026] NVRM: Xid (PCI:0000:3b:00): 48, pid=30121, name=python, DBE\n");
  Result r = runXidSince(t.root(), "30m");
  EXPECT_EQ(r.status, Status::kFail) << r.message;
  bool counted = false;
  for (const auto& e : r.evidence) counted |= e.what == "records the window cannot place (looked at)";
  EXPECT_TRUE(counted) << evidenceText(r);
  // dmesg's "[seconds]" since boot is placed; a capture without /proc/uptime cannot place a span before now.
  t.file("/dev/kmsg", "[ 2000.120345] NVRM: Xid (PCI:0000:3b:00): 48, pid=30121, name=python, DBE\n");
  EXPECT_EQ(runXidSince(t.root(), "30m").status, Status::kPass);
  std::filesystem::remove(t.root() / "proc/uptime");
  r = runXidSince(t.root(), "30m");
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_NE(evidenceText(r).find("1 (/proc/uptime is not readable)"), std::string::npos) << evidenceText(r);
  // An absolute time needs only the boot time.
  EXPECT_EQ(runXidSince(t.root(), "2026-12-02T09:00:00Z").status, Status::kPass);
}

TEST(XidCatalogue, EveryRowOfTheEmbeddedFileParsesAndTheCommonCodesAreThere) {
  int rows = 0;
  for (int code = 1; code < 200; ++code) rows += findXid(code).has_value();
  EXPECT_EQ(rows, 58);  // the data rows of gpu/xid_catalogue.tsv: a malformed row would be dropped
  for (int code : {13, 31, 32,  38,  43,  45,  48,  61,  62,  63,  64,  68,  69,  74,  79,  92,
                   94, 95, 109, 119, 120, 121, 136, 140, 143, 144, 145, 146, 147, 148, 149, 150})
    EXPECT_TRUE(findXid(code).has_value()) << code;
  EXPECT_EQ(classify(findXid(48)), XidClass::kResetGpu);
  EXPECT_EQ(classify(findXid(74)), XidClass::kResetGpu);
  EXPECT_EQ(classify(findXid(54)), XidClass::kDrainNode);
  EXPECT_EQ(classify(findXid(94)), XidClass::kApplication);
  EXPECT_EQ(classify(findXid(92)), XidClass::kInformational);
  EXPECT_EQ(classify(findXid(2)), XidClass::kUnknown);
}

}  // namespace
}  // namespace pf::probes
