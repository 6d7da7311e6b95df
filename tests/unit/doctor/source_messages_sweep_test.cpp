// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The second to fifth sweeps of programs' own messages (docs/doctor-rules.md, "Rules from the programs' own
// messages"): each line synthetic, laid out as the program prints it, and checked to reach the rule its cause belongs
// to.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

// Every cudaError_t string that cudaGetErrorString returns, the dynamic loader's and Python's words for a stack whose
// versions do not go together, PyTorch's shared-memory files, tools people run beside the job (nvidia-smi,
// ibv_devinfo, modprobe, the Kubernetes scheduler), older NCCL releases' WARN strings and DDP's own checks.
TEST(DoctorSourceMessages, SecondSweepOfRuntimeLoaderAndToolMessages) {
  EXPECT_EQ(topRule("RuntimeError: CUDA error: device kernel image is invalid\n"),
            "version-mismatch.gpu-arch-not-built");
  EXPECT_EQ(topRule("RuntimeError: CUDA error: a PTX JIT compilation failed\n"), "version-mismatch.gpu-arch-not-built");
  EXPECT_EQ(topRule("RuntimeError: CUDA error: PTX JIT compiler library not found\n"),
            "version-mismatch.driver-runtime-combination");
  EXPECT_EQ(topRule("XlaRuntimeError: INTERNAL: CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available\n"),
            "version-mismatch.nccl-too-old-for-gpu");
  EXPECT_EQ(topRule("ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory\n"),
            "version-mismatch.shared-library-missing");
  EXPECT_EQ(topRule("python: error while loading shared libraries: libpython3.10.so.1.0: cannot open shared object "
                    "file: No such file or directory\n"),
            "version-mismatch.shared-library-missing");
  // libibverbs probing a provider it does not have prints the same dlerror on healthy nodes: no failure.
  EXPECT_TRUE(rankedRuleIds("libibverbs: Warning: couldn't load driver 'libi40iw-rdmav34.so': libi40iw-rdmav34.so: "
                            "cannot open shared object file: No such file or directory\n")
                  .empty());
  EXPECT_EQ(topRule("AttributeError: module 'torch.distributed' has no attribute 'init_device_mesh'\n"),
            "version-mismatch.python-api-skew");
  EXPECT_EQ(topRule("TypeError: init_process_group() got an unexpected keyword argument 'device_id'\n"),
            "version-mismatch.python-api-skew");
  EXPECT_EQ(topRule("RuntimeError: unable to write to file </torch_2345_1298765_0>: No space left on device (28)\n"),
            "shm.torch-shared-file-full");
  // One line, one cause: the full disk's rule leaves PyTorch's shared-memory file to the shm rule.
  const auto ids =
      rankedRuleIds("RuntimeError: unable to write to file </torch_2345_1298765_0>: No space left on device (28)\n");
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "resource-limits.disk-full"), 0) << ids.size();
  EXPECT_EQ(topRule("RuntimeError: DataLoader worker (pid(s) 2345) exited unexpectedly\n"),
            "shm.dataloader-worker-died");
  EXPECT_EQ(topRule("RuntimeError: No CUDA GPUs are available\n"), "cuda.no-gpu");
  EXPECT_EQ(topRule("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
                    "latest NVIDIA driver is installed and running.\n"),
            "cuda.no-gpu");
  EXPECT_EQ(topRule("Failed to initialize NVML: Unknown Error\n"), "cuda.nvml-unavailable");
  EXPECT_EQ(topRule("ibv_devinfo: No IB devices found\n"), "ib-verbs.no-rdma-device");
  EXPECT_EQ(topRule("modprobe: FATAL: Module nvidia-peermem not found in directory /lib/modules/5.15.0-1030-aws\n"),
            "ib-verbs.gdr-disabled");
  EXPECT_EQ(topRule("  Warning  FailedScheduling  0/2 nodes are available: 2 Insufficient vpc.amazonaws.com/efa.\n"),
            "efa-libfabric.efa-resource-unavailable");
  EXPECT_EQ(topRule("RuntimeError: false INTERNAL ASSERT FAILED at \"/torch/csrc/cuda/nccl.cpp\":228, please report a "
                    "bug to PyTorch. NCCL COMM NONBLOCKING USED WITH UNSUPPORTED NCCL VERSION.\n"),
            "version-mismatch.nccl-too-old-for-torch");
  // Older NCCL releases' WARN strings (2.8 to 2.18) that later releases reworded or dropped.
  EXPECT_EQ(topRule("n1:1:1 [0] enqueue.cc:1110 NCCL WARN The installed CUDA driver is older than the minimum version "
                    "(R465) required for NCCL's CUDA Graphs support\n"),
            "version-mismatch.graph-capture-unsupported");
  EXPECT_EQ(topRule("n1:1:1 [0] misc/cudawrap.cc:64 NCCL WARN Failed to load CUDA missing symbol cuGetProcAddress\n"),
            "version-mismatch.driver-lacks-entry-point");
  EXPECT_EQ(topRule("n1:1:1 [0] graph/search.cc:1014 NCCL WARN Rank 3 requires NIC 2 but that NIC is not available for "
                    "rank 5\n"),
            "ib-verbs.net-device-count-differs");
  EXPECT_EQ(topRule("n1:1:1 [0] misc/cudawrap.cc:188 NCCL WARN Failed to find CUDA library libcuda.so "
                    "(NCCL_CUDA_PATH='') : libcuda.so: cannot open shared object file: No such file or directory\n"),
            "cuda.no-gpu");
  EXPECT_EQ(topRule("n1:1:1 [0] include/nvmlwrap.h:80 NCCL WARN NVML failure 'Unknown Error'\n"),
            "cuda.nvml-unavailable");
  // Open MPI's own words for a TCP peer it cannot place (several interfaces) and an RDMA device it cannot start, and
  // PyTorch's TCPStore asked for libuv in a build without it.
  EXPECT_EQ(
      topRule("WARNING: Open MPI accepted a TCP connection from what appears to be a another Open MPI process but "
              "cannot find a corresponding process entry for that peer.\n"),
      "network-interface.ompi-tcp-connect");
  EXPECT_EQ(topRule("WARNING: There was an error initializing an OpenFabrics device.\n"),
            "ib-verbs.device-not-openable");
  EXPECT_EQ(topRule("RuntimeError: use_libuv was requested but PyTorch was build without libuv support\n"),
            "version-mismatch.torch-backend-not-built");
  // The CUDA samples people run to check peer access: p2pBandwidthLatencyTest and simpleP2P saying "no".
  EXPECT_EQ(topRule("Device=0 CANNOT Access Peer Device=1\n"), "p2p.peer-access-unsupported");
  EXPECT_EQ(topRule("> Peer access from NVIDIA A100 (GPU0) -> NVIDIA A100 (GPU1) : No\n"),
            "p2p.peer-access-unsupported");
  EXPECT_TRUE(rankedRuleIds("> Peer access from NVIDIA A100 (GPU0) -> NVIDIA A100 (GPU1) : Yes\n"
                            "Device=0 CAN Access Peer Device=1\n")
                  .empty());
  // The NVIDIA kernel module's own words for a GPU it could not bring up, and for a user library of another version.
  EXPECT_EQ(topRule("[    5.123456] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"),
            "cuda.gpu-not-initialised");
  EXPECT_EQ(topRule("[   12.345678] NVRM: GPU 0000:3b:00.0: RmInitAdapter failed! (0x26:0x56:1474)\n"),
            "cuda.gpu-not-initialised");
  EXPECT_EQ(topRule("NVRM: API mismatch: the client has the version 535.104.05, but\nNVRM: this kernel module has the "
                    "version 535.86.10.  Please\n"),
            "version-mismatch.driver-runtime-combination");
  // The mlx5 driver's link and cable events, and a memory cgroup's OOM kill.
  EXPECT_EQ(
      topRule("[Tue Dec  2 10:11:12 2025] mlx5_core 0000:0c:00.0: Port module event: module 0, Cable unplugged\n"),
      "ib-verbs.nic-link-lost-kernel");
  EXPECT_EQ(topRule("[Tue Dec  2 10:11:12 2025] mlx5_core 0000:0c:00.0 ibp12s0: Link down\n"),
            "ib-verbs.nic-link-lost-kernel");
  EXPECT_TRUE(rankedRuleIds("mlx5_core 0000:0c:00.0: Port module event: module 0, Cable plugged\n").empty());
  EXPECT_EQ(topRule("Memory cgroup out of memory: Killed process 4242 (pt_main_thread) total-vm:10000kB\n"),
            "resource-limits.killed-sigkill");
  // TensorFlow's collective ops with workers of one group on different devices.
  EXPECT_EQ(topRule("InternalError: Device /job:worker/replica:0/task:1/device:GPU:0 is joining a group with "
                    "incompatible device type CPU (group_key=1)\n"),
            "other.program-misuse");
  // DDP's and c10d's checks of the program's own calls.
  for (const char* line :
       {"RuntimeError: Expected to mark a variable ready only once. This error is caused by one of the following "
        "reasons: 1) Use of a module parameter outside the `forward` function.\n",
        "RuntimeError: DDP expects same model across all ranks, but Rank 1 has 200 params, while rank 0 has "
        "inconsistent 201 params.\n",
        "RuntimeError: [1]: params[0] in this process with sizes [4096, 1024] appears not to match sizes of the same "
        "param in process 0.\n",
        "RuntimeError: Tensors must be on the same device\n",
        "ValueError: Tensor list input to scatter/gather must match number of collective participants\n",
        "RuntimeError: Default process group has not been initialized, please make sure to call init_process_group.\n"})
    EXPECT_EQ(topRule(line), "other.program-misuse") << line;
}

// NCCL binds its listening sockets to port 0 (misc/socket.cc, ncclSocketListen): its own "Call to bind failed" with
// EADDRINUSE, in the words of its SYSCHECK macro before and since 2.23, is a node out of free ports. PyTorch's store
// binding MASTER_PORT is the rendezvous port held by another job.
TEST(DoctorSourceMessages, NcclsOwnBindFailureIsPortExhaustionNotTheRendezvousPort) {
  for (const char* line : {"misc/socket.cc:409 NCCL WARN Call to bind failed: Address already in use\n",
                           "node1:77:90 [0] NCCL WARN Call to bind failed : Address already in use\n"})
    EXPECT_EQ(topRule(line), "resource-limits.ephemeral-ports-exhausted") << line;
  EXPECT_EQ(topRule("[W socket.cpp:464] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - "
                    "Address already in use).\n"),
            "rendezvous.port-in-use");
}

// NCCL 2.29 moved its socket and shared-memory calls to src/os/linux.cc, with new words for old failures, and its
// verbs wrappers' messages to include/ibvwrap.h; since
// 2.27 an NCCL_NET that names no loaded network reads "Failed to initialize any NET plugin".
TEST(DoctorSourceMessages, NcclOsLayerAndNetPluginMessages) {
  EXPECT_EQ(topRule("node1:1:2 [0] os/linux.cc:328 NCCL WARN ncclOsSocketPollConnect to 10.1.2.3<43211> failed with "
                    "error Connection refused\n"),
            "network-interface.unreachable-or-refused");
  EXPECT_EQ(topRule("node1:1:2 [0] os/linux.cc:362 NCCL WARN ncclOsSocketProgressOpt: Call to send to "
                    "10.1.2.3<43211> failed : Broken pipe\n"),
            "network-interface.remote-exited-or-network");
  EXPECT_EQ(topRule("node1:1:2 [0] os/linux.cc:780 NCCL WARN Error: failed to create shared memory file "
                    "/dev/shm/nccl-AbCdEf, error No space left on device (28)\n"),
            "shm.dev-shm-full");
  EXPECT_EQ(topRule("node1:1:2 [0] plugin/net.cc:349 NCCL WARN Failed to initialize any NET plugin\n"),
            "efa-libfabric.net-name-not-found");
  // The verbs wrappers moved to include/ibvwrap.h: their failures are the IB transport's.
  EXPECT_EQ(topRule("node1:1:2 [0] include/ibvwrap.h:120 NCCL WARN ibv_post_send() failed with error Cannot allocate "
                    "memory, Bad WR 0x7f00, First WR 0x7f00\n"),
            "ib-verbs.verbs-call-failed");
  EXPECT_EQ(topRule("node1:1:2 [0] NCCL WARN Call to ibv_poll_cq() returned -1\n"), "ib-verbs.verbs-call-failed");
  // When no network could start for want of an interface, the line before says so, and that is the cause.
  EXPECT_EQ(topRule("node1:1:2 [0] NCCL INFO NET/Socket : no interface found\n"
                    "node1:1:2 [0] plugin/net.cc:349 NCCL WARN Failed to initialize any NET plugin\n"),
            "network-interface.no-socket-interface");
}

// Other stacks' words for ranks that never joined: Horovod's stall inspector, JAX's coordination service at
// jax.distributed.initialize, UCX's unreachable peer under Open MPI.
TEST(DoctorSourceMessages, HorovodJaxAndUcxWordsForRanksThatNeverJoined) {
  EXPECT_EQ(topRule("[2026-01-01 10:00:00.000000: W horovod/common/stall_inspector.cc:105] One or more tensors were "
                    "submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder "
                    "of ranks for more than 60 seconds.\nMissing ranks:\n0: [allreduce.fc1.weight]\n"),
            "timeout-hang.horovod-stalled-ranks");
  EXPECT_EQ(topRule("jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: "
                    "PjRT_Client_Connect. Timed out task names:\n/job:jax_worker/replica:0/task:1\n"),
            "rendezvous.rendezvous-timeout");
  EXPECT_EQ(topRule("[node1:12345] pml_ucx.c:419  Error: ucp_ep_create(proc=3) failed: Destination is unreachable\n"),
            "network-interface.unreachable-or-refused");
}

// A fourth sweep, of the words other layers print for a known cause: Docker with no NVIDIA runtime hook and the
// container CLI on a node whose driver is not loaded (no GPU for the job), libibverbs' own warning that the
// locked-memory limit is low, a socket's ECONNABORTED, and two of NCCL's argument checks.
TEST(DoctorSourceMessages, ContainerRuntimeVerbsLimitAndAbortedConnectionWords) {
  EXPECT_EQ(topRule("docker: Error response from daemon: could not select device driver \"\" with capabilities: "
                    "[[gpu]].\n"),
            "cuda.no-gpu");
  EXPECT_EQ(topRule("nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown\n"),
            "cuda.no-gpu");
  EXPECT_EQ(topRule("libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes.\n    This will severely limit memory "
                    "registrations.\n"),
            "resource-limits.memlock-reg-mr");
  EXPECT_EQ(topRule("node3:2817:2901 [1] NCCL WARN Connect to 10.1.1.2<51234> failed : Software caused connection "
                    "abort\n"),
            "network-interface.remote-exited-or-network");
  // NCCL's argument checks (misc/argcheck.cc) that had no rule: a data type and a NULL buffer.
  EXPECT_EQ(topRule("node1:1:2 [0] misc/argcheck.cc:208 NCCL WARN AllReduce : invalid type 12\n"),
            "other.program-misuse");
  EXPECT_EQ(topRule("node1:1:2 [0] misc/argcheck.cc:32 NCCL WARN AllReduce : sendbuff argument is NULL\n"),
            "other.program-misuse");
}

// A fifth sweep, of what the build and load of a training stack print when its pieces come from different CUDA
// releases, of the GPU-generation checks of flash-attn and vLLM, of NVIDIA tools' status output and of c10d's own
// argument checks.
TEST(DoctorSourceMessages, BuildMismatchesGpuGenerationAndC10dChecks) {
  EXPECT_EQ(topRule("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your "
                    "driver to a newer version, or use an earlier cuda container: unknown.\n"),
            "version-mismatch.driver-too-old");
  EXPECT_EQ(topRule("RuntimeError: \nThe detected CUDA version (12.1) mismatches the version that was used to compile\n"
                    "PyTorch (11.8). Please make sure to use the same CUDA versions.\n"),
            "version-mismatch.cuda-build-mismatch");
  EXPECT_EQ(topRule("deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA "
                    "version 11.8 does not match the version torch was compiled with 12.1, unable to compile cuda/cpp "
                    "extensions without a matching cuda version.\n"),
            "version-mismatch.cuda-build-mismatch");
  // DeepSpeed accepts a minor-version difference and says so: not a failure.
  EXPECT_TRUE(rankedRuleIds("Installed CUDA version 12.2 does not match the version torch was compiled with 12.1 but "
                            "since the APIs are compatible, accepting this combination\n")
                  .empty());
  EXPECT_EQ(topRule("nvcc fatal   : Unsupported gpu architecture 'compute_90'\n"),
            "version-mismatch.cuda-build-mismatch");
  EXPECT_EQ(topRule("ImportError: /usr/local/lib/python3.10/dist-packages/nvidia/cusparse/lib/libcusparse.so.12: "
                    "undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12\n"),
            "version-mismatch.symbol-missing");
  EXPECT_EQ(topRule("ModuleNotFoundError: No module named 'torch._six'\n"), "version-mismatch.python-api-skew");
  EXPECT_EQ(topRule("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n"),
            "version-mismatch.gpu-too-old-for-kernel");
  EXPECT_EQ(topRule("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your "
                    "Tesla T4 GPU has compute capability 7.5.\n"),
            "version-mismatch.gpu-too-old-for-kernel");
  EXPECT_EQ(topRule("UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up "
                    "environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start.\n"),
            "cuda.unknown-error");
  EXPECT_EQ(topRule("RuntimeError: received 0 items of ancdata\n"), "resource-limits.too-many-open-files");
  EXPECT_EQ(topRule("GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-5d1c)\n\t Link 0: <inactive>\n\t Link 1: <inactive>\n"),
            "p2p.nvlink-inactive");
  // A weak sign: any failure the log names ranks first.
  EXPECT_EQ(topRule("\t Link 0: <inactive>\nnode1:1:2 [0] NCCL WARN Cuda failure 'peer access is not supported "
                    "between these two devices'\n"),
            "p2p.peer-access-unsupported");
  EXPECT_EQ(topRule("[rank1]:[E325 17:13:23.163175227 ProcessGroupGloo.cpp:145] Rank 1 successfully reached "
                    "monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please check rank "
                    "0 logs for faulty rank.\n"),
            "timeout-hang.monitored-barrier");
  EXPECT_EQ(topRule("RuntimeError: ProcessGroupNCCL does not support recvAnysource\n"), "other.program-misuse");
  EXPECT_EQ(topRule("ValueError: Invalid process group specified\n"), "other.program-misuse");
  EXPECT_EQ(
      topRule("TypeError: Invalid function argument. Expected parameter `tensor_list` of type List[torch.Tensor]\n"),
      "other.program-misuse");
  EXPECT_EQ(topRule("ValueError: Tensor list must be nonempty\n"), "other.program-misuse");
}

}  // namespace
}  // namespace pf::doctor
