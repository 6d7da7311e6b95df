// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The tenth and eleventh sweeps of programs' own messages (docs/doctor-rules.md, "Rules from the programs' own
// messages"): PyTorch's C++ distributed layer, the transfer stack under disaggregated serving and expert parallelism
// (NIXL, UCX, Mooncake, DeepEP, NVSHMEM), Open MPI, PRRTE, PMIx and Slurm, the NVIDIA node stack (the kernel module,
// the container toolkit, the device plugin, DCGM), then Ray's core, Kubernetes and its training operators, and
// TensorFlow, read in their sources. Each line is laid out as the program prints it and must reach the rule its cause
// belongs to.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

const std::vector<test::RuleLines>& stackMessages() {
  static const std::vector<test::RuleLines> table = {
      {"other.program-misuse",
       {"RuntimeError: Expecting one tensor only but got multiple. You are probably using multiple devices under one "
        "thread.",
        "Parameter indices which did not receive grad for rank 1: 12 13",
        "RuntimeError: params[3] in this process with sizes [1024, 1024] appears not to match strides of the same "
        "param in process 0."}},
      {"cuda.buffer-on-other-device",
       {"torch.distributed.DistBackendError: Attempt to perform collective on tensor not on device passed to "
        "init_process_group"}},
      {"version-mismatch.torch-backend-not-built",
       {"torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built without libuv support,",
        "torch.distributed.DistStoreError: LibUV TCPStore implementation missing"}},
      {"version-mismatch.nccl-too-old-for-torch",
       {"RuntimeError: NCCL mem allocator is not supported in this NCCL version"}},
      {"timeout-hang.watchdog-timeout",
       {"[rank6]:[E703 21:51:54.112142364 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID 0(default_pg) Rank 6] Received a "
        "dump signal due to a collective timeout from ",
        "[rank2]:[E1109 16:13:20.222705810 ProcessGroupNCCL.cpp:1785] [PG ID 1 PG GUID 1 Rank 2] Work timeout is "
        "detected by watchdog at work: 500045,",
        "tensorflow.python.framework.errors_impl.DeadlineExceededError: Collective has timed out during execution.",
        "tensorflow.python.framework.errors_impl.DeadlineExceededError: Collective has timed out waiting for other "
        "workers."}},
      {"other.hang-in-comm-abort",
       {"torch.distributed.DistBackendError: [PG ID 0 PG GUID 0(default_pg) Rank 0] Future for ProcessGroup abort "
        "timed out after 600000"}},
      {"timeout-hang.moe-dispatch-timeout",
       {"RuntimeError: DeepEP error: CPU recv timeout",
        "RuntimeError: Dispatch CPU wait exception (/workspace/DeepEP/csrc/elastic/buffer.hpp:1063):",
        "Warning: DeepEP timeout for dispatch receive, rank 5, local_expert_idx 2, src_rank 13",
        "DeepEP timeout check failed: rank = 3, thread = 5, value = 1)",
        "DeepEP dispatch RDMA sender timeout, channel: 3, RDMA: 1, nvl: 2, dst RDMA lane:",
        "DeepEP NVLink barrier timeout, tag: 0, nvl: 3, thread: 5, status: 1, signal: 2, phase:",
        "DeepEP PP recv timeout, recv buffer is empty", "RuntimeError: DeepEP error: timeout (dispatch CPU)",
        "Warning: NIXL-EP timeout for dispatch receive, rank 3, local_expert_idx 5, src_rank 12",
        "Warning: NixlEP timeout for barrier, rank 3, thread 7, dst_rank 7, expected value 2, actual value 1"}},
      {"version-mismatch.nccl-header-library-differ",
       {"RuntimeError: Assertion exception (/workspace/DeepEP/csrc/kernels/backend/nccl.cu:104): NCCL_VERSION_CODE == "
        "nccl_runtime_version and \"Prior to NCCL 2.31, NCCL compile-time and runtime versions must be the same."}},
      {"ib-verbs.gdr-disabled",
       {"RuntimeError: Assertion exception (/workspace/DeepEP/csrc/kernels/backend/symmetric.hpp:59): flag and "
        "\"GPUDirect RDMA with CUDA VMM is not supported on this device\"",
        "[1724300000.123456] [node1:12345:0]          ib_md.c:1449 UCX  ERROR mlx5_0: Couldn't enable GPUDirect RDMA.",
        "[1724300000.123456] [node1:12345:0]         gdaki.c:297  UCX  DIAG  GDAKI not supported, please load Nvidia "
        "peermem driver",
        "E0822 10:11:12.123456  4242 rdma_context.cpp:1328] DMA BUF supported required for GPU RDMA without "
        "nvidia-peermem"}},
      {"resource-limits.cuda-ipc-pidfd",
       {"RuntimeError: Assertion exception (/workspace/DeepEP/csrc/kernels/backend/symmetric.hpp:230): pidfd >= 0 and "
        "\"`pidfd_open` failed\""}},
      {"version-mismatch.nccl-not-loadable",
       {"AssertionError: No libnccl.so found in /usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib/"}},
      {"ib-verbs.completion-error-10-remote-access",
       {"[1724300000.123456] [node1:12345:0]     ib_mlx5_log.c:179  UCX  ERROR Remote access error on"}},
      {"ib-verbs.completion-error-4-protection",
       {"[1724300000.123456] [node1:12345:0]     ib_mlx5_log.c:179  UCX  ERROR Local protection error on"}},
      {"ib-verbs.completion-error-5-flushed",
       {"[1724300000.123456] [node1:12345:0]     ib_mlx5_log.c:179  UCX  ERROR WR flushed because QP in error state"}},
      {"ib-verbs.completion-error-other",
       {"[1724300000.123456] [node1:12345:0]     ib_mlx5_log.c:179  UCX  ERROR Local access error on",
        "[1724300000.123456] [node1:12345:0]     ib_mlx5_log.c:179  UCX  ERROR Remote operation error on",
        "[1724300000.123456] [node1:12345:0]     ib_mlx5_log.c:179  UCX  ERROR Local length error on",
        "[1724300000.123456] [node1:12345:0]        ud_ep.c:296  UCX  FATAL UD endpoint 0x55d0c0a8 to <no debug data>: "
        "unhandled timeout error"}},
      {"ib-verbs.verbs-call-failed",
       {"[1724300000.123456] [node1:12345:0]          ib_md.c:316  UCX  ERROR ibv_reg_mr(address=0x7f2a00000000, "
        "length=2097152, access=0xf) failed: Invalid argument. Application is using HUGE pages. Please set environment "
        "variable RDMAV_HUGEPAGES_SAFE=1",
        "E0822 10:11:12.123456  4242 rdma_context.cpp:224] Failed to allocate new protection domain on device"}},
      {"ib-verbs.gid-lookup-failed",
       {"[1724300000.123456] [node1:12345:0]      ib_device.c:1199 UCX  ERROR failed to find a gid which "
        "matches/unmatches the following subnet list:",
        "[1724300000.123456] [node1:12345:0]      ib_device.c:953  UCX  ERROR ibv_query_gid(dev=mlx5_0 port=1 index=3) "
        "failed: Invalid argument",
        "W0822 10:11:12.123456  4242 rdma_context.cpp:1369] No suitable GID found on mlx5_0/1",
        "E0822 10:11:12.123456  4242 rdma_endpoint.cpp:1089] [Handshake] Invalid peer GID:"}},
      {"ib-verbs.modify-qp-gid",
       {"[1724300000.123456] [node1:12345:0]       rc_iface.c:943  UCX  ERROR error modifying QP to RTR:",
        "E0822 10:11:12.123456  4242 rdma_endpoint.cpp:1149] [Handshake] Failed to modify QP to INIT, check local "
        "context port num:",
        "E0822 10:11:12.123456  4242 rdma_endpoint.cpp:1228] [Handshake] Failed to modify QP to RTS:"}},
      {"p2p.ipc-handle",
       {"[1724300000.123456] [node1:12345:0] cuda_ipc_cache.c:288  UCX  ERROR cuIpcOpenMemHandle() failed:",
        "[1724300000.123456] [node1:12345:0] cuda_ipc_cache.c:757  UCX  FATAL cuda_ipc_remote_cache: failed to open "
        "ipc mem handle.",
        "The call to cuIpcOpenMemHandle failed. This is an unrecoverable error",
        "The call to cuIpcOpenEventHandle failed. This is a unrecoverable error and will",
        "The call to cuIpcGetEventHandle failed. This is a unrecoverable error and will"}},
      {"shm.dev-shm-full",
       {"[1724300000.123456] [node1:12345:0]       mm_posix.c:206  UCX  ERROR Not enough memory to write total of "
        "268435456 bytes. Please check that /dev/shm or the directory you specified has more available memory."}},
      {"shm.segment-create-failed",
       {"[1724300000.123456] [node1:12345:0]            sys.c:973  UCX  ERROR shmget(size=4294967296 flags=0x7b0) for "
        "mm_recv_desc failed: Cannot allocate memory, allocation size exceeds /proc/sys/kernel/shmmax",
        "A system call failed during sm BTL initialization that should",
        "A system call failed during shared memory initialization that should"}},
      {"resource-limits.too-many-open-files",
       {"[1724300000.123456] [node1:12345:0]           sock.c:46   UCX  ERROR socket create failed: the maximal number "
        "of files that could be opened simultaneously was reached,",
        "Error: system limit exceeded on number of files that can be open",
        "Too many workers, failed to create a file. Try setting `ulimit -n <num_files>` then restart Ray."}},
      {"resource-limits.thread-create", {"Error: system limit exceeded on number of processes that can be"}},
      {"ib-verbs.no-rdma-device",
       {"E0822 10:11:12.123456  4242 rdma_transport.cpp:1139] RdmaTransport: No available RNIC",
        "W0822 10:11:12.123456  4242 topology.cpp:201] No RDMA devices found, check your device installation"}},
      {"rendezvous.cannot-reach-master",
       {"E0822 10:11:12.123456  4242 transfer_metadata_plugin.cpp:454] EtcdStoragePlugin: unable to connect",
        "Failed to connect to GCS at address 10.0.0.1:6379 within 5 seconds.",
        "ConnectionError: Could not find any running Ray instance. Please specify the one to connect to"}},
      {"ib-verbs.nvshmem-ib-transport",
       {"/workspace/nvshmem/src/host/topo/topo.cpp:389: non-zero status: 7 No NICs were assigned to our PE."}},
      {"cuda.out-of-memory",
       {"/workspace/nvshmem/src/host/mem/mem_heap.cpp:nvshmemi_symmetric_heap_static::allocate_symmetric_memory:2266: "
        "nvshmem malloc failed (hint: check if total allocation has exceeded NVSHMEM symmetric size = 1073741824, "
        "NVSHMEM symmetric size can be increased using NVSHMEM_SYMMETRIC_SIZE"}},
      {"rendezvous.ranks-disagree-on-world",
       {"/workspace/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_root:234: mismatch in rank count "
        "from procs"}},
      {"efa-libfabric.net-plugin-load-failed",
       {"2026-08-22 10:11:12 NIXL ERROR _api.py:240 No plugins available, cannot start transfers!",
        "E0822 10:11:12.123456 4242 nixl_plugin_manager.cpp:440] Plugin directory does not exist or is not readable:",
        "RuntimeError: No plugins available for NIXL, cannot start transfers!",
        "E0822 10:11:12.123456 4242 nixl_agent.cpp:279] getPluginParams: backend 'UCX' not found"}},
      // NIXL's UCX backend on a UCX without its CUDA memory domain (nixl src/plugins/ucx/ucx_utils.cpp; development
      // cases a25-trtllm18373 and a25-nixl1628).
      {"efa-libfabric.ucx-without-cuda-transports",
       {"W0822 10:11:12.123456 4242 ucx_utils.cpp:713] 4 NVIDIA GPU(s) were detected, but UCX CUDA support was not "
        "found! GPU memory is not supported.",
        "E0822 10:11:12.123456 4242 ucx_utils.cpp:661] VRAM memory is detected as host by UCX. UCX is likely not "
        "configured with CUDA/ROCm support. VRAM registration cannot proceed."}},
      {"network-interface.remote-exited-or-network",
       {"An MPI communication peer process has unexpectedly disconnected.  This"}},
      {"network-interface.ompi-tcp-connect",
       {"Open MPI detected an inbound MPI TCP connection request from a peer",
        "[node01][[12345,1],0][btl_tcp_proc.c:266:mca_btl_tcp_proc_create_interface_graph] Unable to find reachable "
        "pairing between local and remote interfaces"}},
      {"network-interface.no-socket-interface", {"No usable network interfaces were found on this host, so no TCP"}},
      {"rendezvous.mpi-pmi",
       {"PMIx_Init failed for the following reason:",
        "Open MPI requires access to a local PMIx server to execute. Please ensure",
        "No PMIx server was reachable, but a PMI1/2 was detected.",
        "PMIx has found multiple possible servers to which it could",
        "srun: error:  mpi/pmix_v4: init: node01 [0]: mpi_pmix.c:124: pmi/pmix: incorrect PMIx library version loaded",
        "srun: error:  mpi/pmix_v4: init: node01 [0]: mpi_pmix.c:171: pmi/pmix: can not load PMIx library",
        "srun: error: MPI: Unable to load any plugin",
        "srun: error: Invalid MPI type 'pmix', --mpi=list for acceptable types"}},
      {"rendezvous.launcher-daemons", {"srun: error: timeout waiting for task launch, started 4 of 8 tasks"}},
      {"timeout-hang.slurm-time-limit",
       {"The user-provided time limit for job execution has been reached:",
        "Warning  DeadlineExceeded  job-controller  Job was active longer than specified deadline",
        "Normal  PyTorchJobFailed  pytorchjob-controller  Job llama-ft has failed because it was active longer than "
        "specified deadline",
        "Status: Failed  Reason: DeadlineExceeded  Message: TrainJob exceeded its active deadline",
        "Status: Failed  Reason: DeadlineExceeded  Message: Pod was active on the node longer than the specified "
        "deadline"}},
      {"efa-libfabric.ofi-call-failed", {"mtl_ofi.h:214: Error returned from fi_cq_read: Input/output error(-5)."}},
      {"cuda.xid-gpu-firmware",
       {"NVRM: _kgspLogXid119: ================ GSP core unresponsive ===============",
        "NVRM: _kgspLogXid119: =============== GSP-RM unresponsive ==================",
        "NVRM: _kgspProcessCrashCatReport: ****************************** GSP-CrashCat Report",
        "NVRM: _kgspRpcMMUFaultQueued: Received signal from GSP that PMU has halted.",
        "NVRM: kgspHealthCheck: GSP RM heartbeat timed out"}},
      {"cuda.gpu-not-initialised",
       {"NVRM: kgspWaitForGfwBootOk_TU102: failed to wait for GFW boot complete: 0x55 VBIOS"}},
      {"ib-verbs.gdr-registration-failed",
       {"nvidia-peermem nv_mem_get_pages:471 ERROR error -22 while calling nvidia_p2p_get_pages()",
        "nvidia-peermem nv_dma_map:325 ERROR nv_dma_map -- error -22 while calling nvidia_p2p_dma_map_pages()"}},
      {"version-mismatch.driver-runtime-combination",
       {"nvidia-container-cli: initialization error: nvml error: driver/library version mismatch"}},
      {"cuda.container-gpu-hook",
       {"nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1:",
        "failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
        "couldn't find binary nvidia-container-cli in PATH: exec: \"nvidia-container-cli\":"}},
      {"cuda.no-gpu",
       {"could not load kernel module nvidia", "AssertionError: NCCL actor has no GPUs assigned",
        "WARNING:tensorflow:Enabled NCCL communication but no GPUs detected/specified."}},
      {"cuda.gpu-hardware-fault",
       {"I0612 10:00:00.000000       1 server.go:279] 'nvidia.com/gpu' device marked unhealthy: "
        "GPU-1c2d3e4f-aaaa-bbbb-cccc-123456789abc",
        "Detected 2 volatile double-bit ECC error(s) in GPU 1.",
        "An excess of 60 retired pages due to DBEs have been detected and more than one page",
        "A corrupt InfoROM has been detected in GPU 0.",
        "GPU 0 had uncorrectable memory errors and row remapping failed.", "GPU had an uncontained error (XID 95)",
        "GPU 2 exceeded uncorrectable row remap limit with 9 remapped rows",
        "GPU 3 requires a reset to recover from a fault. Recovery action: 1 (GPU_RESET)."}},
      {"cuda.gpu-memory-remap-pending",
       {"A pending retired page has been detected in GPU 0.",
        "GPU 0 had memory errors and row remappings are pending"}},
      {"p2p.nvlink-error",
       {"Detected 12 CRC FLIT NvLink errors on GPU 0's NVLink which exceeds threshold of 0",
        "Only 16 NvLinks are up out of the expected 18", "Detected fatal errors on NvSwitch 2 link 14",
        "Detected fatal NvSwitch SXID 24007"}},
      {"resource-limits.host-memory",
       {"ray.exceptions.OutOfMemoryError: 1 worker(s) were killed due to the node running low on memory.",
        "(raylet) [2025-01-01 00:00:00,000 E 1234 1234] (raylet) node_manager.cc:3517: 2 Workers (tasks / actors) "
        "killed due to memory pressure (OOM),",
        "Refer to the documentation on how to address the out of memory issue: "
        "https://docs.ray.io/en/latest/ray-observability/user-guides/debug-apps/debug-memory.html. Consider "
        "provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task. To "
        "adjust the kill threshold, set the environment variable `RAY_memory_usage_threshold` when starting Ray."}},
      {"shm.ray-object-store",
       {"The local object store is full of objects that are still in scope and cannot be evicted.",
        "Failed to put object 00ffffffffffffffffffffffffffffffffffffff0100000001000000 in object store because it is "
        "full. Object size is 2147483648"}},
      {"resource-limits.disk-full",
       {"ray.exceptions.OutOfDiskError: The object cannot be created because the local object store is full and the "
        "local disk's utilization is over capacity",
        "Plasma fallback allocator failed, likely out of disk space.",
        "Warning  Evicted  kubelet  Container trainer exceeded its local ephemeral storage limit \"50Gi\". ",
        "Warning  Evicted  kubelet  Pod ephemeral local storage usage exceeds the total limit of containers"}},
      {"other.slurm-node-failure",
       {"The actor died because its node has died. Node Id: 4cb25bc084aeb5a31ca5402ad589ae042a71165a8e2dd8418fecee26",
        "All copies of 00ffffffffffffffffffffffffffffffffffffff0100000001000000 have been lost due to node failure. "
        "Check cluster logs",
        "Task failed because the node it was running on is dead or unavailable. Node IP: 10.0.0.12,",
        "Status: Failed  Reason: Terminated  Message: Pod was terminated in response to imminent node shutdown.",
        "Warning  Preempting  kubelet  Preempted in order to admit critical pod"}},
      {"cuda.k8s-gpus-not-allocatable",
       {"Warning  OutOfnvidia.com/gpu  kubelet  Node didn't have enough resource: nvidia.com/gpu,",
        "Allocate failed due to no healthy devices present; cannot allocate unhealthy devices",
        "Allocate failed due to previously allocated devices are no longer healthy; cannot"}},
      {"resource-limits.killed-sigkill",
       {"Warning  SystemOOM  kubelet  System OOM encountered, victim process: python, pid: 41233"}},
      {"other.mnnvl-imex",
       {"IMEX daemon not ready: Connection to IMEX daemon failed",
        "Warning  FailedPrepareDynamicResources  kubelet  Failed to prepare dynamic resources: NodePrepareResources "
        "failed for claim default/train-channel-xyz: error preparing devices for claim: current node not ready in "
        "ComputeDomain"}},
      {"cuda.gpu-fabric-not-ready",
       {"NVLink fabric not attached (device 0/GPU-1a2b): state=1, refusing to start",
        "NVLink fabric registration error (device 0/GPU-1a2b): status=ERROR_UNKNOWN, refusing to start"}},
      {"other.mismatched-collective",
       {"tensorflow.python.framework.errors_impl.InvalidArgumentError: Shape mismatch in the collective instance 100. "
        "Op at device /job:localhost/replica:0/task:0/device:GPU:1 expected shape [416202] but another member in the "
        "group expected shape [1630346]. This is likely due to different input shapes at different members of the "
        "collective"}},
      {"rendezvous.xla-task-restarted",
       {"tensorflow.python.framework.errors_impl.FailedPreconditionError: Device "
        "/job:worker/replica:0/task:1/device:CPU:0 current incarnation doesn't match with one in the group. This "
        "usually means this worker has restarted but the collective leader hasn't,",
        "tensorflow.python.framework.errors_impl.FailedPreconditionError: "
        "/job:worker/replica:0/task:1/device:CPU:0exists in cache with a different incarnation. This usually means the "
        "remote worker has restarted",
        "tensorflow.python.framework.errors_impl.FailedPreconditionError: RecvBuf expects a different device "
        "incarnation: 123 vs. 456. Your worker job that contains the device "
        "(\"/job:worker/replica:0/task:1/device:GPU:0\") was probably restarted. Check your worker job for the reason "
        "why it was restarted."}},
      {"rendezvous.store-server-cannot-listen",
       {"tensorflow.python.framework.errors_impl.UnknownError: Could not start gRPC server"}},
      {"other.parallel-config-invalid",
       {"ValueError: All workers should have the same number of GPUs.",
        "ValueError: Mismatched number of GPUs per worker"}},
      {"rendezvous.env-not-set",
       {"ValueError: \"cluster\" is not found in TF_CONFIG.", "ValueError: \"task\" is not found in TF_CONFIG."}},
      {"rendezvous.rendezvous-timeout", {"RuntimeError: Timeout waiting for the cluster, timeout is 600 seconds"}},
      {"p2p.peer-access-unsupported",
       {"tensorflow.python.framework.errors_impl.InternalError: 12 potential peer access pairs were reported by the "
        "driver, but no peering could be enabled."}},
      {"cuda.invalid-device-ordinal",
       {"RuntimeError: Requested more GPUs per node than available.",
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: 'visible_device_list' listed an invalid Device "
        "id '4'"}},
      {"version-mismatch.shared-library-missing",
       {"W0000 00:00:1712345678.123456   43210 gpu_device.cc:2251] Cannot dlopen some GPU libraries. Please make sure "
        "the missing libraries mentioned above are installed properly if you would like to use GPU."}},
  };
  return table;
}

TEST(DoctorStackMessages, EachStackMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(stackMessages(), 156));
}

// libuv's store retries an IPv6 bind on IPv4 and goes on: no port conflict unless the IPv4 bind fails too.
TEST(DoctorStackMessages, AnIpv6BindRetriedOnIpv4IsNoPortConflict) {
  EXPECT_FALSE(
      test::diagnoses("[I1009 10:00:00.0 TCPStoreLibUvBackend.cpp:1020] [c10d] Failed to bind to ipv6 "
                      "address, trying ipv4. Error: The server socket has failed to bind. port: 29500, "
                      "useIpv6: true, code: -98, name: EADDRINUSE, message: address already in use\n",
                      "rendezvous.port-in-use"));
  EXPECT_EQ(topRule("[E1009 10:00:00.0 socket.cpp:1015] [c10d] The server socket has failed to listen on [::]:29500 "
                    "(errno: 98 - Address already in use).\n"),
            "rendezvous.port-in-use");
}

// An expert-parallel timeout that follows a dead peer's own error ranks after that error.
TEST(DoctorStackMessages, MoeDispatchTimeoutRanksBelowTheNamedCause) {
  const auto ids = rankedRuleIds(
      "[1724300000.123456] [node1:12345:0]     ib_mlx5_log.c:179  UCX  ERROR Remote access error on mlx5_0:1/IB "
      "(synd 0x13 vend 0x88 hw_synd 0/0)\n"
      "DeepEP dispatch RDMA sender timeout, channel: 3, RDMA: 1, nvl: 2, dst RDMA lane: 0, head: 16, tail: 48\n");
  ASSERT_GE(ids.size(), 2u);
  EXPECT_EQ(ids[0], "ib-verbs.completion-error-10-remote-access");
  EXPECT_EQ(ids[1], "timeout-hang.moe-dispatch-timeout");
}

}  // namespace
}  // namespace pf::doctor
