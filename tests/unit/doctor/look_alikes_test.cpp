// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Look-alikes: a symptom word that usually means one cause but, in the program that printed it, means another.
// "out of memory" is the GPU's when cudaMalloc fails, the host's when NCCL's cudaHostAlloc of pinned buffers fails
// (include/alloc.h prints CUDA's words first, then "Failed to CUDA host alloc"); Python's MemoryError is the
// host's, torch's OutOfMemoryError the GPU's; ROCm says "HIP" where CUDA says "CUDA". And a framework that refuses a
// feature because the NCCL it loaded is too old says so in its own words (XLA, PaddlePaddle, OneFlow, extensions).
// A CUDA error inside NCCL's kernel launch (enqueue.cc) is NCCL's fit to the driver or framework, not the program's.
// Gloo, PyTorch's CPU backend, words a dropped or unreachable peer its own way.
// Each line is laid out as its program prints it (read in that program's source), not taken from a corpus case.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

bool lookAlikeListed(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

/// The first two diagnoses of `log` in the report's order: the look-alike's reading, then the one it is taken for.
std::vector<std::string> firstTwo(const std::string& log) {
  auto ids = rankedRuleIds(log);
  ids.resize(std::min<std::size_t>(ids.size(), 2));
  return ids;
}

TEST(DoctorLookAlikes, PinnedHostAllocationIsTheHostsMemoryNotTheGpus) {
  const std::string log =
      "n1:77:90 [0] include/alloc.h:99 NCCL WARN Cuda failure 'out of memory'\n"
      "n1:77:90 [0] include/alloc.h:102 NCCL WARN Failed to CUDA host alloc 4923392 bytes\n"
      "n1:77:90 [0] NCCL INFO transport/net.cc:688 -> 1\n";
  const auto ids = rankedRuleIds(log);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "resource-limits.pinned-host-memory");
  // One failure, one cause: neither the GPU's out-of-memory nor the generic host rule also claims it.
  EXPECT_FALSE(lookAlikeListed(ids, "cuda.out-of-memory"));
  EXPECT_FALSE(lookAlikeListed(ids, "resource-limits.host-memory"));
  // The GPU's own allocation failure stays the GPU's.
  EXPECT_EQ(topRule("n1:77:90 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n"
                    "n1:77:90 [0] include/alloc.h:55 NCCL WARN Failed to CUDA calloc 8388608 bytes\n"),
            "cuda.out-of-memory");
}

TEST(DoctorLookAlikes, TorchsOutOfMemoryErrorIsNotPythonsMemoryError) {
  const auto gpu = rankedRuleIds(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 "
      "GiB of which 1.20 GiB is free.\n");
  ASSERT_FALSE(gpu.empty());
  EXPECT_EQ(gpu.front(), "cuda.out-of-memory");
  EXPECT_FALSE(lookAlikeListed(gpu, "resource-limits.host-memory"));
  EXPECT_EQ(topRule("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\nMemoryError\n"),
            "resource-limits.host-memory");
}

TEST(DoctorLookAlikes, RocmsOutOfMemoryIsTheGpus) {
  EXPECT_EQ(topRule("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total "
                    "capacity of 191.98 GiB\n"),
            "cuda.out-of-memory");
  EXPECT_EQ(topRule("RuntimeError: HIP error: out of memory\n"), "cuda.out-of-memory");
  // RCCL's CUCHECK: "HIP failure '%s' at %s:%d" with hipGetErrorString.
  EXPECT_EQ(topRule("n1:5:5 [0] NCCL WARN HIP failure 'out of memory' at src/allocator.cc:88\n"), "cuda.out-of-memory");
}

TEST(DoctorLookAlikes, FrameworksSayTheirNcclIsTooOldInTheirOwnWords) {
  const char* const lines[] = {
      // XLA (xla/service/gpu/runtime/nccl_communicator.cc), built against an NCCL older than 2.19.
      "jaxlib.xla_extension.XlaRuntimeError: UNIMPLEMENTED: NCCL version does not support ncclCommRegister",
      // PaddlePaddle's send/recv kernels.
      "(Unavailable) PaddlePaddle should be compiled with NCCL and NCCL version >= 2.7.3 is needed.",
      // OneFlow's send/recv kernels.
      "F0312 10:00:00.000000 1234 recv_kernel.cpp:80] GPU recv is only supported when nccl version >= 2.7",
      // PyTorch's symmetric-memory bindings and extensions that split communicators.
      "RuntimeError: NCCLSymmComm requires NCCL >= 2.28.0, but found 2.27.3. Please upgrade NCCL to use "
      "NCCLSymmComm bindings.",
      "RuntimeError: bulk_create_comms_split requires NCCL >= 2.18.  Current NCCL version does not support "
      "ncclCommSplit.",
  };
  for (const char* line : lines)
    EXPECT_EQ(topRule(std::string(line) + "\n"), "version-mismatch.nccl-too-old-for-torch") << line;
}

TEST(DoctorLookAlikes, GloosOwnWordsForADroppedOrUnreachablePeer) {
  // gloo/transport/tcp/pair.cc: a peer that went away, and a connect to an address no one listens on.
  EXPECT_EQ(topRule("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
                    "[10.0.0.2]:53467\n"),
            "network-interface.remote-exited-or-network");
  EXPECT_EQ(topRule("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.1.2.3]:45617: "
                    "Connection refused\n"),
            "network-interface.unreachable-or-refused");
  // Refused at Debian's 127.0.1.1: the peer's host name resolves to loopback, which names the cause.
  EXPECT_EQ(topRule("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [127.0.1.1]:45617: "
                    "Connection refused\n"),
            "network-interface.hostname-is-loopback");
  // The same connect timing out or finding no route, and the full-mesh connect that c10d's Gloo backend runs first.
  EXPECT_EQ(topRule("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.1.2.3]:45617: "
                    "No route to host\n"),
            "network-interface.unreachable-or-refused");
  EXPECT_EQ(
      topRule("RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] "
              "no error\n"),
      "network-interface.unreachable-or-refused");
}

TEST(DoctorLookAlikes, ARefusedKernelLaunchInNcclIsNotTheProgramsCudaError) {
  // enqueue.cc sets NCCL's kernels' launch attributes and launches them; the user's code never reaches these calls.
  const auto ids = rankedRuleIds(
      "gpu1:412:412 [2] enqueue.cc:1123 NCCL WARN Cuda failure 'invalid resource handle'\n"
      "gpu1:412:412 [2] NCCL INFO group.cc:242 -> 1\n"
      "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n");
  ASSERT_GE(ids.size(), 2U);
  EXPECT_EQ(ids[0], "version-mismatch.launch-refused");
  EXPECT_EQ(ids[1], "cuda.unhandled-cuda-error");
  // Elsewhere in NCCL the same words stay the generic CUDA failure.
  EXPECT_EQ(topRule("gpu1:412:412 [2] proxy.cc:901 NCCL WARN Cuda failure 'invalid argument'\n"),
            "cuda.unhandled-cuda-error");
}

TEST(DoctorLookAlikes, NeighbouringProgramsNameTheLimitInTheirOwnWords) {
  // Open MPI's openib BTL help text (help-mpi-btl-openib.txt) for a registration that hit RLIMIT_MEMLOCK.
  EXPECT_EQ(topRule("The OpenFabrics (openib) BTL failed to initialize while trying to\n"
                    "allocate some locked memory.  This typically can indicate that the\n"
                    "memlock limits are set too low.  For most HPC installations, the\n"),
            "resource-limits.memlock-reg-mr");
  // torch elastic's agent (elastic/agent/server/api.py) logs the first failure with its exit code: -9 is SIGKILL.
  EXPECT_EQ(topRule("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: "
                    "1234) of binary: /usr/bin/python3\n"),
            "resource-limits.killed-sigkill");
}

TEST(DoctorLookAlikes, PcieP2pUnavailableIsNotAnNvlinkFault) {
  // graph/paths.cc: for an NVLink pair whose P2P NVML reports broken NCCL WARNs and fails; for a PCIe pair it prints an
  // INFO line naming the same variable and goes on through SHM or the network.
  EXPECT_EQ(
      topRule("h:4:8 [0] graph/paths.cc:334 NCCL WARN P2P is disabled between NVLINK connected GPUs 1 and 0. This "
              "should not be the case given their connectivity, and is probably due to a hardware issue. If you "
              "still want to proceed, you can set NCCL_IGNORE_DISABLED_P2P=1.\n"),
      "p2p.nvlink-p2p-disabled");
  const std::string pcie =
      "h:4:8 [0] NCCL INFO P2P is disabled between connected GPUs 1 and 0. You can repress this message with "
      "NCCL_IGNORE_DISABLED_P2P=1.\n"
      "h:4:8 [0] NCCL INFO Channel 00 : 0[1b000] -> 1[1c000] via SHM/direct/direct\n";
  EXPECT_TRUE(rankedRuleIds(pcie).empty());
  // What fails after it is the transport NCCL used instead: a SIGBUS there is /dev/shm.
  EXPECT_EQ(topRule(pcie + "Bus error (core dumped)\n"), "shm.bus-error");
}

TEST(DoctorLookAlikes, OutOfMemoryOnNvlsMulticastIsTheSwitchsPoolNotTheGpu) {
  // transport/nvls.cc: the multicast bind's WARN carries CUDA's words for CUDA_ERROR_OUT_OF_MEMORY.
  const auto ids = rankedRuleIds(
      "h:9:21 [3] transport/nvls.cc:376 NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory of size "
      "2097152 : CUDA error 2 'out of memory'.\n"
      "This is usually caused by a system or configuration error in the Fabric Manager or NVSwitches.\n"
      "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, unhandled cuda error, NCCL version "
      "2.29.7\n");
  EXPECT_EQ(std::vector<std::string>(ids.begin(), ids.begin() + std::min<std::size_t>(ids.size(), 2)),
            (std::vector<std::string>{"resource-limits.nvls-multicast-exhausted", "other.nvls-fabric"}));
  EXPECT_FALSE(lookAlikeListed(ids, "cuda.out-of-memory"));
  // The same bind failing with another error stays the fabric's state.
  EXPECT_EQ(topRule("h:9:21 [3] transport/nvls.cc:376 NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory "
                    "of size 2097152 : CUDA error 401 'the operation cannot be performed in the present state'.\n"),
            "other.nvls-fabric");
}

TEST(DoctorLookAlikes, TheRemoteAllocatorsOutOfMemoryIsNotAFullGpu) {
  // NCCL 2.8.3-2.12.5 bootstrap.cc: the remote allocator's request fails after its peer's connection closed.
  const auto ids = rankedRuleIds(
      "h:39:298 [0] include/socket.h:423 NCCL WARN Net : Connection closed by remote peer 10.0.0.4<52638>\n"
      "h:39:298 [0] bootstrap.cc:275 NCCL WARN [Rem Allocator] Allocation failed (segment 0, fd 130)\n"
      "h:39:298 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "other.nccl-remote-allocator");
  EXPECT_FALSE(lookAlikeListed(ids, "cuda.out-of-memory"));
}

TEST(DoctorLookAlikes, AVerbsProviderOfAnotherRdmaCoreIsAVersionMismatch) {
  // The dynamic linker's words when a provider (libefa, libmlx5) needs libibverbs' private ABI of its own release;
  // NCCL prints them as its net plugin's load error.
  const auto ids = rankedRuleIds(
      "h:5:5 [0] NCCL INFO NET/Plugin: libnccl-net-ofi.so: /opt/hpcx/lib/libibverbs.so.1: version "
      "`IBVERBS_PRIVATE_34' not found (required by /usr/lib/x86_64-linux-gnu/libefa.so.1)\n");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "version-mismatch.rdma-core-mixed");
}

TEST(DoctorLookAlikes, ABusErrorInOtherProgramsWords) {
  // UCX's and HPC-X's signal handler, torch's DataLoader, Open MPI's mpirun and torch elastic's summary.
  const char* const lines[] = {
      "[node1:1    :0:381] Caught signal 7 (Bus error: nonexistent physical address)",
      "RuntimeError: DataLoader worker (pid 4321) is killed by signal: Bus error. It is possible that dataloader's "
      "workers are out of shared memory.",
      "mpirun noticed that process rank 3 with PID 0 on node n1 exited on signal 7 (Bus error).",
      "traceback : Signal 7 (SIGBUS) received by PID 4321",
      // Python's subprocess.CalledProcessError, as torch.distributed.launch and other launchers raise it.
      "subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', 'train.py']' died with <Signals.SIGBUS: 7>.",
  };
  for (const char* line : lines) EXPECT_EQ(topRule(std::string(line) + "\n"), "shm.bus-error") << line;
  EXPECT_EQ(topRule("mpirun noticed that process rank 3 with PID 0 on node n1 exited on signal 9 (Killed).\n"),
            "resource-limits.killed-sigkill");
}

TEST(DoctorLookAlikes, NcclsOwnVersionChecksAreVersionMismatches) {
  // A device-unpack net plugin of another release (plugin/net.cc); dev_runtime.cc: headers of another release than
  // the library. NCCL's INFO about plugin symbols it did not find is printed by healthy jobs too (startup_logs_test).
  EXPECT_EQ(topRule("h:5:5 [0] net.cc:120 NCCL WARN NCCL_DEVICE_UNPACK plugin has incompatible version 5, this NCCL "
                    "build is compatible with 7, not using it\n"),
            "version-mismatch.net-plugin-incompatible");
  EXPECT_EQ(topRule("h:5:5 [0] dev_runtime.cc:1428 NCCL WARN NCCL library is too old. This application was "
                    "compiled with NCCL version 2.29.2, but is running with NCCL 2.28.3\n"),
            "version-mismatch.nccl-header-library-differ");
  EXPECT_EQ(topRule("h:5:5 [0] enqueue.cc:2820 NCCL WARN One-sided RMA requires CUDA driver 12.5 or later (found "
                    "12.2).\n"),
            "version-mismatch.driver-too-old");
}

TEST(DoctorLookAlikes, NvlsNotSupportedIsAMinimumNotTheFabricsState) {
  // CUDA error 801 (CUDA_ERROR_NOT_SUPPORTED) on NCCL's multicast set-up: the driver or platform lacks the feature.
  EXPECT_EQ(firstTwo("h:9:21 [0] transport/nvls.cc:150 NCCL WARN Cuda failure 801 'operation not supported'\n"),
            (std::vector<std::string>{"version-mismatch.nvls-not-supported", "other.nvls-fabric"}));
  // 'invalid argument' there stays the fabric's state first.
  EXPECT_EQ(topRule("h:9:21 [0] transport/nvls.cc:158 NCCL WARN Cuda failure 1 'invalid argument'\n"),
            "other.nvls-fabric");
}

TEST(DoctorLookAlikes, NeighbouringLibrariesWordsForTheirOwnFailures) {
  // Gloo's receive check (gloo/transport/tcp/pair.cc): the ranks run collectives of different sizes.
  EXPECT_EQ(topRule("RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/pair.cc:446] "
                    "op.preamble.length <= op.nbytes. 8 vs 4\n"),
            "timeout-hang.c10d-collective-mismatch");
  // Open MPI's help text when MPI_Init cannot wire the processes up (nccl-tests and Horovod start through it).
  EXPECT_EQ(topRule("It looks like MPI_INIT failed for some reason; your parallel process is\n"
                    "likely to abort.  There are many reasons that a parallel process can\n"),
            "rendezvous.mpi-init-failed");
}

TEST(DoctorLookAlikes, NumberedCudaFailuresAreTheSameErrors) {
  // include/cudawrap.h since NCCL 2.19: CUCHECK (the driver API: cuMemCreate of NCCL's buffers...) prints the number.
  EXPECT_EQ(topRule("h:1:2 [0] include/alloc.h:121 NCCL WARN Cuda failure 2 'out of memory'\n"), "cuda.out-of-memory");
  EXPECT_EQ(topRule("h:1:2 [0] misc/cudawrap.cc:90 NCCL WARN Cuda failure 3 'initialization error'\n"),
            "cuda.initialization-error");
  EXPECT_EQ(topRule("h:1:2 [0] init.cc:400 NCCL WARN Cuda failure 101 'invalid device ordinal'\n"),
            "cuda.invalid-device-ordinal");
  EXPECT_EQ(topRule("h:1:2 [0] proxy.cc:700 NCCL WARN Cuda failure 999 'unknown error'\n"), "cuda.unknown-error");
}

}  // namespace
}  // namespace pf::doctor
