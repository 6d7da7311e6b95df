// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Rules written from the messages that NCCL, PyTorch, CUDA, the network plugins and libraries (aws-ofi-nccl,
// libfabric, UCX), shells and the kernel print for a cause (NCCL's WARN strings in src/, NCCL's "file.cc:LINE -> CODE"
// call-chain lines, c10d's and torch elastic's exceptions, CUDA's error strings, IOMMU faults), read in the program
// that prints them rather than copied from a corpus case (some were first met in a development case). Each log line
// here is synthetic, laid out as the program prints it; each test checks that the message reaches the right cause,
// and that a rule of this kind ranks where the chain of events puts it (a call-chain origin after a named cause, an
// abort after its cause).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

TEST(DoctorSourceMessages, NcclWarnStringsNameTheirCause) {
  EXPECT_EQ(topRule("gpu3:811:902 [1] NCCL WARN failed to peer with device 0(=1b000): 217 peer access is not "
                    "supported between these two devices\n"),
            "p2p.peer-access-unsupported");  // the older, specific rule keeps the case it was written for
  EXPECT_EQ(topRule("gpu3:811:902 [1] NCCL WARN failed to peer with device 0(=1b000): 1 invalid argument\n"),
            "p2p.peer-setup-failed");
  EXPECT_EQ(topRule("n1:77:77 [0] NCCL WARN NET/Socket : No usable listening interface found\n"),
            "network-interface.no-listening-interface");
  EXPECT_EQ(topRule("n1:77:77 [0] NCCL WARN no device found matching exactly =ens9f0, verify NCCL_OOB_NET_IFNAME\n"),
            "network-interface.no-listening-interface");
  EXPECT_EQ(topRule("n1:77:77 [0] NCCL WARN Invalid NCCL_COMM_ID, please use format: <ipv4>:<port>\n"),
            "rendezvous.nccl-comm-id");
  EXPECT_EQ(topRule("n1:77:80 [0] NCCL WARN Bootstrap Root : rank 3 of 8 ranks has already checked in\n"),
            "rendezvous.ranks-disagree-on-world");
  EXPECT_EQ(topRule("n1:77:80 [0] NCCL WARN Multiple Ranks are using the same GPU/Partition. Set "
                    "NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this\n"),
            "cuda.duplicate-gpu");  // the newer wording of "Duplicate GPU detected"
  EXPECT_EQ(topRule("n1:77:80 [0] NCCL WARN Error : ring 1 does not loop back to start (3 != 0)\n"),
            "other.topology-search");
  EXPECT_EQ(topRule("n1:77:80 [0] NCCL WARN Trying to send to self without a matching recv\n"), "other.program-misuse");
  EXPECT_EQ(topRule("n1:77:80 [0] NCCL WARN socketPollConnect: connect returned Connection refused, exceeded error "
                    "retry count (35)\n"),
            "network-interface.socket-connect-retries");
}

TEST(DoctorSourceMessages, TheCallChainsOriginNamesTheTransport) {
  // NCCL_DEBUG=INFO prints each function that returns an error, innermost first; the innermost file is the origin.
  EXPECT_EQ(topRule("n1:1:1 [0] NCCL INFO transport/p2p.cc:274 -> 1\n"
                    "n1:1:1 [0] NCCL INFO transport.cc:165 -> 1\n"
                    "n1:1:1 [0] NCCL INFO init.cc:1222 -> 1\n"
                    "RuntimeError: NCCL error: unhandled cuda error\n"),
            "p2p.p2p-transport-origin");
  EXPECT_EQ(topRule("n1:1:1 [0] NCCL INFO include/shm.h:48 -> 2\n"
                    "n1:1:1 [0] NCCL INFO transport/shm.cc:101 -> 2\n"
                    "RuntimeError: NCCL error: unhandled system error\n"),
            "shm.shm-transport-origin");
  // A named cause outranks the origin it produced: the out-of-memory is the answer, the P2P chain its path.
  const auto ids = rankedRuleIds(
      "n1:1:1 [0] NCCL WARN Cuda failure 'out of memory'\n"
      "n1:1:1 [0] NCCL INFO transport/p2p.cc:274 -> 1\n");
  ASSERT_GE(ids.size(), 2u);
  EXPECT_EQ(ids[0], "cuda.out-of-memory");
  EXPECT_EQ(ids[1], "p2p.p2p-transport-origin");
  // "-> 0" is not a failure and the origin rules want the error code: a successful line says nothing.
  EXPECT_EQ(topRule("n1:1:1 [0] NCCL INFO transport/shm.cc:101 -> 0\n"), "(none)");
}

TEST(DoctorSourceMessages, KernelAndSystemMessages) {
  EXPECT_EQ(topRule("[  812.114] AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000e address=0x3b400000 flags=0x0020]\n"),
            "p2p.iommu-fault");
  EXPECT_EQ(topRule("[  93.01] DMAR: DRHD: handling fault status reg 2\n"), "p2p.iommu-fault");
  EXPECT_EQ(topRule("\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"),
            "p2p.acs-enabled");
  EXPECT_EQ(topRule("torch.distributed.elastic.multiprocessing.api: Signal 7 (SIGBUS) received by PID 4121\n"),
            "shm.bus-error");
  EXPECT_EQ(topRule("OSError: [Errno 28] No space left on device: '/ckpt/step_100.pt'\n"), "resource-limits.disk-full");
  // The same words under /dev/shm are the shm transport's, not a full disk.
  EXPECT_EQ(topRule("n1:1:1 [0] NCCL WARN Error: failed to extend /dev/shm/nccl-Qx to 9637892 bytes, "
                    "No space left on device\n"),
            "shm.dev-shm-full");
}

TEST(DoctorSourceMessages, CudaAndDriverMessages) {
  EXPECT_EQ(topRule("RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination\n"),
            "version-mismatch.driver-runtime-combination");
  EXPECT_EQ(topRule("Failed to initialize NVML: Driver/library version mismatch\n"),
            "version-mismatch.driver-runtime-combination");
  EXPECT_EQ(topRule("ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found "
                    "(required by /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so)\n"),
            "version-mismatch.glibc-abi");
  EXPECT_EQ(topRule("RuntimeError: CUDA error: device-side assert triggered\n"), "cuda.device-side-assert");
  EXPECT_EQ(topRule("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
                    "multiprocessing, you must use the 'spawn' start method\n"),
            "cuda.forked-cuda-init");
  EXPECT_EQ(topRule("RuntimeError: Tensors must be CUDA and dense\n"), "other.cpu-tensor-to-nccl");
  EXPECT_EQ(topRule("n1:1:1 [0] NCCL WARN Cuda failure 'CUDA driver is a stub library'\n"), "cuda.stub-driver");
  // The runtimes' names for "no code for this GPU" (CUDA's cudaError_t, HIP's hipError_t 209 and 218, which
  // hipamd prints as "Cannot retrieve Static function, error: N").
  EXPECT_EQ(topRule("RuntimeError: cudaErrorNoKernelImageForDevice\n"), "version-mismatch.nccl-too-old-for-gpu");
  EXPECT_EQ(topRule(":0:/src/hip_platform.cpp:110 : 301 us: Cannot retrieve Static function, error: 209\n"),
            "version-mismatch.nccl-too-old-for-gpu");
  EXPECT_EQ(topRule("hipErrorInvalidKernelFile\n"), "version-mismatch.nccl-too-old-for-gpu");
  // gdb's word for a process killed by SIGBUS, as people paste it from a hung job.
  EXPECT_EQ(topRule("Thread 7 \"python\" received signal SIGBUS, Bus error.\n"), "shm.bus-error");
}

TEST(DoctorSourceMessages, LaunchersAndRendezvous) {
  EXPECT_EQ(topRule("torch.distributed.DistNetworkError: Connection refused while connecting to node0:29500\n"),
            "rendezvous.store-connect-failed");
  EXPECT_EQ(topRule("torch.distributed.elastic.rendezvous.api.RendezvousClosedError\n"),
            "rendezvous.elastic-rendezvous-error");
  EXPECT_EQ(topRule("[W socket.cpp:426] [c10d] The server socket cannot be initialized on [::]:29500 (errno: 99 - "
                    "Cannot assign requested address).\n"),
            "rendezvous.address-not-local");
  EXPECT_EQ(
      topRule("node2: Permission denied (publickey,password).\npdsh@node1: node2: ssh exited with exit code 255\n"),
      "rendezvous.ssh-launch-failed");
  EXPECT_EQ(topRule("The application appears to have been direct launched using \"srun\",\n"
                    "but OMPI was not built with SLURM's PMI support and therefore cannot\n"),
            "rendezvous.mpi-pmi");
}

// Slurm's own words (slurmstepd, srun) and Kubernetes' pod status: what ended the job, in the scheduler's view.
TEST(DoctorSourceMessages, SchedulerMessages) {
  const std::string watchdog = test::watchdogTimeoutLine(3);
  const std::string timeLimit =
      "slurmstepd: error: *** JOB 4242 ON gpu-st-p4d-7 CANCELLED AT 2026-11-27T03:12:09 DUE TO TIME LIMIT ***\n";
  const std::pair<std::string, const char*> cases[] = {
      // An OOM kill on one node is why the others' collective timed out: it ranks first whatever the order.
      {watchdog + "slurmstepd: error: Detected 1 oom_kill event in StepId=4242.0. Some of the step tasks have been "
                  "OOM Killed.\n",
       "resource-limits.cgroup-oom-kill"},
      {"srun: error: gpu-st-p4d-7: task 5: Out Of Memory\n", "resource-limits.cgroup-oom-kill"},
      {"    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n",
       "resource-limits.cgroup-oom-kill"},
      {"srun: error: gpu-st-p4d-7: tasks 0-7: Killed\n", "resource-limits.killed-sigkill"},
      {"slurmstepd: error: *** STEP 4242.0 ON gpu-st-p4d-7 CANCELLED AT 2026-11-27T03:12:09 DUE TO NODE FAILURE ***\n",
       "other.slurm-node-failure"},
      {"slurmstepd: error: *** JOB 4242 ON gpu-st-p4d-7 CANCELLED AT 2026-11-27T03:12:09 DUE TO PREEMPTION ***\n",
       "other.slurm-preempted"},
      // The time limit is where any hang ends: alone it is the answer; beside a named cause or another consequence
      // (a dropped connection says more about the hang) it ranks after them.
      {timeLimit, "timeout-hang.slurm-time-limit"},
      {"n1:1:1 [0] NCCL WARN NET/Socket : Connection closed by remote peer\n" + timeLimit,
       "network-interface.remote-exited-or-network"},
      {"n1:1:1 [0] NCCL WARN Error: failed to extend /dev/shm/nccl-Qx to 9637892 bytes, No space left on device\n" +
           timeLimit,
       "shm.dev-shm-full"},
  };
  for (const auto& [log, rule] : cases) EXPECT_EQ(topRule(log), rule) << log;
}

TEST(DoctorSourceMessages, ASingleNodeHangOverPeerAccessPointsAtTheP2pPath) {
  const std::string p2p =
      "gpu1:100:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n"
      "gpu1:101:201 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/IPC/read\n";
  const std::string hang = test::watchdogTimeoutLine(0);
  EXPECT_EQ(topRule(p2p + hang), "p2p.single-node-hang");
  // Without the hang there is nothing to explain.
  EXPECT_EQ(topRule(p2p), "(none)");
  // One node's log of a multi-node job shows its network connections: not a single-node job.
  EXPECT_NE(topRule(p2p + "gpu1:100:200 [0] NCCL INFO Channel 00/0 : 2[0] -> 0[0] [receive] via NET/IB/0\n" + hang),
            "p2p.single-node-hang");
  // Two hosts, even with P2P only in the excerpt: not a single-node job either.
  EXPECT_NE(topRule(p2p + "gpu2:300:400 [0] NCCL INFO Channel 00/0 : 2[0] -> 3[1] via P2P/IPC/read\n" + hang),
            "p2p.single-node-hang");
}

TEST(DoctorSourceMessages, AnAbortRanksAfterTheFailureThatCausedIt) {
  // The watchdog's tear-down is the consequence; the completion error on the IB link is the cause.
  const auto ids = rankedRuleIds(
      "[rank1]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 1] NCCL communicator was aborted on rank 1.\n"
      "n2:5:9 [1] NCCL WARN NET/IB : Got completion from peer 10.0.0.1<39012> with error 12, opcode 0, len 0\n");
  ASSERT_GE(ids.size(), 2u);
  EXPECT_EQ(ids[0], "ib-verbs.completion-error-12-retry");
  const auto last = rankedRuleIds(
      "[rank1]: Some NCCL operations have failed or timed out. Due to the asynchronous nature "
      "of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n");
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last.front(), "timeout-hang.aborted-after-timeout");
}

// The aws-ofi-nccl plugin's own messages, and c10d's collective fingerprint check. A topology failure with the
// plugin loaded is the plugin's static topology file; the same failure without it stays NCCL's topology search.
TEST(DoctorSourceMessages, PluginAndC10dMessagesNameTheirCause) {
  const std::string plugin = "a1:281:281 [0] NCCL INFO NET/Plugin: Loaded net plugin AWS Libfabric (v7)\n";
  const std::string topo =
      "a1:2196:2275 [1] graph/xml.h:101 NCCL WARN Attribute vendor of node cpu not found\n"
      "a1:2196:2275 [1] NCCL INFO graph/topo.cc:493 -> 3\n";
  EXPECT_EQ(topRule(plugin + topo), "efa-libfabric.plugin-topology");
  EXPECT_NE(topRule(topo), "efa-libfabric.plugin-topology");
  EXPECT_EQ(topRule("p4:71:90 [2] ncclResult_t nccl_ofi_tuner_init_v2(size_t, size_t, ncclDebugLogger_t):211 NCCL WARN "
                    "NET/OFI The tuner plugin can not be loaded when explicitly choosing an algorithm or protocol "
                    "with NCCL_ALGO/NCCL_PROTO\n"
                    "p4:71:90 [2] NCCL INFO NET/OFI Selected provider is efa\n"),
            "version-mismatch.ofi-tuner");
  EXPECT_EQ(topRule("RuntimeError: Detected mismatch between collectives on ranks. Rank 2 is running collective: "
                    "CollectiveFingerPrint(SequenceNumber=12, OpType=ALLGATHER), but Rank 0 is running collective: "
                    "CollectiveFingerPrint(SequenceNumber=12, OpType=BARRIER).\n"),
            "timeout-hang.c10d-collective-mismatch");
  // NCCL's own mismatch messages keep their rule.
  EXPECT_EQ(topRule("init.cc:1247 NCCL WARN Mismatched collective detected, please check your collective calls at "
                    "and around rank 3.\n"),
            "other.mismatched-collective");
  // libfabric's own log line (FI_LOG_LEVEL=warn): libfabric:PID:TIME::PROVIDER:SUBSYSTEM:FUNCTION():LINE<warn>.
  EXPECT_EQ(topRule("libfabric:812:1700000000::efa:ep_ctrl:efa_rdm_ep_close():540<warn> Unable to close "
                    "endpoint\n"),
            "efa-libfabric.libfabric-provider-warning");
}

// A plugin error ("NCCL WARN NET/OFI ...") under an NVLS call-chain frame: the frame only says that NVLS set-up
// called the failing code, so the plugin's failure leads.
TEST(DoctorSourceMessages, PluginWarningsAndNvlsChainFrames) {
  const std::string ofi =
      "[1,14]<stdout>:w-1:24:66 [6] create_send_comm:5028 NCCL WARN NET/OFI Unable to insert remote address into "
      "address vector for device 6. RC: 0\n"
      "[1,14]<stdout>:w-1:24:66 [6] NCCL INFO transport/net.cc:690 -> 3\n"
      "[1,14]<stdout>:w-1:24:80 [6] NCCL INFO transport/nvls.cc:184 -> 3\n";
  EXPECT_EQ(topRule(ofi).rfind("efa-libfabric.", 0), 0u) << topRule(ofi);
  const std::vector<std::string> ids = rankedRuleIds(ofi);
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "other.nvls-fabric"), ids.end());
  // NCCL 2.2x's own NVLS message (src/transport/nvls.cc) names the Fabric Manager.
  EXPECT_EQ(topRule("Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152:\n"
                    "CUDA error 401 'the operation cannot be performed in the present state'.\n"
                    "This is usually caused by a system or configuration error in the Fabric Manager or NVSwitches.\n"),
            "other.nvls-fabric");
}

// aws-ofi-nccl's own warnings (NCCL_OFI_WARN prefixes "NET/OFI "): a GPU buffer the provider cannot register, the
// GPUDirect check of GDR instance types, and the plugin's libfabric version check. The plugin's registration message
// is EFA/libfabric, not verbs (NCCL's own IB transport prints ibv_reg_mr).
TEST(DoctorSourceMessages, AwsOfiNcclMessagesNameTheirCause) {
  EXPECT_EQ(topRule("p5:12:30 [0] register_mr_buffers:544 NCCL WARN NET/OFI Unable to register memory (type = 2) for "
                    "device 0. RC: -14, Error: Bad address\n"
                    "p5:12:30 [0] NCCL INFO transport/net.cc:800 -> 2\n"),
            "efa-libfabric.ofi-gpu-registration");
  EXPECT_EQ(topRule("p5:12:30 [0] NCCL WARN NET/OFI Couldn't register memory region with regattr. RC: -38, ERROR: "
                    "Function not implemented\n"),
            "efa-libfabric.ofi-gpu-registration");
  EXPECT_EQ(topRule("p5:12:30 [0] NCCL WARN NET/OFI Unable to register memory (type = 2) for device 0. RC: -22, "
                    "Error: Invalid argument\n"),
            "version-mismatch.ofi-register-einval");  // EINVAL keeps the older installer's rule
  EXPECT_EQ(topRule("p4d:12:30 [0] NCCL WARN NET/OFI GDR disabled on GDR-supported instance type p4d.24xlarge\n"),
            "efa-libfabric.ofi-gdr-not-configured");
  EXPECT_EQ(topRule("p4d:12:30 [0] NCCL WARN NET/OFI EFA provider requires at least libfabric version 1.22.0.\n"
                    "p4d:12:30 [0] NCCL INFO NET/Plugin: Failed to initialize net plugin\n"),
            "version-mismatch.ofi-libfabric-too-old");
  // libfabric's EFA status strings (prov/efa/src/efa_errno.h): a peer that never answered, and one that stopped.
  EXPECT_EQ(topRule("libfabric:45:17::efa:cq:efa_rdm_txe_handle_error():737<warn> err: 113, message: Unreachable "
                    "remote - never received a response (15)\n"
                    "p5:45:53 [4] NCCL WARN NET/OFI Request 0x7fbb94 completed with error. RC: 113. Error: No route "
                    "to host. Completed length: 0\n"),
            "efa-libfabric.efa-peer-unreachable");
  const std::vector<std::string> stopped = rankedRuleIds(
      "libfabric:45:17::efa:cq:efa_rdm_txe_handle_error():737<warn> err: 103, message: Unresponsive receiver "
      "(connection previously established) (4124)\n");
  EXPECT_NE(std::find(stopped.begin(), stopped.end(), "efa-libfabric.efa-peer-stopped-responding"), stopped.end());
  // The verbs path's own registration failure stays with ib-verbs.
  EXPECT_EQ(topRule("n1:7:9 [0] NCCL WARN Call to ibv_reg_mr failed with error Bad address\n"),
            "ib-verbs.gdr-registration-failed");
}

// UCX's shared-memory FIFO, a framework that cannot dlopen libnccl, NCCL's CUDA-graph messages, and the topology
// search's fallback, which NCCL survives (a WARN, then one channel in index order): it must not outrank a failure.
TEST(DoctorSourceMessages, UcxLoaderGraphCaptureAndSearchFallback) {
  EXPECT_EQ(topRule("[1716:0:1716] mm_iface.c:123 UCX  ERROR mm_iface failed to allocate receive FIFO\n"
                    "[ucp_address_unpack] Caught signal 11 (Segmentation fault)\n"),
            "shm.ucx-fifo-allocation");
  EXPECT_EQ(topRule("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: nccl_utils.cc:133: NCCL operation "
                    "ncclGetUniqueId(&id) failed: Unable to load NCCL library. Multi-GPU collectives will not work.\n"),
            "version-mismatch.nccl-not-loadable");
  EXPECT_EQ(
      topRule("ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\nNCCL cannot be "
              "captured in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA "
              "driver < R465.\n"),
      "version-mismatch.graph-capture-unsupported");
  EXPECT_EQ(topRule("Thread 1302975 (active): \"MainThread\"\n    sched_yield (libc.so.6)\n"
                    "    ncclLaunchKernelBefore_NoUncapturedCuda (enqueue.cc:968)\n    doLaunches (group.cc:161)\n"),
            "other.graph-mixing-deadlock");
  const std::string fallback =
      "h:1:2 [0] graph/search.cc:1135 NCCL WARN Could not find a path for pattern 4, falling back to simple order\n";
  EXPECT_EQ(topRule(fallback), "other.topology-search-fallback");
  EXPECT_EQ(topRule(fallback + "h:1:2 [0] NCCL WARN Error : ring 1 does not loop back to start (3 != 0)\n"),
            "other.topology-search");
  EXPECT_EQ(topRule(fallback + "h:1:2 [0] NCCL WARN Cuda failure 'out of memory'\n").rfind("cuda.", 0), 0u);
}

// bash's own message while fork keeps failing with EAGAIN: a process or thread limit, as for pthread_create.
TEST(DoctorSourceMessages, ForkRetryIsAProcessLimit) {
  EXPECT_EQ(topRule("-bash: fork: retry: No child processes\n"), "resource-limits.thread-create");
  EXPECT_EQ(topRule("/bin/sh: fork: retry: Resource temporarily unavailable\n"), "resource-limits.thread-create");
}

// ProcessGroupNCCL's wait for rank 0's unique id in the c10d store: rank 0 was late, stuck or dead. A consequence:
// rank 0's own failure, when the log has it, ranks first.
TEST(DoctorSourceMessages, WaitingForRankZerosNcclIdIsAConsequence) {
  const std::string wait =
      "[7] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', "
      "but store->get('0') got error: Socket Timeout\n";
  EXPECT_EQ(topRule(wait), "timeout-hang.rank0-late-for-nccl-init");
  EXPECT_EQ(topRule("[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n" + wait)
                .rfind("cuda.", 0),
            0u);
}

// ncclConfig_t fields left at NCCL_CONFIG_UNDEF_INT (INT_MIN) by a caller built against newer headers than the
// library loaded (src/init.cc "Invalid config %s attribute value %d"); a value the user set wrongly is misuse.
TEST(DoctorSourceMessages, AnUndefinedConfigFieldIsALibraryOlderThanItsCaller) {
  EXPECT_EQ(topRule("DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid "
                    "argument, NCCL version 2.14.3\nncclInvalidArgument: Invalid value for an argument.\nLast error:\n"
                    "Invalid config blocking attribute value -2147483648\n"),
            "version-mismatch.config-struct-layout");
  EXPECT_NE(topRule("n1:7:7 [0] NCCL WARN Invalid config blocking attribute value 5\n"),
            "version-mismatch.config-struct-layout");
}

}  // namespace
}  // namespace pf::doctor
