// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Messages of the launchers and of the layers just above NCCL, from the twenty-ninth corpus batch's development
// cases: MPICH's Hydra (utils/sock, ui/mpich), Open MPI's TCP transport at its verbose level, MPICH's and Open MPI's
// words for a call after MPI_Finalize, horovodrun's output forwarding, vLLM's pynccl and worker checks, the
// divisibility asserts of the tensor-parallel libraries, and TensorFlow's older GPU-id check. Each line is laid out
// as the program prints it (the format strings of those sources, values from the cases).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

const std::vector<test::RuleLines>& launcherMessages() {
  static const std::vector<test::RuleLines> table = {
      {"network-interface.hydra-proxy-cannot-connect",
       {"[proxy:0:0@server1] HYDU_sock_connect (lib/utils/sock.c:110): unable to get host address for server1",
        "[proxy:0:1@node7] main (proxy/pmip.c:105): unable to connect to server node1 at port 39647 (check for "
        "firewalls!)"}},
      {"network-interface.ompi-tcp-connect",
       {"[mydocker01:06805] btl: tcp: Match incoming connection from [[27443,1],1] 44.128.0.4 with locally known IP "
        "2.2.2.77 failed (iface 0/4)!"}},
      {"rendezvous.mpich-given-open-mpi-options",
       {"[mpiexec@master] match_arg (utils/args/args.c:159): unrecognized argument allow-run-as-root",
        "[mpiexec@node1] match_arg (lib/utils/args.c:166): unrecognized argument x"}},
      {"other.mpi-used-after-finalize",
       {"Attempting to use an MPI routine after finalizing MPICH",
        "*** The MPI_Comm_rank() function was called after MPI_FINALIZE was invoked."}},
      {"other.pynccl-dtype-unsupported",
       {"ValueError: Unsupported dtype torch.float8_e4m3fnuz: should be one of int8, uint8, int32, int64, float16, "
        "float32, float64, bfloat16, float8e4m3."}},
      {"other.parallel-size-not-divisible", {"AssertionError: 96 is not divisible by 64"}},
      {"other.vllm-local-world-size-check",
       {"AssertionError: local_world_size (16) must be less than or equal to the number of visible devices (8)."}},
      {"cuda.invalid-device-ordinal",
       {"2017-11-15 01:21:03.972724: E tensorflow/core/common_runtime/direct_session.cc:138] Invalid argument: "
        "'visible_device_list' listed an invalid GPU id '6' but visible device count is 1"}},
  };
  return table;
}

TEST(DoctorLauncherMessages, EachLauncherMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(launcherMessages(), 11));
}

// Hydra's proxy that could not reach mpiexec is the cause; "Launch proxy failed" is mpiexec noticing it.
TEST(DoctorLauncherMessages, AProxyThatCannotConnectBackRanksAboveTheFailedLaunch) {
  const auto ids = rankedRuleIds(
      "[proxy:0:0@server1] HYDU_sock_connect (lib/utils/sock.c:110): unable to get host address for server1\n"
      "[proxy:0:0@server1] main (proxy/pmip.c:105): unable to connect to server server2 at port 39647 (check for "
      "firewalls!)\n"
      "[mpiexec@server2] ui_cmd_cb (mpiexec/pmiserv_pmci.c:51): Launch proxy failed.\n");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids[0], "network-interface.hydra-proxy-cannot-connect");
}

// horovodrun's forwarding thread: the traceback names its file, the error comes lines later.
TEST(DoctorLauncherMessages, HorovodrunOutputThatIsNotUtf8) {
  const std::string log =
      "Exception in thread Thread-17:\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.6/site-packages/horovod/runner/common/util/safe_shell_exec.py\", line 104, "
      "in forward_stream\n"
      "    text = text.decode('utf-8')\n"
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe2 in position 999: unexpected end of data\n";
  EXPECT_EQ(topRule(log), "other.horovodrun-output-decode");
  // The same error in the job's own code is not horovodrun's.
  EXPECT_FALSE(test::diagnoses("UnicodeDecodeError: 'utf-8' codec can't decode byte 0x8a in position 91\n",
                               "other.horovodrun-output-decode"));
}

// A divisibility message outside an assertion (a user's own log line) is no configuration error.
TEST(DoctorLauncherMessages, ADivisibilityRemarkWithoutAnAssertionIsNoDiagnosis) {
  EXPECT_FALSE(test::diagnoses("INFO dataset size 1001 is not divisible by 8, dropping the last batch\n",
                               "other.parallel-size-not-divisible"));
}

}  // namespace
}  // namespace pf::doctor
