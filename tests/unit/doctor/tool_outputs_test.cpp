// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The outputs of the tools people run first and paste with their logs: the CUDA samples p2pBandwidthLatencyTest
// and simpleP2P, and nccl-tests in its NCCL 1 era layout and with wrong rows but no footer. Laid out as the
// programs print them (cuda-samples' printf formats; nccl-tests' src/common.cu of both eras); the figures are
// made up for the tests.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

bool hasFact(const Analysis& a, const std::string& name) { return a.info.facts().count(name) > 0; }

// Three GPUs; `enabled` is the off-diagonal figure of the P2P=Enabled matrix, the disabled one is 13.
std::string bandwidthSample(const std::string& enabled) {
  return "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n"
         "Device: 0, NVIDIA RTX A6000, pciBusID: 3, pciDeviceID: 0, pciDomainID:0\n"
         "Device=0 CAN Access Peer Device=1\n"
         "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)\n"
         "   D\\D     0      1      2 \n"
         "     0 673.20  13.15  13.15 \n"
         "     1  12.99 673.20  13.20 \n"
         "     2  13.00  12.98 673.78 \n"
         "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n"
         "   D\\D     0      1      2 \n"
         "     0 673.49 " +
         enabled + " " + enabled + " \n     1 " + enabled + " 672.33 " + enabled + " \n     2 " + enabled + " " +
         enabled + " 673.78 \n";
}

TEST(DoctorToolOutputs, PeerCopiesSlowerThanHostCopiesNameThePeerPath) {
  const Analysis broken = test::analyzeText(bandwidthSample("2.12"));
  ASSERT_FALSE(broken.diagnoses.empty());
  EXPECT_EQ(broken.diagnoses[0].rule->id, "p2p.peer-copies-slower-than-host");
  // A working peer path (faster than the staged copies) is not a finding.
  const Analysis healthy = test::analyzeText(bandwidthSample("26.10"));
  EXPECT_FALSE(hasFact(healthy, "p2p_slower_than_host_copies"));
  EXPECT_TRUE(healthy.diagnoses.empty());
}

// The rows carry no literal the matcher looks for; they reach the reader however the input is cut into blocks.
TEST(DoctorToolOutputs, MatrixRowsAreReadAcrossBlockBoundaries) {
  for (std::size_t block : {std::size_t{9}, std::size_t{40}, std::size_t{1} << 20}) {
    Analysis a = analyze(test::catalog(), {Source{"p2p.txt", bandwidthSample("1.58")}}, block);
    EXPECT_TRUE(hasFact(a, "p2p_slower_than_host_copies")) << "block " << block;
  }
}

TEST(DoctorToolOutputs, LatencyOrdersOfMagnitudeAboveTheStagedPathIsAFinding) {
  const std::string latency =
      "P2P=Disabled Latency Matrix (us)\n   GPU     0      1 \n     0   1.52  14.05 \n     1  13.80   1.49 \n"
      "\n   CPU     0      1 \n     0   2.47   6.35 \n     1   6.20   2.41 \n"
      "P2P=Enabled Latency (P2P Writes) Matrix (us)\n   GPU     0      1 \n     0   1.50 49143.56 \n"
      "     1 49201.11   1.47 \n\n   CPU     0      1 \n     0   2.50   2.01 \n     1   2.02   2.44 \n";
  EXPECT_EQ(test::topRule(latency), "p2p.peer-copies-slower-than-host");
}

TEST(DoctorToolOutputs, ASampleThatPrintsAnEnabledTitleAndNothingElseHung) {
  const std::string head =
      "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)\n   D\\D     0      1 \n     0 673.20  13.15 \n"
      "     1  12.99 673.20 \n"
      "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n";
  EXPECT_EQ(test::topRule(head), "p2p.peer-test-stalled");
  // With its figures (healthy ones) it did not hang.
  EXPECT_EQ(test::topRule(head + "   D\\D     0      1 \n     0 673.49  25.30 \n     1  25.12 672.33 \n"), "(none)");
}

TEST(DoctorToolOutputs, SimpleP2pVerificationErrorIsAPeerPathFault) {
  const std::string log =
      "[./simpleP2P] - Starting...\nChecking for multiple GPUs...\n"
      "> Peer access from NVIDIA GeForce RTX 3090 (GPU0) -> NVIDIA GeForce RTX 3090 (GPU1) : Yes\n"
      "Enabling peer access between GPU0 and GPU1...\n"
      "cudaMemcpyPeer / cudaMemcpy between GPU0 and GPU1: 0.81GB/s\n"
      "Copy data back to host from GPU0 and verify results...\n"
      "Verification error @ element 1: val = 0.000000, ref = 4.000000\n"
      "Verification error @ element 2: val = 0.000000, ref = 8.000000\n"
      "Disabling peer access...\nTest failed!\n";
  EXPECT_EQ(test::topRule(log), "p2p.sample-verification-failed");
}

// nccl-tests of the NCCL 1 era ran all GPUs from one process and listed them as "Rank N uses device D"; a
// markdown paste puts "> " before some lines.
TEST(DoctorToolOutputs, OldNcclTestsListingFollowedByNothingIsAStall) {
  const std::string head =
      "> Using devices\n"
      "   Rank  0 uses device  0 [0x05] Tesla M40 24GB\n"
      "   Rank  1 uses device  1 [0x08] Tesla M40 24GB\n"
      "   Rank  2 uses device  2 [0x0d] Tesla M40 24GB\n"
      ">\n>                                                 out-of-place                    in-place\n"
      ">      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n";
  EXPECT_EQ(test::topRule(head), "p2p.single-node-stall");
  const std::string row =
      "    1048576        262144   float     sum    0.421   2.49   3.32    5e-07    0.418   2.51   3.34    5e-07\n";
  EXPECT_EQ(test::topRule(head + row), "(none)");
  // One GPU listed is not a single-node stall.
  EXPECT_EQ(test::topRule("> Using devices\n   Rank  0 uses device  0 [0x05] Tesla M40 24GB\n"), "(none)");
}

// A paste that starts at the device list (no "# nThread" header) still stalls, and the evidence is the list's
// first line (the fuzzer found the evidence empty, line 0, when only the header set it).
TEST(DoctorToolOutputs, ADeviceListWithoutItsHeaderIsTheEvidence) {
  const Analysis a = test::analyzeText(
      "#  Rank  0 Pid 2152176 on  dgxh100-3 device  0 [0xd1] NVIDIA H100 80GB HBM3\n"
      "#  Rank  1 Pid 2152176 on  dgxh100-3 device  1 [0xdf] NVIDIA H100 80GB HBM3\n");
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->id, "p2p.single-node-stall");
  ASSERT_FALSE(a.diagnoses[0].evidence.empty());
  EXPECT_EQ(a.diagnoses[0].evidence[0].line, 1u);
}

// Rows of any collective and type are output: an all_gather (op "none") or a half-precision run that was cut
// before its footer did not stall.
TEST(DoctorToolOutputs, RowsOfEveryCollectiveAndTypeCountAsProgress) {
  const std::string head =
      "# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20\n";
  for (const std::string row :
       {"     1048576         65536     float    none      -1    52.31   20.05   15.03       0    50.87   20.61   "
        "15.46       0\n",
        "     1048576        524288      half     sum      -1    61.02   17.18   25.78       0    60.11   17.44   "
        "26.17       0\n"}) {
    EXPECT_EQ(test::topRule(head + row), "(none)") << row;
  }
}

// A wrong row is a finding even when the paste stops before the "Out of bounds values : N FAILED" footer; a
// #wrong of 0 (or an old-style error of 5e-07) is not.
TEST(DoctorToolOutputs, AWrongRowWithoutItsFooterIsWrongResults) {
  const std::string head =
      "# nThread 1 nGpus 2 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20\n"
      "#  Rank  0 Group  0 Pid  21284 on   node-3 device  0 [0x2f] NVIDIA A100-SXM4-80GB\n"
      "#  Rank  1 Group  0 Pid  21284 on   node-3 device  1 [0x03] NVIDIA A100-SXM4-80GB\n";
  const std::string good =
      "     4194304       1048576     float     sum      -1    71.93   58.31   58.31       0    70.12   59.81   "
      "59.81       0\n";
  const std::string bad =
      "     8388608       2097152     float     sum      -1    130.2   64.43   64.43  1048576    128.9   65.08   "
      "65.08  2097152\n";
  const Analysis wrong = test::analyzeText(head + good + bad);
  EXPECT_TRUE(hasFact(wrong, "nccl_tests_wrong_results"));
  ASSERT_FALSE(wrong.diagnoses.empty());
  EXPECT_EQ(wrong.diagnoses[0].rule->id, "p2p.nccl-tests-wrong-results");
  EXPECT_FALSE(hasFact(test::analyzeText(head + good), "nccl_tests_wrong_results"));
  const std::string oldLayout =
      "    1048576        262144   float     sum    0.421   2.49   3.32    5e-07    0.418   "
      "2.51   3.34    2e+00\n";
  EXPECT_TRUE(hasFact(test::analyzeText(oldLayout), "nccl_tests_wrong_results"));
}

// nvidia-smi -q and lspci -vv, as a node's administrator pastes them: only the fields that say something is wrong are
// findings. The layouts are nvidia-smi's (a section name, then its fields padded to one column before " : ") and
// pciutils' (LnkCap/LnkSta).
std::string smiSection(const std::string& name, std::initializer_list<std::pair<std::string, std::string>> fields) {
  std::string out = "    " + name + "\n";
  for (const auto& [field, value] : fields)
    out += "        " + field + std::string(34 - field.size(), ' ') + ": " + value + "\n";
  return out;
}

TEST(DoctorToolOutputs, NodeReportsNameOnlyTheFieldsThatAreFaults) {
  EXPECT_EQ(test::topRule(smiSection("Remapped Rows", {{"Correctable Error", "0"},
                                                       {"Uncorrectable Error", "4"},
                                                       {"Pending", "Yes"},
                                                       {"Remapping Failure Occurred", "No"}})),
            "cuda.gpu-memory-remap-pending");
  EXPECT_EQ(test::topRule(smiSection("GPU Reset Status", {{"Reset Required", "Yes"}})),
            "cuda.gpu-memory-remap-pending");
  EXPECT_EQ(test::topRule(smiSection("Fabric", {{"State", "In Progress"}, {"Status", "N/A"}, {"CliqueId", "N/A"}})),
            "cuda.gpu-fabric-not-ready");
  const std::string lnkCap = "\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM not supported\n";
  EXPECT_EQ(test::topRule(lnkCap + "\t\tLnkSta:\tSpeed 32GT/s, Width x8 (downgraded)\n"), "other.pcie-link-degraded");
  EXPECT_EQ(test::topRule("\t\tLnkSta:\tSpeed 2.5GT/s, Width x0, TrErr- Train- SlotClk+ DLActive- BWMgmt-\n"),
            "other.pcie-link-degraded");
  // A healthy GPU's report: ECC's "Pending" mode, no pending repair, a completed fabric registration, an idle GPU's
  // link at a lower speed but its full width.
  const std::string healthy =
      smiSection("ECC Mode", {{"Current", "Enabled"}, {"Pending", "Enabled"}}) +
      smiSection("Remapped Rows",
                 {{"Correctable Error", "0"}, {"Pending", "No"}, {"Remapping Failure Occurred", "No"}}) +
      smiSection("Fabric", {{"State", "Completed"}, {"Status", "Success"}, {"Summary", "Healthy"}}) + lnkCap +
      "\t\tLnkSta:\tSpeed 2.5GT/s (downgraded), Width x16 (ok)\n";
  EXPECT_TRUE(test::rankedRuleIds(healthy).empty());
}

}  // namespace
}  // namespace pf::doctor
