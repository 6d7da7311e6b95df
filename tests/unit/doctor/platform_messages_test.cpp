// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Messages of the layers under a job that are neither NCCL nor the framework: the NVSwitch Fabric Manager as
// systemd and its journal show it, gVisor's GPU proxy (pkg/sentry/devices/nvproxy), the compilers' errors for the
// toolkits' FP8 types, and XLA's device set-up in a multi-process JAX job. Each line is laid out as the program
// prints it (the Fabric Manager's, gVisor's and XLA's format strings; nvcc's and clang's diagnostics).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

const std::vector<test::RuleLines>& platformMessages() {
  static const std::vector<test::RuleLines> table = {
      {"version-mismatch.fabric-manager-driver-differ",
       {"Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version "
        "550.127.05 don't match with driver version 550.120. Please update with matching NVIDIA driver package."}},
      {"cuda.fabric-manager-not-running",
       {"    Process: 444114 ExecStart=/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg "
        "(code=exited, status=1/FAILURE)"}},
      {"other.gvisor-nvproxy-unsupported-call",
       {"W0509 01:16:28.218428  1772489 frontend.go:521] [   6:  20] nvproxy: unknown control command 0x3d05 "
        "(paramsSize=24)",
        "W0612 09:02:11.104233  1 frontend.go:402] [  12:  12] nvproxy: unknown frontend ioctl 78 == 0x4e "
        "(argSize=16, cmd=0xc010464e)",
        "W0612 09:02:11.104698  1 frontend.go:611] [  12:  12] nvproxy: unknown allocation class 0x0000c96f"}},
      {"version-mismatch.toolkit-lacks-fp8-types",
       {"src/include/rccl_float8.h:54:9: error: unknown type name '__hip_fp8_e4m3'",
        "include/common.h(88): error: identifier \"__nv_fp8_e4m3\" is undefined",
        "src/device/common.h:41:9: error: '__nv_fp8_e5m2' does not name a type"}},
      {"rendezvous.jax-local-device-not-visible",
       {"2024-09-05 07:57:34.555804: W external/xla/xla/service/platform_util.cc:199] unable to create "
        "StreamExecutor for CUDA:1: failed initializing StreamExecutor for CUDA device ordinal 1: INTERNAL: Failed "
        "call to cuDeviceGet: CUDA_ERROR_INVALID_DEVICE: invalid device ordinal"}},
  };
  return table;
}

TEST(DoctorPlatformMessages, EachPlatformMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(platformMessages(), 9));
}

// `systemctl status` of a Fabric Manager that exited, with the journal's reason: the version mismatch is the cause,
// the service that is not running its effect.
TEST(DoctorPlatformMessages, AFabricManagerOfAnotherVersionThanTheDriverIsTheCause) {
  const auto ids = rankedRuleIds(
      "● nvidia-fabricmanager.service - NVIDIA fabric manager service\n"
      "     Active: failed (Result: exit-code) since Mon 2024-07-01 14:43:57 UTC; 5s ago\n"
      "    Process: 444114 ExecStart=/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg "
      "(code=exited, status=1/FAILURE)\n"
      "NVIDIA GPU driver interface version 550.90.07 don't match with driver version 550.54.15\n");
  ASSERT_GE(ids.size(), 2u);
  EXPECT_EQ(ids[0], "version-mismatch.fabric-manager-driver-differ");
  EXPECT_EQ(ids[1], "cuda.fabric-manager-not-running");
}

// nvproxy's guess at a caching type is a warning it carries on from; only a refused call is a failure.
TEST(DoctorPlatformMessages, AnNvproxyWarningItCarriesOnFromIsNoRefusedCall) {
  EXPECT_FALSE(test::diagnoses("W0612 09:02:11.104233  1 mmap.go:88] nvproxy: unknown caching type 7\n",
                               "other.gvisor-nvproxy-unsupported-call"));
}

// Outside XLA an invalid device ordinal stays a device-assignment error of the program.
TEST(DoctorPlatformMessages, AnInvalidOrdinalOutsideXlaStaysACudaError) {
  EXPECT_EQ(topRule("RuntimeError: CUDA error: invalid device ordinal\n"), "cuda.invalid-device-ordinal");
}

}  // namespace
}  // namespace pf::doctor
