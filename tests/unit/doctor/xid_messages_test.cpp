// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NVIDIA driver's Xid lines ("NVRM: Xid (PCI:0000:3b:00): 79, pid=..., ..."), read by their number as NVIDIA's
// Xid documentation and catalog class them: the hardware (drain the node), a contained memory error (restart the
// application), the program's own fault (a bug, the GPU stays healthy), the firmware, a consequence of an earlier
// error, an NVLink error. Not written from a corpus case: no development case holds an Xid line.
#include <gtest/gtest.h>

#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::diagnoses;
using test::rankedRuleIds;
using test::topRule;

// As `dmesg -T` prints it (the driver's own text after the number differs between releases; only the number is read).
std::string xid(int number, const std::string& rest) {
  return "[Fri Nov 27 03:12:09 2026] NVRM: Xid (PCI:0000:3b:00): " + std::to_string(number) + ", pid=21437, " + rest +
         "\n";
}

TEST(DoctorXidMessages, TheNumberNamesTheCause) {
  const std::pair<std::string, const char*> cases[] = {
      {xid(79, "name=python, GPU has fallen off the bus."), "cuda.gpu-hardware-fault"},
      {xid(48, "name=python, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer."),
       "cuda.gpu-hardware-fault"},
      {xid(95, "name=python, Uncontained: FBHUB. RST: Yes, D-RST: No"), "cuda.gpu-hardware-fault"},
      {xid(63, "Row Remapper: New row marked for remapping, reset gpu to activate."),
       "cuda.xid-contained-memory-error"},
      {xid(13, "name=python, Graphics Exception: ESR 0x405840=0x3000000"), "cuda.xid-application-fault"},
      {xid(31,
           "name=python, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_3 faulted @ "
           "0x7f3c_6b200000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ"),
       "cuda.xid-application-fault"},
      {xid(119, "Timeout after 6s of waiting for RPC response from GPU0 GSP! Expected function 76 (GSP_RM_CONTROL)"),
       "cuda.xid-gpu-firmware"},
      {xid(154, "GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)"), "cuda.xid-recovery-action"},
      {xid(74, "NVLink: fatal error detected on link 4(0x10000, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)"), "p2p.nvlink-error"},
      {xid(45, "name=python, Ch 00000010"), "cuda.xid-cleanup-after-error"},
      // Work that stopped answering: Xid 8 in the catalog's words, Xid 109 as the 595 open driver prints it.
      {xid(8, "name=python, Ch 00000010"), "cuda.xid-gpu-stopped"},
      {xid(109, "name=python, channel 0x0000000f, errorString CTX SWITCH TIMEOUT, Info 0x3c014"),
       "cuda.xid-gpu-stopped"},
      // An Xid no rule classifies still gets a pointer, at a low confidence.
      {xid(32, "name=python, Channel ID 00000005 intr 00008000"), "cuda.xid-unclassified"},
      // The number is read whole: 18 is not 8.
      {xid(18, "name=python, Ch 00000010"), "cuda.xid-unclassified"},
      // The number is read whole: 113 is not 13.
      {xid(113, "name=python, Ch 00000010"), "cuda.xid-unclassified"},
      // Older drivers write the PCI address without "PCI:"; journalctl puts its own prefix before "NVRM".
      {"Nov 27 03:12:09 gpu-node-7 kernel: NVRM: Xid (0000:3b:00): 79, GPU has fallen off the bus.\n",
       "cuda.gpu-hardware-fault"},
      {"nvidia-nvswitch2: SXid (PCI:0000:c5:00.0): 12028, Non-fatal, Link 32 egress non-posted PRIV error\n",
       "p2p.nvlink-error"},
      {"RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution\n", "p2p.nvlink-error"},
  };
  for (const auto& [log, rule] : cases) EXPECT_EQ(topRule(log), rule) << log;
}

TEST(DoctorXidMessages, AProgramsOwnFaultIsNotCalledAHardwareFault) {
  // Before, any "NVRM: Xid" line was a hardware fault at 0.9: the answer to a bug was to drain a healthy node.
  const std::string log = xid(31, "name=python, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS") +
                          "RuntimeError: CUDA error: an illegal memory access was encountered\n" +
                          test::watchdogTimeoutLine(2);
  EXPECT_EQ(topRule(log), "cuda.xid-application-fault");
  EXPECT_FALSE(diagnoses(log, "cuda.gpu-hardware-fault"));
  EXPECT_FALSE(diagnoses(log, "cuda.xid-unclassified"));
}

TEST(DoctorXidMessages, AContainedErrorRanksAboveTheApplicationsEccError) {
  // The application's CUDA call fails with "uncorrectable ECC error" too; the Xid says the error was contained, so
  // restarting the job, not draining the node, is the first step.
  const std::string log = xid(94, "name=python, Contained: SM (0x1). RST: No, D-RST: No") +
                          "RuntimeError: CUDA error: uncorrectable ECC error encountered\n";
  const auto ids = rankedRuleIds(log);
  ASSERT_GE(ids.size(), 2u);
  EXPECT_EQ(ids[0], "cuda.xid-contained-memory-error");
  EXPECT_EQ(ids[1], "cuda.gpu-hardware-fault");
}

TEST(DoctorXidMessages, TheCleanupRanksAfterTheXidThatCausedIt) {
  // Written in the opposite order to the events: the cleanup is a consequence whatever the order of the lines.
  const std::string log = xid(45, "name=python, Ch 00000010") + xid(79, "name=python, GPU has fallen off the bus.");
  const auto ids = rankedRuleIds(log);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "cuda.gpu-hardware-fault");
  EXPECT_EQ(ids.back(), "cuda.xid-cleanup-after-error");
  EXPECT_FALSE(diagnoses(log, "cuda.xid-unclassified"));
}

}  // namespace
}  // namespace pf::doctor
