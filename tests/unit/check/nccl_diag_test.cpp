// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's diagnostics report (NCCL >= 2.31) read into findings: lines as NCCL's Diagnostics and RAS troubleshooting
// pages show them ("<host>:<pid> NCCL DIAG [OK]   p2p: ..."). Text only: no NCCL run here.
#include "nccl_diag.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "nccl/stdout_capture.hpp"

namespace pf::check {
namespace {

TEST(NcclDiag, AHealthyReportGivesNoFinding) {
  const std::string out =
      "node01:15 NCCL DIAG === NCCL Diagnostics ===\n"
      "node01:15 NCCL DIAG [OK]   p2p: all 56 directed GPU P2P edges verified\n"
      "node01:15 NCCL DIAG NCCL diagnostics completed in 245.3 ms across 8 ranks\n"
      "# out-of-place in-place ... (the application's own output is skipped)\n";
  const auto lines = parseNcclDiag(out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].host, "node01");
  EXPECT_EQ(lines[1].tag, "OK");
  EXPECT_EQ(lines[1].area, "p2p");
  EXPECT_EQ(lines[1].text, "p2p: all 56 directed GPU P2P edges verified");
  EXPECT_TRUE(ncclDiagFindings(lines, "fallback").empty());
}

TEST(NcclDiag, AnUnverifiedP2pEdgeFailsTheNodeThatPrintedItWithItsDetail) {
  const std::string out =
      "node07:2231 NCCL DIAG === NCCL Diagnostics ===\n"
      "node07:2231 NCCL DIAG [INFO] p2p: 4/6 directed GPU P2P edges verified (skipped indirect=3)\n"
      "node07:2231 NCCL DIAG   GPU 1 -> GPU 2 (NVL): write mismatch\n"
      "node07:2231 NCCL DIAG NCCL diagnostics completed in 40.0 ms across 3 ranks\n";
  const auto f = ncclDiagFindings(parseNcclDiag(out), "fallback");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "nccl.diag.p2p");
  EXPECT_EQ(f[0].status, Status::kFail);
  EXPECT_EQ(f[0].hosts, std::vector<std::string>{"node07"});
  EXPECT_EQ(f[0].message,
            "node07: NCCL's diagnostics report [INFO] p2p: 4/6 directed GPU P2P edges verified (skipped indirect=3)");
  EXPECT_NE(f[0].remedy.find("nvidia-smi nvlink -s"), std::string::npos) << f[0].remedy;
  ASSERT_EQ(f[0].evidence.size(), 2u);
  EXPECT_EQ(f[0].evidence[1].value, "GPU 1 -> GPU 2 (NVL): write mismatch");
}

TEST(NcclDiag, RasLinesClassedByWhatTheyReport) {
  const std::string out =
      "gpu-a:77 NCCL DIAG === RAS Diagnostics ===\n"
      "gpu-a:77 NCCL DIAG [OK]   GPU inventory: 8 GPUs of one model across 16 ranks in comm 0x1234abcd\n"
      "gpu-a:77 NCCL DIAG [INFO] NCCL environment: NCCL_IB_HCA values differ across ranks in comm 0x1234abcd\n"
      "gpu-a:77 NCCL DIAG [INFO] ECC: uncorrected volatile errors on rank(s) 5 in comm 0x1234abcd\n"
      "gpu-a:77 NCCL DIAG RAS diagnostics completed in 12.0 ms across 16 ranks\n";
  const auto f = ncclDiagFindings(parseNcclDiag(out), "fallback");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].check, "nccl.diag.nccl_environment");
  EXPECT_EQ(f[0].status, Status::kWarn);  // a difference between ranks, not a broken part
  EXPECT_NE(f[0].remedy.find("the same for every rank"), std::string::npos);
  EXPECT_EQ(f[1].check, "nccl.diag.ecc");
  EXPECT_EQ(f[1].status, Status::kFail);
  EXPECT_NE(f[1].remedy.find("nvidia-smi -r"), std::string::npos);
}

TEST(NcclDiag, LinesWithoutAHostGoToTheDefaultAndAcsGetsItsRemedy) {
  const auto f = ncclDiagFindings(
      parseNcclDiag("NCCL DIAG [INFO] p2p: peer access blocked by PCIe ACS between GPU 0 and GPU 3\n"), "node3");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].hosts, std::vector<std::string>{"node3"});
  EXPECT_NE(f[0].remedy.find("disable ACS"), std::string::npos) << f[0].remedy;
  EXPECT_TRUE(parseNcclDiag("NCCL INFO Channel 00/02 : 0 1\n").empty());
}

// The pair engine hands NCCL rank 0's report lines over in its info; lines that name no host are rank 0's node's.
TEST(NcclDiag, TheEnginesInfoCarriesTheReportIntoFindings) {
  EXPECT_TRUE(engineDiagnostics(Json{{"engine", "nccl"}}, "node00").empty());
  const Json info{{"engine", "nccl"},
                  {"nccl_diagnostics",
                   {"node00:7 NCCL DIAG === NCCL Diagnostics ===",
                    "node03:9 NCCL DIAG [INFO] net bw: 1 of 4 rails below 50% of the expected bandwidth",
                    "NCCL DIAG [OK]   p2p: all 56 directed GPU P2P edges verified"}}};
  const auto f = engineDiagnostics(info, "node00");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].hosts, std::vector<std::string>{"node03"});
  EXPECT_EQ(f[0].check, "nccl.diag.net_bw");
}

// NCCL prints the report with stdio on file descriptor 1: the capture sees both, and the descriptor is restored.
TEST(StdoutCapture, SeesStdioAndRawWritesAndRestoresTheDescriptor) {
  struct stat before {
  }, after{};
  ASSERT_EQ(::fstat(STDOUT_FILENO, &before), 0);
  std::string text;
  {
    StdoutCapture capture;
    std::printf("node00:7 NCCL DIAG [OK]   p2p: verified\n");
    const char raw[] = "raw line\n";
    ASSERT_EQ(::write(STDOUT_FILENO, raw, sizeof raw - 1), static_cast<ssize_t>(sizeof raw - 1));
    text = capture.finish();
    EXPECT_EQ(capture.finish(), "");  // once
  }
  // stdio's buffer reaches the file at finish(), so the two may come in either order.
  EXPECT_NE(text.find("node00:7 NCCL DIAG [OK]   p2p: verified\n"), std::string::npos) << text;
  EXPECT_NE(text.find("raw line\n"), std::string::npos) << text;
  EXPECT_EQ(text.size(), 49u) << text;
  ASSERT_EQ(::fstat(STDOUT_FILENO, &after), 0);  // fd 1 is the file it was before
  EXPECT_EQ(before.st_dev, after.st_dev);
  EXPECT_EQ(before.st_ino, after.st_ino);
}

}  // namespace
}  // namespace pf::check
