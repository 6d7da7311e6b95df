// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The seventh sweep's later rounds (docs/doctor-rules.md): shared memory and resource limits as PyTorch, Ray and the
// launchers report them, the RDMA stack's tools (perftest, Open MPI's openib BTL, UCX, NVSHMEM) as users paste them,
// and schedulers, training frameworks and stacks other than PyTorch's; and the eighth sweep's readings of newer
// GPU systems' libraries (NVSHMEM's IBGDA, PyTorch's symmetric memory), cloud fabrics and containers, and launchers.
// Every line is synthetic, laid out as its program prints it.
#include <gtest/gtest.h>

#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::diagnoses;
using test::topRule;

TEST(DoctorReportedMessages, SharedMemoryAndLimitsOfWorkerProcesses) {
  EXPECT_EQ(
      topRule("    fd, size = storage._share_fd_()\nRuntimeError: unable to write to file </torch_15769_1517813162>\n"),
      "shm.torch-shared-file-full");
  EXPECT_EQ(topRule("RuntimeError: unable to open shared memory object </torch_16550_876314950> in read-write mode\n"),
            "shm.torch-shared-file-full");
  // The same object failing for lack of descriptors is the open-files limit.
  EXPECT_EQ(topRule("RuntimeError: unable to open shared memory object </torch_1_2> in read-write mode: Too many open "
                    "files (24)\n"),
            "resource-limits.too-many-open-files");
  EXPECT_EQ(topRule("RuntimeError: unable to mmap 4096 bytes from file </torch_362873_3123855485_63350>: Cannot "
                    "allocate memory (12)\n"),
            "resource-limits.map-count");
  EXPECT_EQ(topRule("  File \"/usr/lib/python3.10/multiprocessing/popen_fork.py\", line 66, in _launch\n    self.pid = "
                    "os.fork()\nOSError: [Errno 12] Cannot allocate memory\n"),
            "resource-limits.fork-enomem");
  EXPECT_EQ(
      topRule("2025-01-14 03:08:29,081\tWARNING services.py:2022 -- WARNING: The object store is using /tmp instead "
              "of /dev/shm because /dev/shm has only 67108864 bytes available.\n"),
      "shm.ray-object-store");
  EXPECT_EQ(topRule("[2023-04-14 13:11:27,885] [ERROR] [launch.py:434:sigkill_handler] ['/usr/bin/python3', '-u', "
                    "'main.py', '--local_rank=0'] exits with return code = -9\n"),
            "resource-limits.killed-sigkill");
  EXPECT_EQ(
      topRule("ConnectionError: Tried to launch distributed communication on port `11986`, but another process is "
              "utilizing it.\n"),
      "rendezvous.port-in-use");
}

TEST(DoctorReportedMessages, RdmaToolsOwnWordsForTheSameCauses) {
  EXPECT_EQ(topRule("[[27217,0],12][btl_openib_component.c:3556:handle_wc] from n1 to: n2 error polling LP CQ with "
                    "status REMOTE ACCESS ERROR status number 10 for wr_id 19059c8 opcode 4  vendor error 136\n"),
            "ib-verbs.completion-error-10-remote-access");
  EXPECT_EQ(
      topRule("[[56157,8],1][btl_openib_component.c:2951:handle_wc] from n1 to: n2 error polling HP CQ with "
              "status WORK REQUEST FLUSHED ERROR status number 5 for wr_id 12750656 opcode 0  vendor error 249\n"),
      "ib-verbs.completion-error-5-flushed");
  EXPECT_EQ(topRule("F20250821 13:22:09.976752 3186121 rdma_io.cc:811] Check failed: wc->status == IBV_WC_SUCCESS RC "
                    "send CQ state error: 12, 0\n"),
            "ib-verbs.completion-error-12-retry");
  EXPECT_EQ(topRule(" Failed to modify QP 268 to RTR\n Unable to Connect the HCA's through the link\n"),
            "ib-verbs.modify-qp-gid");
  EXPECT_EQ(
      topRule(" Port number 1 state is Down\n Couldn't set the link layer\n Couldn't get context for the device\n"),
      "ib-verbs.port-down");
  EXPECT_EQ(topRule("libibverbs: Warning: no userspace device-specific driver found for "
                    "/sys/class/infiniband_verbs/uverbs0\n"),
            "ib-verbs.no-rdma-device");
  EXPECT_EQ(topRule("/nvshmem/src/modules/transport/ibrc/ibrc.cpp:nvshmemt_init:1851: neither nv_peer_mem, or "
                    "nvidia_peermem detected. Skipping transport.\n"),
            "ib-verbs.gdr-disabled");
  EXPECT_EQ(topRule("ethernet_read_keys: Couldn't read remote address\n Unable to read to socket/rdma_cm\n"),
            "network-interface.unreachable-or-refused");
  EXPECT_EQ(topRule("ERROR:  nhc:  Health check failed:  check_hw_ib:  Version mismatch between kernel OFED drivers "
                    "and userspace OFED libraries.\n"),
            "version-mismatch.ofed-kernel-userspace");
}

TEST(DoctorReportedMessages, SchedulersFrameworksAndOtherStacks) {
  // srun's step error names the request it could not satisfy: that, not the process manager, is the cause.
  EXPECT_EQ(topRule("srun: error: Unable to create step for job 4242: Invalid generic resource (gres) specification\n"),
            "resource-limits.slurm-request-unsatisfiable");
  EXPECT_EQ(topRule("0/2 nodes are available: 1 PodToleratesNodeTaints, 2 Insufficient nvidia.com/gpu.\n"),
            "cuda.k8s-gpus-not-allocatable");
  EXPECT_EQ(topRule("2020/05/26 14:26:03 Failed to initialize NVML: could not load NVML library.\n"),
            "cuda.container-gpu-hook");
  EXPECT_EQ(topRule("salloc: error: Node failure on worker-1\n"), "other.slurm-node-failure");
  EXPECT_EQ(topRule("[96c7e3d99641:24984] Read -1, expected 122880, errno = 1\n"), "shm.cma-denied");
  // Another errno from the same read is another cause (EFAULT: a device pointer where host memory was expected).
  EXPECT_NE(topRule("[MI250-1:103933] Read -1, expected 549888, errno = 14\n"), "shm.cma-denied");
  EXPECT_EQ(topRule("[1,0]<stderr>:  what():  [horovod/common/gloo/http_store.cc:53] Wait timeout for key(s): 0\n"),
            "rendezvous.rendezvous-timeout");
  EXPECT_EQ(topRule("E external/org_tensorflow/tensorflow/compiler/xla/service/collective_ops_utils.h:209] This thread "
                    "has been waiting for 5000ms for and may be stuck: participant for device ordinal 1\n"),
            "timeout-hang.xla-rendezvous-stuck");
  EXPECT_EQ(
      topRule("deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP world size "
              "of 8 but the current world size is 16.\n"),
      "other.checkpoint-layout-mismatch");
  EXPECT_EQ(topRule("RuntimeError: aten.mm.default: got mixed torch.Tensor and DTensor, need to convert all "
                    "torch.Tensor to DTensor before calling distributed operators!\n"),
            "other.program-misuse");
  EXPECT_EQ(topRule("ERROR 06-16 10:59:13 [core.py:505] ray.exceptions.RayChannelTimeoutError: System error: Timed out "
                    "waiting for object available to read.\n"),
            "timeout-hang.ray-cgraph-timeout");
  // Python's bind error says the port is taken; a store connection the peer closed is the store's.
  EXPECT_EQ(
      topRule("[Errno 98] error while attempting to bind on address ('10.0.0.4', 42169): address already in use\n"),
      "rendezvous.port-in-use");
  EXPECT_EQ(topRule("[W822 03:54:49.636977195 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=15, "
                    "addr=[node-0-1]:60560, remote=[node-0-0]:29500): failed to recv, got 0 bytes\n"),
            "rendezvous.store-connect-failed");
}

TEST(DoctorReportedMessages, NewerGpuSystemsLibraries) {
  // IBGDA refused the NIC's doorbell pages (an unprivileged container): not the connection set-up failing.
  EXPECT_EQ(topRule("/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:1889: NULL value cannot allocate "
                    "mlx5dv_devx_uar\n"),
            "ib-verbs.nvshmem-ibgda-unprivileged");
  // An address handle towards a peer is the connection set-up, as the other IBGDA and IBRC failures are.
  EXPECT_EQ(topRule("/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:2234: NULL value Unable to create ah.\n"),
            "ib-verbs.nvshmem-ib-transport");
  // Symmetric memory's words for two ranks on one GPU.
  EXPECT_EQ(topRule("CUDASymmetricMemoryAllocator::rendezvous: detected allocations from overlapping devices from "
                    "different ranks.\n"),
            "cuda.duplicate-gpu");
}

TEST(DoctorReportedMessages, CloudFabricsContainersAndLaunchers) {
  EXPECT_EQ(topRule("/etc/enroot/hooks.d/99-mellanox.sh: line 88: ifaces[id]: unbound variable\n[ERROR] "
                    "/etc/enroot/hooks.d/99-mellanox.sh exited with return code 1\n"),
            "ib-verbs.enroot-mellanox-hook");
  EXPECT_EQ(topRule("node-a:91:97 [0] NCCL WARN NET/FasTrak : INVALID_ARGUMENT: Buffer registration request does not "
                    "have a valid fd set.\n"),
            "efa-libfabric.gcp-net-plugin-warning");
  // The plugin's INFO lines are a healthy job's.
  EXPECT_EQ(topRule("node-a:91:91 [0] NCCL INFO NET/FasTrak plugin initialized\n"), "(none)");
  EXPECT_EQ(topRule("  Local host:   node-a\n  Local device: mlx5_0\nFailed to create a completion queue (CQ)\n"),
            "resource-limits.verbs-object-create");
  EXPECT_EQ(topRule("08/20/2024 19:04:44 - INFO - cli - Initializing distributed tasks at: 10.0.0.13:2951\n/bin/sh: "
                    "1: torchrun: not found\n"),
            "rendezvous.launcher-not-found");
  EXPECT_EQ(topRule("bash: orted: command not found\n"), "rendezvous.launcher-not-found");
  // A host name that resolves to Debian's 127.0.1.1: the peers were told a loopback address.
  EXPECT_EQ(topRule("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [127.0.1.1]:29591: "
                    "Connection refused\n"),
            "network-interface.hostname-is-loopback");
  EXPECT_FALSE(
      diagnoses("[I socket.cpp:785] [c10d] The client socket has connected to [node-a]:29500 on "
                "[127.0.1.1]:40112.\n",
                "network-interface.hostname-is-loopback"));
  EXPECT_EQ(topRule("ValueError: Hostfile contains a bad entry: {line}, unable to proceed with launching\n"),
            "rendezvous.hostfile-malformed");
  EXPECT_EQ(
      topRule("ERROR:  nhc:  Health check failed:  check_nccl_allreduce: NCCL allreduce, BUS BW (expected >=431.0 "
              "GB/s, but measured 15.1043 GB/s). FaultCode: NHC2010\n"),
      "other.nhc-allreduce-bandwidth");
  EXPECT_EQ(topRule("ERROR:  nhc:  Health check failed:  check_gpu_bw: P2P test on GPU 1 to GPU 0 failed. Bandwidth "
                    "256.63 is less than 335. FaultCode: NHC2020\n"),
            "p2p.nhc-nvlink-bandwidth");
  EXPECT_EQ(topRule("[HAMI-core ERROR (pid:565 thread=1402 multiprocess_memory_limit.c:831)]: Illegal device id: "
                    "850725928\n!!!!!!! Segfault encountered !!!!!!!\n"),
            "other.hami-vgpu-interception");
  EXPECT_EQ(topRule("[0] tcpxResult_t tcpxCommProgress(tcpxComm*):1231 NCCL WARN 0xad:0xad, nic 0, enp12s0, "
                    "172.16.0.11<39187><-172.16.0.95<46723> rx rx ctrl timeout cnt 7331502, nanos 10000000585\n"),
            "efa-libfabric.gcp-net-plugin-warning");
  EXPECT_EQ(topRule("srun: error: Task launch for StepId=20.0 failed on node gpu-33: Socket timed out on send/recv "
                    "operation\n"),
            "rendezvous.launcher-daemons");
  EXPECT_EQ(topRule("[WARNING] [runner.py:186:fetch_hostfile] Unable to find hostfile, will proceed with training "
                    "with local resources only.\nDetected CUDA_VISIBLE_DEVICES=2,4,5,7 but ignoring it because one or "
                    "several of --include/--exclude/--num_gpus/--num_nodes cl args were used.\n"),
            "cuda.deepspeed-ignores-visible-devices");
  EXPECT_EQ(topRule("node-0:19817:19830 [0] nccl_ofi_rdma.cpp:4012 NCCL WARN NET/OFI Unexpected number of remote rails "
                    "for dev 0. Expected 3 but got 2\n"),
            "efa-libfabric.ofi-rail-count-mismatch");
  // DeepSpeed's runner found no address for the first host of its hostfile (two spaces: the address is empty).
  EXPECT_EQ(topRule("[2022-12-15 21:00:19,543] [INFO] [runner.py:417:main] Using IP address of  for node "
                    "worker-0.svc.cluster.local\n"),
            "rendezvous.master-unresolvable");
}

}  // namespace
}  // namespace pf::doctor
