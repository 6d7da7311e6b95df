// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Rules written from the messages PyTorch's distributed stack raises or logs, read in its source
// (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, NCCLUtils.hpp, socket.cpp, TCPStore.cpp, distributed_c10d.py,
// torch/distributed/elastic/), not from a corpus case. Each line is laid out as PyTorch prints it; each test checks
// the cause the source around the message names.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::topRule;

struct TorchCase {
  const char* line;
  const char* rule;
};

const TorchCase kTorchCases[] = {
    {"[rank3]:[E109 22:46:25.933527530 ProcessGroupNCCL.cpp:1421] [Rank 3] monitoring thread detects no heartbeat and "
     "will finally kill the process! terminateProcessGroup_0 collectiveDebugInfoMode_0",
     "timeout-hang.watchdog-hung"},
    {"[rank3]:[E109 22:46:25.933527530 ProcessGroupNCCL.cpp:1520] [Rank 3] NCCL watchdog thread terminated with "
     "exception: unknown",
     "timeout-hang.aborted-after-timeout"},
    // The bind's errno names the cause more precisely than the failed bind or listen.
    {"[W1008 23:40:22.836678340 socket.cpp:426] [c10d] The server socket cannot be initialized on [::]:29500 (errno: "
     "99 - Cannot assign requested address).",
     "rendezvous.address-not-local"},
    {"[rank1]:[E109 22:46:25.933527530 ProcessGroupNCCL.cpp:812] [Rank 1] Work WorkNCCL(SeqNum=12, OpType=ALLREDUCE) "
     "timed out in blocking wait (NCCL_BLOCKING_WAIT=1).",
     "timeout-hang.watchdog-timeout"},
    {"[W1008 23:40:22.836678340 TCPStore.cpp:361] Timed out after 900 seconds waiting for clients. 7/8 clients joined.",
     "rendezvous.rendezvous-timeout"},
    {"[W1008 23:40:22.836678340 socket.cpp:462] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - "
     "Address already in use).",
     "rendezvous.port-in-use"},
    {"[W1008 23:40:22.836678340 socket.cpp:462] [c10d] The server socket has failed to listen on any local network "
     "address.",
     "rendezvous.store-server-cannot-listen"},
    {"RuntimeError: AVG requires NCCL 2.10+. The current version is 2.7", "version-mismatch.nccl-too-old-for-torch"},
    {"RuntimeError: ProcessGroupNCCL only supports send for NCCL lib version >= 2.7.0",
     "version-mismatch.nccl-too-old-for-torch"},
    {"RuntimeError: Distributed package doesn't have NCCL built in", "version-mismatch.torch-backend-not-built"},
    // PyTorch 0.4's THD backend, built without NCCL 2.
    {"RuntimeError: the distributed NCCL backend is not available; try to recompile the THD package with CUDA and "
     "NCCL 2+ support at torch/lib/THD/process_group/General.cpp:17",
     "version-mismatch.torch-backend-not-built"},
    // The caching allocator importing another process's expandable segment (CUDA IPC): no such syscall, or denied.
    {"Exception: Call to collective_rpc method failed: The kernel on this machine does not support the pidfd_getfd "
     "syscall needed to use IPC for CUDA tensors when expandable_segments:True is set.",
     "resource-limits.cuda-ipc-pidfd"},
    {"RuntimeError: pidfd_getfd: Operation not permitted", "resource-limits.cuda-ipc-pidfd"},
    // ProcessGroupNCCL's tensor check of PyTorch 1.x (DDP's first broadcast of a model still on the CPU).
    {"RuntimeError: Only CUDA dense tensor is supported for NCCL collective operations", "other.cpu-tensor-to-nccl"},
    {"ValueError: trying to initialize the default process group twice!", "other.program-misuse"},
    // The older wording of distributed_c10d.py's _check_default_pg (now "has not been initialized").
    {"AssertionError: Default process group is not initialized", "other.program-misuse"},
    {"RuntimeError: Tensors must be non-overlapping and dense", "other.program-misuse"},
    {"RuntimeError: Cannot use ReduceOp.BAND with NCCL", "other.program-misuse"},
    {"torch.distributed.elastic.rendezvous.dynamic_rendezvous: The node 'n3_1234_0' has failed to send a keep-alive "
     "heartbeat to the rendezvous 'job7' due to an error of type RendezvousConnectionError.",
     "rendezvous.cannot-reach-master"},  // the connection error it carries is the more specific cause
};

TEST(DoctorTorchMessages, EachMessageReachesTheCauseItsSourceNames) {
  for (const TorchCase& c : kTorchCases) EXPECT_EQ(topRule(std::string(c.line) + "\n"), c.rule) << c.line;
}

// transformers' and Accelerate's main_process_first(): the main process works alone (a dataset's tokenisation) while
// the others wait in a barrier bounded by the process group's timeout. A waiting rank's traceback passes through the
// context manager; the barrier's timeout is the consequence, not a network fault.
TEST(DoctorTorchMessages, ABarrierInMainProcessFirstIsTheRankWorkingAloneNotTheNetwork) {
  const std::string log =
      "Traceback (most recent call last):\n"
      "  File \"run_clm.py\", line 520, in main\n"
      "    with training_args.main_process_first(desc=\"dataset map tokenization\"):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/transformers/training_args.py\", line 2148, in "
      "main_process_first\n"
      "    dist.barrier()\n"
      "RuntimeError: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, "
      "NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800453 milliseconds before timing out.\n";
  const Analysis a = test::analyzeText(log);
  ASSERT_GE(a.diagnoses.size(), 2u);
  EXPECT_EQ(a.diagnoses[0].rule->id, "timeout-hang.main-process-first-barrier");
  EXPECT_EQ(a.diagnoses[1].rule->id, "timeout-hang.watchdog-timeout");
  ASSERT_NE(a.diagnoses[1].consequenceOf, nullptr);
  EXPECT_EQ(a.diagnoses[1].consequenceOf->id, "timeout-hang.main-process-first-barrier");
  // Without the context manager in the stack, the same timeout names no such cause.
  EXPECT_FALSE(test::diagnoses("with training_args.world_size:\n", "timeout-hang.main-process-first-barrier"));
}

// A hung process's stack stopped in NCCL's teardown: gdb's form (a thread joining NCCL's proxy thread inside
// ncclCommAbort) and lldb's (PyTorch's abort waiting for it). The hang is why the job does not exit; the failure
// before it is the cause, so an error in the same log ranks first.
TEST(DoctorTorchMessages, AStackWaitingInNcclAbortIsAHangInTeardown) {
  const std::string gdb =
      "#0  0x00007fc349513d2d in __GI___pthread_timedjoin_ex (threadid=140471077381888, thread_return=0x0) at "
      "pthread_join_common.c:89\n"
      "#1  0x00007fc204d33e27 in commReclaim(ncclComm*) () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
      "#2  0x00007fc204d345fd in ncclCommAbort () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n";
  EXPECT_EQ(topRule(gdb), "other.hang-in-comm-abort");
  const std::string lldb =
      "  thread #16, name = 'python', stop reason = signal SIGSTOP\n"
      "    frame #2: 0x00007fb090db0b85 libtorch_cuda.so`c10d::ProcessGroupNCCL::waitForFutureOrTimeout(std::future<"
      "bool>&) + 725\n"
      "    frame #3: 0x00007fb090db1068 libtorch_cuda.so`c10d::ProcessGroupNCCL::abort() + 664\n";
  EXPECT_EQ(topRule(lldb), "other.hang-in-comm-abort");
  // An abort named in prose, with no waiting thread's frame, is not a stack of a hang.
  EXPECT_FALSE(
      test::diagnoses("[rank0]: calling ncclCommAbort on communicator 0x5611a0d0\n", "other.hang-in-comm-abort"));
  // The timeout that made the job abort comes first; the hang in abort is its consequence.
  const auto ranked = test::rankedRuleIds(test::watchdogTimeoutLine(1) + "\n" + lldb);
  ASSERT_GE(ranked.size(), 2u);
  EXPECT_EQ(ranked[0], "timeout-hang.watchdog-timeout");
  EXPECT_NE(std::find(ranked.begin(), ranked.end(), "other.hang-in-comm-abort"), ranked.end());
}

TEST(DoctorTorchMessages, ATorchWithoutNcclIsNamedWhenALogCollectorWrapsTheMessage) {
  // Ray's driver log wraps long lines: the message's head ends one line and its tail starts the next. The traceback
  // shows the raise with the string split in two literals.
  const std::string ray =
      "  (worker1, rank=0, pid=395293, ip=10.0.3.25)     raise\n"
      "  RuntimeError(\"Distributed package doesn't have NCCL \" \"built in\")\n"
      "  (worker1, rank=0, pid=395293, ip=10.0.3.25) RuntimeError: Distributed\n"
      "  package doesn't have NCCL built in\n";
  EXPECT_EQ(topRule(ray), "version-mismatch.torch-backend-not-built");
  EXPECT_EQ(topRule("RuntimeError(\"Distributed package doesn't have NCCL \" \"built in\")\n"),
            "version-mismatch.torch-backend-not-built");
}

// ProcessGroup's base class answers a collective its backend does not implement with "<ProcessGroup|Backend> <name>
// does not support <op>" (c10d/ProcessGroup.hpp, Backend.hpp); older releases' string had no space after the name.
// For the collectives libraries call (underscore and coalesced forms) on NCCL, that is a PyTorch older than the
// library; a public collective the backend lacks is the program's choice, and gloo lacks some in every release.
TEST(DoctorTorchMessages, ACollectiveTheNcclBackendLacksIsAVersionSkew) {
  EXPECT_EQ(topRule("RuntimeError: ProcessGroup nccldoes not support _reduce_scatter_base\n"),
            "version-mismatch.process-group-op-missing");
  EXPECT_EQ(topRule("RuntimeError: Backend nccl does not support allgather_into_tensor_coalesced\n"),
            "version-mismatch.process-group-op-missing");
  EXPECT_FALSE(test::diagnoses("RuntimeError: Backend gloo does not support reduce_scatter\n",
                               "version-mismatch.process-group-op-missing"));
  EXPECT_EQ(topRule("RuntimeError: ProcessGroup nccl does not support gather\n"), "other.program-misuse");
}

// torch.distributed.launch passes --local_rank before PyTorch 2.0 and --local-rank since; torchrun passes neither.
// A script that expects the other spelling stops in argparse on every rank, before any process group exists.
TEST(DoctorTorchMessages, TheLauncherAndTheScriptSpellTheLocalRankDifferently) {
  EXPECT_EQ(topRule("usage: train.py [-h] [--local_rank LOCAL_RANK]\n"
                    "train.py: error: unrecognized arguments: --local-rank=1\n"),
            "rendezvous.local-rank-argument");
  EXPECT_EQ(topRule("usage: main.py [-h] --local_rank LOCAL_RANK\n"
                    "main.py: error: the following arguments are required: --local_rank\n"),
            "rendezvous.local-rank-argument");
  // Another argument argparse does not know is the script's own business.
  EXPECT_FALSE(
      test::diagnoses("train.py: error: unrecognized arguments: --lr=0.1\n", "rendezvous.local-rank-argument"));
}

// A script that reads the launcher's variables itself (os.environ['RANK']) fails with a KeyError when it was started
// with plain python; another KeyError is the script's own.
TEST(DoctorTorchMessages, AScriptThatReadsTheLauncherEnvironmentItself) {
  EXPECT_EQ(topRule("  File \"basicsr/utils/dist_util.py\", line 22, in _init_dist_pytorch\n"
                    "    rank = int(os.environ['RANK'])\nKeyError: 'RANK'\n"),
            "rendezvous.env-not-set");
  EXPECT_EQ(topRule("KeyError: 'LOCAL_RANK'\n"), "rendezvous.env-not-set");
  EXPECT_FALSE(test::diagnoses("KeyError: 'RANKING'\n", "rendezvous.env-not-set"));
  EXPECT_FALSE(test::diagnoses("KeyError: 'state_dict'\n", "rendezvous.env-not-set"));
}

// DistributedDataParallel keeps the model as .module and forwards no other attribute, so code that reads a model's
// own field after wrapping works on one GPU and fails on several.
TEST(DoctorTorchMessages, AModelAttributeReadThroughTheDdpWrapper) {
  EXPECT_EQ(topRule("AttributeError: 'DistributedDataParallel' object has no attribute 'config'\n"),
            "other.program-misuse");
  EXPECT_FALSE(
      test::diagnoses("AttributeError: 'NoneType' object has no attribute 'config'\n", "other.program-misuse"));
}

// Which builds lack what: a PyTorch with no distributed package at all (Windows before 1.7), and a group whose only
// backend has no CUDA implementation (the program's choice, or a release that registered one wrongly).
TEST(DoctorTorchMessages, ABuildWithoutDistributedAndAGroupWithoutCuda) {
  EXPECT_EQ(topRule("    raise RuntimeError(\"PyTorch built without distributed support\")\n"
                    "RuntimeError: PyTorch built without distributed support\n"),
            "version-mismatch.torch-backend-not-built");
  EXPECT_EQ(topRule("RuntimeError: No backend type associated with device type cuda\n"), "other.program-misuse");
  EXPECT_EQ(topRule("RuntimeError: No backend type associated with device type cpu\n"), "other.cpu-tensor-to-nccl");
}

// torchelastic reports a worker's death by signal; SIGFPE is an integer division by zero (an empty tensor in gloo).
TEST(DoctorTorchMessages, AWorkerKilledByAFloatingPointException) {
  EXPECT_EQ(topRule("  exitcode  : -8 (pid: 98824)\n  error_file: <N/A>\n"
                    "  traceback : Signal 8 (SIGFPE) received by PID 98824\n"),
            "other.process-crashed");
  EXPECT_FALSE(test::diagnoses("  exitcode  : -80 (pid: 98824)\n", "other.process-crashed"));
}

// The first collective of a process group (sequence number 1) that never finished, and is no barrier: every rank was
// there, so the transfer itself hung (development cases a27-tistory9566 and a21-onlinerlhf22: peer-to-peer between
// PCIe GPUs). A barrier's one-element all-reduce keeps its own rule; NET/ lines (a multi-node job) and a later
// sequence number name no peer path.
TEST(DoctorTorchMessages, AFirstCollectiveThatNeverFinishedPointsAtTheGpuPath) {
  const std::string first =
      "[rank1]:[E1105 09:12:44.120 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=23592960, NumelOut=23592960, Timeout(ms)=600000) ran for 600081 "
      "milliseconds before timing out.\n";
  const Analysis a = test::analyzeText(first);
  ASSERT_GE(a.diagnoses.size(), 2u);
  EXPECT_EQ(a.diagnoses[0].rule->id, "p2p.first-collective-never-completed");
  EXPECT_EQ(a.diagnoses[1].rule->id, "timeout-hang.watchdog-timeout");
  // A blog's two-line form: the timeout on one line, the work on the next.
  EXPECT_EQ(topRule("Watchdog caught collective operation timeout:\nWorkNCCL(SeqNum=1, OpType=ALLREDUCE)\n"),
            "p2p.first-collective-never-completed");
  // A first one-element all-gather is no barrier.
  const std::string gather =
      "[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
      "OpType=ALLGATHER, NumelIn=1, NumelOut=3, Timeout(ms)=1800000) ran for 1800005 milliseconds before timing out.\n";
  EXPECT_EQ(topRule(gather), "p2p.first-collective-never-completed");
  EXPECT_FALSE(test::diagnoses(gather, "cuda.first-barrier-timeout"));
  const std::string barrier =
      "[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
      "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800005 milliseconds before timing out.\n";
  EXPECT_FALSE(test::diagnoses(barrier, "p2p.first-collective-never-completed"));
  EXPECT_TRUE(test::diagnoses(barrier, "cuda.first-barrier-timeout"));
  // NCCL's network transport in the log, read by the INFO extractor (a connection, the socket interface list) or a
  // network warning: the fact and the literals the rule's "unless" names.
  for (const char* net : {"node-a:2:40 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0\n",
                          "node-a:2:40 [0] NCCL INFO Channel 01/0 : 3[3] -> 11[3] [receive] via NET/Socket/1\n",
                          "node-a:2:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.7<0>\n",
                          "node-a:2:44 [0] NCCL WARN NET/Socket : message truncated : receiving 1024 bytes instead "
                          "of 8\n"})
    EXPECT_FALSE(test::diagnoses(net + first, "p2p.first-collective-never-completed")) << net;
  // Connections inside the node only: the rule still holds (after the single-node hang that P2P lines name).
  EXPECT_TRUE(test::diagnoses("node-a:2:40 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n" + first,
                              "p2p.first-collective-never-completed"));
  std::string later = first;
  later.replace(later.find("SeqNum=1,"), 9, "SeqNum=12,");
  EXPECT_FALSE(test::diagnoses(later, "p2p.first-collective-never-completed"));
}

// Development cases of the twenty-seventh batch: TensorPipe's RPC agent failing in cuInit (PyTorch 1.8.0 loading the
// stub driver, a27-pt52137; no visible GPU before TensorPipe handled it, a27-pt60578), and apex calling a
// torch.distributed function with an argument the installed PyTorch did not take yet (a27-apex115).
TEST(DoctorTorchMessages, RpcDriverInitAndACallerNewerThanTorch) {
  EXPECT_EQ(
      topRule("RuntimeError: In create at tensorpipe/common/cuda_lib.h:117 \"lib.init(0)(100) CUDA_ERROR_NO_DEVICE "
              "(no CUDA-capable device is detected)\"\n"),
      "other.tensorpipe-cuda-driver-init");
  EXPECT_EQ(topRule("In create at /pytorch/third_party/tensorpipe/tensorpipe/common/cuda_lib.h:105 \"res != "
                    "CUDA_SUCCESS\"\n"),
            "other.tensorpipe-cuda-driver-init");
  EXPECT_EQ(topRule("TypeError: get_world_size() takes 0 positional arguments but 1 was given\n"),
            "version-mismatch.python-api-skew");
}

}  // namespace
}  // namespace pf::doctor
