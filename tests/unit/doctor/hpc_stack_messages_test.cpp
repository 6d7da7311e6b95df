// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Messages from the thirty-second corpus batch's development cases: HPE Slingshot's libfabric provider (cxi) and
// its VNIs, libfabric's psm3 provider, Open MPI's CUDA paths within a node, DeepSpeed's hostfile, Ray placement
// groups, horovodrun's MPI detection, builds against an older nccl.h or CUDA toolkit, MXNet's peer access, Asio's
// resolver, FlashInfer's fused all-reduce workspace and NCCL's plugin names. Each line is laid out as the program
// printed it in its case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::topRule;

const std::vector<test::RuleLines>& hpcStackMessages() {
  static const std::vector<test::RuleLines> table = {
      {"efa-libfabric.cxi-message-undeliverable",
       {"MPIDI_OFI_handle_cq_error(1062): OFI poll failed "
        "(ofi_events.c:1064:MPIDI_OFI_handle_cq_error:Input/output error - UNDELIVERABLE)"}},
      {"efa-libfabric.cxi-no-auth-key", {"cxip_gen_auth_key failed: -38"}},
      {"rendezvous.cxi-vni-not-found",
       {"Request dest_addr: 32 caddr.nic: 0X19D1 caddr.pid: 1 rxc_id: 0  error: 0x26c450f0 (err: 5, VNI_NOT_FOUND)"}},
      {"efa-libfabric.psm3-cannot-open-nic", {"28463ef361be:rank0: PSM3 can't open nic unit: 0 (err=23)"}},
      {"p2p.mpi-cuda-ipc-failed", {"The call to cuIpcGetMemHandle failed. This means the GPU RDMA protocol"}},
      {"p2p.mpi-initialised-before-cuda", {"CUDA: cuCtxGetCurrent returned NULL context"}},
      {"rendezvous.deepspeed-slot-not-in-hostfile", {"No slot 2 specificied on host work1"}},
      {"rendezvous.ray-placement-bundle-invalid",
       {"ValueError: placement group bundle index 6 is invalid. Valid placement group indexes: 0-4"}},
      {"other.horovodrun-unknown-mpi", {"Unknown MPI implementation given in output of mpirun --version:"}},
      {"version-mismatch.mpi-without-cuda-touches-gpu-memory",
       {"[nefgpu11:192395] Signal code: Invalid permissions (2)"}},
      {"version-mismatch.nccl-header-older-than-code",
       {"alltoall.cu(69): error: identifier \"ncclSend\" is undefined",
        "common.cu:120:5: error: 'ncclCommSplit' was not declared in this scope"}},
      {"version-mismatch.cuda-toolkit-older-than-code",
       {"common.cu(542): error: identifier \"cudaStreamCaptureModeThreadLocal\" is undefined"}},
      {"p2p.mxnet-no-peer-access",
       {"src/kvstore/././comm.h:290: only 0 out of 12 GPU pairs are enabled direct access. It may affect the "
        "perofmrance. You can set MXNET_ENABLE_GPU_P2P=0 to turn it off"}},
      {"network-interface.resolver-service-not-found",
       {"[coro_rpc_client.hpp:579] client_id 1 async_resolve failed:Service not found"}},
      {"network-interface.resolver-host-not-found",
       {"E20251112 17:02:55.861567 33158 tcp_transport.cpp:480] TcpTransport::startTransfer encountered an ASIO "
        "exception. Slice details - source_addr: 0x12d11ac40000, length: 32768, opcode: 0, target_id: 1. Exception: "
        "resolve: Host not found (authoritative)"}},
      {"other.flashinfer-workspace-across-nodes",
       {"(Worker_TP8_EP8 pid=2019) WARNING 08-13 11:11:59 [flashinfer_all_reduce.py:85] Failed to initialize "
        "FlashInfer All Reduce workspace: [fd_exchange] timed out connecting to "
        "/tmp/cuda_fd_xchg_2226_0_2unnfod0/fd.sock."}},
      {"other.nccl-plugin-path-wrapped",
       {"rtptest1621:268329:272115 [5] NCCL INFO PROFILER/Plugin: Could not find: "
        "libnccl-profiler-./libnccl_example_profiler_plugin.so.so."}},
  };
  return table;
}

TEST(DoctorHpcStackMessages, EachMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(hpcStackMessages(), 18));
}

// Every NCCL without a network plugin says it could not find the default one; only a wrapped path is the bug.
TEST(DoctorHpcStackMessages, TheDefaultPluginNotFoundIsNoDiagnosis) {
  EXPECT_NE(topRule("node1:1234:1250 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal "
                    "network plugin.\n"),
            "other.nccl-plugin-path-wrapped");
  EXPECT_NE(topRule("node1:1234:1250 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net-aws.so.\n"),
            "other.nccl-plugin-path-wrapped");
}

// An 'Invalid permissions' crash is only a guess at its cause: a rule that names the cause on its own line ranks
// above it.
TEST(DoctorHpcStackMessages, AnInvalidPermissionsCrashRanksBelowANamedCause) {
  EXPECT_EQ(topRule("[n1:17] Signal code: Invalid permissions (2)\n"
                    "The call to cuIpcGetMemHandle failed. This means the GPU RDMA protocol\n"),
            "p2p.mpi-cuda-ipc-failed");
}

}  // namespace
}  // namespace pf::doctor
