// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The sixth sweep (docs/doctor-rules.md, "Rules from the programs' own messages"): messages that users pasted into
// public threads outside the corpus, each read in the program that prints it. Every line here is synthetic, laid out
// as that program prints it, and checked to reach the rule its cause belongs to.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

// perftest, UCX, librdmacm, the mlx5 and EFA kernel drivers, gdrdrv and NVSHMEM: the RDMA stack's own words.
TEST(DoctorReportedMessages, RdmaToolsKernelDriversAndNvshmem) {
  EXPECT_EQ(topRule("Completion with error at client\n Failed status 4: wr_id 0 syndrom 0x51\nscnt=828, ccnt=700\n"),
            "ib-verbs.completion-error-4-protection");
  EXPECT_EQ(topRule("Completion with error at client\n Failed status 12: wr_id 0 syndrom 0x81\n"),
            "ib-verbs.completion-error-12-retry");
  EXPECT_EQ(topRule(" Unable to create QP.\n Failed to create QP.\n Couldn't create IB resources\n"),
            "ib-verbs.verbs-call-failed");
  EXPECT_EQ(topRule("[359142.397077] mlx5_core 0000:02:00.0: mlx5_eq_int:556:(pid 0): CQ error on CQN 0x40a, syndrom "
                    "0x1\n"),
            "ib-verbs.verbs-retry-or-cqe");
  EXPECT_EQ(topRule("librdmacm: Fatal: no RDMA devices found\n"), "ib-verbs.no-rdma-device");
  EXPECT_EQ(topRule("[1700000000.1] [node1:1234:0] ib_device.c:475 UCX WARN IB Async event on mlx5_0: GID table change "
                    "on port 1\n"),
            "ib-verbs.gid-table-changed");
  EXPECT_EQ(topRule("[1700000000.1] [node1:1234:0] ib_iface.c:988 UCX  ERROR iface=0x1f: failed to create UD QP TX "
                    "wr:256 sge:6: Cannot allocate memory\n"),
            "resource-limits.verbs-object-create");
  EXPECT_EQ(topRule("gdrdrv:nvidia_p2p_get_pages(va=7f0000 len=65536 p2p_token=0 va_space=0) failed [ret = -22]\n"),
            "ib-verbs.gdrcopy-failed");
  EXPECT_EQ(topRule("[1038619.695161] infiniband efa_0: Failed to register mr [-12]\n"),
            "efa-libfabric.ofi-memory-registration");
  EXPECT_EQ(topRule("/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1500: non-zero status: 7 connect EPS failed\n"
                    "NVSHMEM API called before NVSHMEM initialization has completed\n"),
            "ib-verbs.nvshmem-ib-transport");
}

// Launchers, schedulers and container runtimes: Open MPI/PRRTE, Ray, Kubeflow, DeepSpeed's launcher, pyxis/enroot.
TEST(DoctorReportedMessages, LaunchersSchedulersAndContainerHooks) {
  EXPECT_EQ(topRule("PRTE has lost communication with a remote daemon.\n\n  HNP daemon   : [[47075,0],0] on node n1\n"
                    "  Remote daemon: [[47075,0],27] on node n78\n"),
            "other.slurm-node-failure");
  EXPECT_EQ(topRule("ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
                    "The actor is dead because its node has died. Node Id: 677df2a9\n"),
            "other.slurm-node-failure");
  EXPECT_EQ(topRule("An PRRTE daemon has unexpectedly failed after launch and before\ncommunicating back to mpirun.\n"),
            "rendezvous.launcher-daemons");
  EXPECT_EQ(topRule("srun: error: Task launch for 36.0 failed on node cn131: Job credential expired\n"),
            "rendezvous.launcher-daemons");
  EXPECT_EQ(topRule("INFO 06-07 18:13:55 ray_utils.py:464] Waiting for creating a placement group of specs for 150 "
                    "seconds. specs=[{'GPU': 1.0}, {'GPU': 1.0}].\n"),
            "rendezvous.ray-placement-pending");
  EXPECT_EQ(topRule("  Warning  BackOff  2m49s  kubelet  Back-off restarting failed container init-pytorch in pod "
                    "job-worker-0\n"),
            "rendezvous.master-unresolvable");
  EXPECT_EQ(topRule("    subprocess.check_call(ssh_check_cmd, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL, "
                    "shell=True)\nsubprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no worker-1 "
                    "hostname' returned non-zero exit status 255.\n"),
            "rendezvous.ssh-launch-failed");
  EXPECT_EQ(
      topRule("slurmstepd: error: pyxis: container start failed with error code: 1\nslurmstepd: error: pyxis:    "
              " [ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container\n"),
      "cuda.container-gpu-hook");
  EXPECT_EQ(topRule("error: pyxis:     nvidia-container-cli: ldcache error: process /usr/sbin/ldconfig failed\n"),
            "cuda.container-gpu-hook");
  // The container CLI's driver-version check keeps its own, more specific rule.
  EXPECT_EQ(topRule("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your "
                    "driver to a newer version, or use an earlier cuda container\n"),
            "version-mismatch.driver-too-old");
  EXPECT_EQ(topRule("[2023-07-20 15:45:13,982] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', "
                    "'main.py', '--local_rank=1'] exits with return code = -7\n"),
            "shm.bus-error");
  EXPECT_EQ(topRule("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\nRoot Cause (first observed "
                    "failure):\n  rank2 (local rank: 2)exitcode: -9 (pid: 36071)\n  traceback : signal 9 (SIGKILL) "
                    "received by PID 36071\n"),
            "resource-limits.killed-sigkill");
  EXPECT_EQ(topRule("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -11) local_rank: 0 (pid: "
                    "14954) of binary: /opt/conda/bin/python\n"),
            "other.process-crashed");
}

// Frameworks above NCCL: Horovod, XLA/JAX, DeepSpeed ZeRO-3, FSDP, Megatron, vLLM, Lightning, ATen's kernels.
TEST(DoctorReportedMessages, FrameworksAboveNccl) {
  EXPECT_EQ(topRule("FailedPreconditionError: Mismatched ALLREDUCE CPU/GPU device selection: One rank specified device "
                    "CPU, but another rank specified device GPU.\n"),
            "other.mismatched-collective");
  EXPECT_EQ(
      topRule("Unknown: Horovod has been shut down. This was caused by an exception on one of the ranks or an "
              "attempt to allreduce, allgather or broadcast a tensor after one of the ranks finished execution.\n"),
      "other.communicator-in-error");
  EXPECT_EQ(topRule("E external/xla/xla/service/rendezvous.cc:38] This thread has been waiting for `initialize clique "
                    "for rank 6; clique=devices=[0,1,2,3]; stream=0` for 10 seconds and may be stuck.\n"),
            "timeout-hang.xla-rendezvous-stuck");
  EXPECT_EQ(topRule("E coordination_service.cc:1170] Stopping coordination service as cluster registration failed. "
                    "This may be due to 1) some tasks crashed earlier before connecting\n"),
            "rendezvous.rendezvous-timeout");
  EXPECT_EQ(topRule("RuntimeError: still have inflight params [{'id': 283, 'status': 'AVAILABLE', 'numel': 4096}]\n"),
            "other.deepspeed-zero3-fetch-order");
  EXPECT_EQ(topRule("ValueError: `FlatParameter` requires uniform dtype but got torch.float16 and torch.float32\n"),
            "other.program-misuse");
  EXPECT_EQ(topRule("AssertionError: tensor_model_parallel_size value from checkpoint (1) is not equal to the input "
                    "argument value (2).\n"),
            "other.checkpoint-layout-mismatch");
  EXPECT_EQ(topRule("Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:143 'invalid resource handle'\n"),
            "p2p.vllm-custom-allreduce");
  EXPECT_EQ(topRule("RuntimeError: : CUDASymmetricMemory requires pidfd_open\n"),
            "version-mismatch.symmetric-memory-pidfd");
  EXPECT_EQ(topRule("(NCCLUniqueIDStore pid=20074) WARNING util.py:40 -- The NCCL ID has not been set yet for store "
                    "8bc1988a70fcaa3488d695fadf10ff09.\n"),
            "timeout-hang.rank0-late-for-nccl-init");
  EXPECT_EQ(topRule("> Additional GRPC error information from remote target unknown_target_for_coordination_leader "
                    "while calling /tensorflow.CoordinationService/RegisterTask:\n"),
            "rendezvous.cannot-reach-master");
  EXPECT_EQ(topRule("RuntimeError: Lightning can't create new processes if CUDA is already initialized. Did you "
                    "manually call `torch.cuda.*` functions?\n"),
            "cuda.forked-cuda-init");
  EXPECT_EQ(topRule("../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [22,0,0], thread: [64,0,0] "
                    "Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.\n"),
            "cuda.device-side-assert");
}

// Configuration the frameworks check before any communication: parallel sizes, batch sizes, the rendezvous endpoint,
// a backend's unsupported reduction, TensorFlow's collective setup order, and the launchers' exit codes.
TEST(DoctorReportedMessages, ConfigurationChecksAndLauncherExitCodes) {
  EXPECT_EQ(topRule("AssertionError: Number of layers should be divisible by the pipeline model parallel size\n"),
            "other.parallel-config-invalid");
  EXPECT_EQ(
      topRule("RuntimeError: decoder world_size (4) is not divisible by expert_tensor_model_pipeline_parallel size "
              "(8)\n"),
      "other.parallel-config-invalid");
  EXPECT_EQ(topRule("AssertionError: Check batch related parameters. train_batch_size is not equal to "
                    "micro_batch_per_gpu * gradient_acc_step * world_size 1028 != 32 * 1 * 32\n"),
            "other.parallel-config-invalid");
  EXPECT_EQ(topRule("AssertionError: MPI world size 16 does not match torch world size 8\n"),
            "rendezvous.ranks-disagree-on-world");
  // A paste that broke the message in two keeps its first half.
  EXPECT_EQ(topRule("ValueError: The hostname of the rendezvous endpoint '127.0.0.1':10764'\nmust be a dot-separated "
                    "list of labels, an IPv4 address, or an IPv6 address.\n"),
            "rendezvous.endpoint-malformed");
  EXPECT_EQ(topRule("RuntimeError: SMDDP does not support: ReduceOp\n"), "other.program-misuse");
  EXPECT_EQ(topRule("RuntimeError: Collective ops must be configured at program startup\n"), "other.program-misuse");
  EXPECT_EQ(topRule("Error: failed to run torchrun --nproc_per_node=2 --nnodes=2 --node_rank=1 pretrain.py on "
                    "192.168.1.12, is localhost: False, exception: not a valid RSA private key file\n"),
            "rendezvous.ssh-launch-failed");
  EXPECT_EQ(topRule("ERROR:composer.cli.launcher:Global rank 0 (PID 208865) exited with code -11\n"),
            "other.process-crashed");
  EXPECT_EQ(topRule("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) local_rank: 2 (pid: 94) "
                    "of binary: /usr/bin/python\n"),
            "shm.bus-error");
  EXPECT_EQ(topRule(" {'CPU': 1.0, 'GPU': 0.9} * 3 (STRICT_PACK): 1+ pending placement groups\n"),
            "rendezvous.ray-placement-pending");
  // torch elastic's teardown after the store's host exited is not a rendezvous that failed.
  const auto teardown = rankedRuleIds(
      "WARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'n4_3882442_0' has failed to shutdown "
      "the rendezvous '9987b766' due to an error of type RendezvousConnectionError.\n");
  EXPECT_EQ(std::count(teardown.begin(), teardown.end(), "rendezvous.cannot-reach-master"), 0);
}

// The machine under the job: the NVIDIA driver and Fabric Manager, DCGM and nvbandwidth, GPUDirect's kernel modules,
// the mlx5 driver, PCIe error reporting.
TEST(DoctorReportedMessages, HardwareDriversAndFabricTools) {
  EXPECT_EQ(topRule("Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error\n"),
            "cuda.gpu-hardware-fault");
  EXPECT_EQ(topRule("[   24.302465] NVRM: GPU6 _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs 812751949 "
                    "diff 6070 timeout 5200\n"),
            "cuda.xid-gpu-firmware");
  EXPECT_EQ(topRule("Nov 15 14:15:47 n1 nv-fabricmanager[4177]: request to query NVSwitch device information from "
                    "NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]\n"),
            "cuda.fabric-manager-not-running");
  EXPECT_EQ(topRule("| Warning | GPU 0's NvLink link 0 is currently down |\n"), "p2p.nvlink-inactive");
  EXPECT_EQ(topRule("Running one_to_all_read_sm.\n Invalid value when checking the pattern at <0x7fac6200e480>\n"),
            "p2p.sample-verification-failed");
  EXPECT_EQ(topRule("modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument\n[Tue Sep  8 17:16:02 2026] "
                    "nvidia_peermem: disagrees about version of symbol ib_register_peer_memory_client\n"),
            "ib-verbs.gdr-disabled");
  EXPECT_EQ(topRule("GDRCOPY library \"libgdrapi.so\" unable to open GDR driver, is gdrdrv.ko loaded?\n"),
            "ib-verbs.gdrcopy-failed");
  EXPECT_EQ(topRule("[14280.445226] mlx5_core 0000:61:00.0: wait_func:1132:(pid 141181): CREATE_DCT(0x710) timeout. "
                    "Will cause a leak of a command resource\n[14280.445220] mlx5_core 0000:61:00.0: "
                    "wait_func_handle_exec_timeout:1104:(pid 141183): cmd[22]: CREATE_DCT(0x710) No done completion\n"),
            "ib-verbs.async-fatal-event");
  EXPECT_EQ(topRule("E0331 12:03:04.222625 56060 rdma_endpoint.cpp:385] [Handshake] Failed to modify QP to RTR, check "
                    "mtu, gid, peer lid, peer qp num: Connection timed out [110]\n"),
            "ib-verbs.modify-qp-gid");
  EXPECT_EQ(topRule("Failed loading kernel module mlx5_ib:[FAILED]\n"), "ib-verbs.no-rdma-device");
  EXPECT_EQ(topRule("[  942.180239] pcieport 0000:00:1c.4: PCIe Bus Error: severity=Uncorrected (Fatal), "
                    "type=Transaction Layer, id=00e4(Receiver ID)\n"),
            "other.pcie-fatal-error");
  // The GPU that dropped off behind the port is the finding; the port's error comes with it.
  const auto ids = rankedRuleIds(
      "[74889.542044] pcieport 0000:00:02.0: PCIe Bus Error: severity=Uncorrected (Fatal), "
      "type=Transaction Layer\n[74890.1] NVRM: Xid (PCI:0000:03:00): 79, pid=0, GPU has "
      "fallen off the bus.\n");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "cuda.gpu-hardware-fault");
  EXPECT_EQ(topRule("Running multinode_device_to_device_memcpy_read_ce.\n[CUDA_ERROR_NOT_PERMITTED] operation not "
                    "permitted in expression cuMemCreate(&handle, size, &prop, 0 ) on worker-0, rank = 0\n"),
            "other.mnnvl-imex");
}

// NCCL discards a connection whose handshake is not its own: a weak sign, below any failure the log names.
TEST(DoctorReportedMessages, ForeignConnectionToNcclsPortIsWeak) {
  const std::string stray =
      "node1:166:1226 [0] misc/socket.cc:484 NCCL WARN socketFinalizeAccept: wrong magic "
      "74656d2f20544547 != 7970663b906d70b9\n";
  EXPECT_EQ(topRule(stray), "network-interface.foreign-connection");
  const auto ids = rankedRuleIds(stray +
                                 "node1:166:1226 [0] NCCL WARN NET/IB : Got completion from peer "
                                 "10.0.0.2<48233> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "ib-verbs.completion-error-12-retry");
}

}  // namespace
}  // namespace pf::doctor
