// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The sixth sweep (docs/doctor-rules.md, "Rules from the programs' own messages"): messages that users pasted into
// public threads outside the corpus, each read in the program that prints it. Every line here is synthetic, laid out
// as that program prints it, and checked to reach the rule its cause belongs to.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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
  // The symbol-version clash names why the module did not load; GPUDirect RDMA being off follows from it (next).
  EXPECT_EQ(rankedRuleIds("modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument\n[Tue Sep  8 17:16:02 "
                          "2026] nvidia_peermem: disagrees about version of symbol ib_register_peer_memory_client\n"),
            (std::vector<std::string>{"version-mismatch.peer-memory-module-symbols", "ib-verbs.gdr-disabled"}));
  EXPECT_EQ(topRule("modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument\n"), "ib-verbs.gdr-disabled");
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

// JAX/XLA's coordination service, TensorFlow's collectives, Transformer Engine's userbuffers, pyxis/enroot and
// NVSHMEM's bootstrap: the seventh sweep (docs/doctor-rules.md).
TEST(DoctorReportedMessages, TrainingStacksBesideNccl) {
  const auto restarted = rankedRuleIds(
      "2025-04-05 18:39:10.837611: E "
      "external/xla/xla/tsl/distributed_runtime/coordination/coordination_service.cc:962] "
      "/job:jax_worker/replica:0/task:1 unexpectedly tried to connect with a different incarnation. It has likely "
      "restarted.\n2025-04-05 18:39:10.838153: F external/xla/xla/pjrt/distributed/client.h:80] Terminating process "
      "because the JAX distributed service detected fatal errors. This most likely indicates that another task died\n");
  ASSERT_EQ(restarted.size(), 2u);
  EXPECT_EQ(restarted[0], "rendezvous.xla-task-restarted");
  EXPECT_EQ(restarted[1], "timeout-hang.xla-task-lost");  // the others stopping is its consequence
  EXPECT_EQ(topRule("E1009 coordination_service.cc:1170] /job:jax_worker/replica:0/task:3 has been set to ERROR in "
                    "coordination service: UNAVAILABLE: Task /job:jax_worker/replica:0/task:3 heartbeat timeout. This "
                    "indicates that the remote task has failed, got preempted, or crashed unexpectedly.\n"),
            "timeout-hang.xla-task-lost");
  EXPECT_EQ(topRule("2018-09-19 20:50:08.294697: W tensorflow/core/common_runtime/base_collective_executor.cc:203] "
                    "BaseCollectiveExecutor::StartAbort Out of range: End of sequence\n"),
            "timeout-hang.tf-input-exhausted");
  EXPECT_EQ(
      topRule("AssertionError: CUDA device, driver and/or toolkit version does not support comm+GEMM overlap with "
              "CUDA Multicast. Launch app with UB_SKIPMC=1 to try CUDA IPC instead.\n"),
      "version-mismatch.te-userbuffers-multicast");
  EXPECT_EQ(topRule("RuntimeError: /opt/te/transformer_engine/pytorch/csrc/userbuffers/userbuffers-host.cpp:208 in "
                    "function create_communicator_grouped2: CUDA Error: operation not supported\n"),
            "version-mismatch.te-userbuffers-multicast");
  EXPECT_EQ(
      topRule("Failed, NCCL error /opt/te/transformer_engine/pytorch/csrc/userbuffers/userbuffers-host.cpp:223 ''\n"),
      "other.te-userbuffers-bootstrap");
  EXPECT_EQ(
      topRule("slurmstepd: error: pyxis: failed to import docker image\nslurmstepd: error: pyxis:     [ERROR] URL "
              "https://registry-1.docker.io/v2/myregistry.azurecr.io/team/image/manifests/latest returned error "
              "code: 401 Unauthorized\n"),
      "other.container-image-import");
  EXPECT_EQ(
      topRule("/opt/nvshmem/include/host/nvshmemx_api.h:63: non-zero status: 7: Connection timed out, exiting...\n"
              "aborting due to error in nvshmemi_init_thread\n"),
      "network-interface.nvshmem-bootstrap");
  // Bootstrap messages of unexpected sizes are two builds or drivers that disagree, not an unreachable peer.
  EXPECT_FALSE(
      test::diagnoses("/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message "
                      "truncated : received 36 bytes instead of 1\nConnection timed out in nvshmem bootstrap\n",
                      "network-interface.nvshmem-bootstrap"));
}

// The seventh sweep's second part: threads on EFA, peer paths, library versions and API use that the first six sweeps'
// rules did not read.
TEST(DoctorReportedMessages, FabricPeerPathsLibraryVersionsAndApiUse) {
  EXPECT_EQ(
      topRule("A process has executed an operation involving a call\nto the fork() system call to create a child "
              "process.\nAs a result, the libfabric EFA provider is operating in\na condition that could result in "
              "memory corruption or\nother system errors.\n"),
      "efa-libfabric.fork-unsafe");
  EXPECT_EQ(
      topRule("FI_EFA_USE_DEVICE_RDMA=1 was set by user, but EFA device has no rdma-read capability.  Application "
              "will abort().\n"),
      "efa-libfabric.no-rdma-read");
  EXPECT_EQ(
      topRule("libfabric:718892:1658904526::efa:mr:efa_mr_regattr():632<warn> Unable to register MR: Cannot allocate "
              "memory\n"),
      "efa-libfabric.ofi-memory-registration");
  EXPECT_EQ(topRule("Registering memory... Error: LibfabricError: code -93 (\"Protocol not supported\"), context: "
                    "fi_mr_regattr\n"),
            "efa-libfabric.ofi-gpu-registration");
  EXPECT_EQ(
      topRule("create_nccl_ofi_component:459 NCCL WARN NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument\n"),
      "efa-libfabric.ofi-call-failed");
  EXPECT_EQ(topRule("Failed: /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310 'invalid argument'\n"),
            "p2p.vllm-custom-allreduce");
  EXPECT_EQ(topRule("host:2274:2274 [0] allocator.cc:89 (ncclMemAlloc) NCCL WARN Cuda failure 205 'mapping of buffer "
                    "object failed'\n"),
            "p2p.bar-mapping-failed");
  EXPECT_EQ(
      topRule("(VllmWorker rank=0 pid=1) INFO 05-01 shm_broadcast.py:430] No available shared memory broadcast block "
              "found in 60 seconds. This typically happens when some processes are hanging.\n"),
      "timeout-hang.vllm-worker-stuck");
  EXPECT_EQ(
      topRule("E1027 15:10:59.012564 3266428 cuda_dnn.cc:456] Loaded runtime CuDNN library: 9.10.1 but source was "
              "compiled with: 9.13.1.\n"),
      "version-mismatch.cuda-build-mismatch");
  EXPECT_EQ(
      topRule("CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8906, "
              "which is newer.\n"),
      "version-mismatch.cuda-build-mismatch");
  EXPECT_EQ(
      topRule("ImportError: /opt/venv/lib/python3.12/site-packages/transformer_engine/transformer_engine_torch.so: "
              "undefined symbol: _ZNK3c106SymInt6sym_neERKS0_\n"),
      "version-mismatch.symbol-missing");
  EXPECT_EQ(topRule("ERROR 10-18 14:42:48 pynccl_wrapper.py:196] Failed to load NCCL library from libnccl.so.2 .It is "
                    "expected if you are not running on NVIDIA/AMD GPUs.\n"),
            "version-mismatch.shared-library-missing");
  EXPECT_EQ(topRule("torch.Size([4097, 512]) is not divisible by FSDP world size 128.\n"),
            "other.parallel-config-invalid");
  EXPECT_EQ(topRule("#0-0 (fa93daea854b060b) MISMATCH\n  Communicator ranks have different AllGather operation counts\n"
                    "  30 ranks have launched up to operation 640\n  2 ranks have launched up to operation 641\n"),
            "timeout-hang.ras-operation-counts-differ");
  EXPECT_EQ(
      topRule("[rank0]:[W522 22:27:03.825695149 ProcessGroupNCCL.cpp:4789] [PG ID 0 PG GUID 0 Rank 0]  using GPU 0 "
              "as device used by this process is currently unknown. This can potentially cause a hang if this "
              "rank to GPU mapping is heterogeneous.\n"),
      "cuda.barrier-device-unknown");
}

// TensorFlow's op registry: a graph that names an NCCL op the running binary does not register (builds without
// NCCL, or TensorFlow 1.x code whose tf.contrib NCCL ops were never imported).
TEST(DoctorReportedMessages, ATensorFlowBinaryWithoutItsNcclOps) {
  EXPECT_EQ(topRule("ValueError: Op type not registered 'NcclAllReduce' in binary running on node7. Make sure the Op "
                    "and Kernel are registered in the binary running in this process.\n"),
            "version-mismatch.tf-nccl-op-missing");
  EXPECT_EQ(
      topRule("tensorflow.python.framework.errors_impl.NotFoundError: No OpKernel was registered to support Op "
              "'NcclAllReduce' used by {{node NcclAllReduce}} with these attrs: [reduction=\"sum\", T=DT_FLOAT]\n"),
      "version-mismatch.tf-nccl-op-missing");
  EXPECT_FALSE(test::diagnoses("ValueError: Op type not registered 'SentencepieceOp' in binary running on node7.\n",
                               "version-mismatch.tf-nccl-op-missing"));
}

// NVSHMEM (under DeepEP): its transport initialisation names the transport that failed, and its initialisation
// checks that the device library linked into the extension and the host library loaded are one release.
TEST(DoctorReportedMessages, NvshmemTransportsAndItsTwoLibraries) {
  EXPECT_EQ(topRule("/repo/nvshmem_src/src/host/transport/transport.cpp:nvshmemi_transport_init:275: init failed for "
                    "transport: IBGDA\n"),
            "ib-verbs.nvshmem-ibgda-init");
  EXPECT_EQ(topRule("NVSHMEM device library version does not match with NVSHMEM host library version\n"
                    "/sgl-workspace/nvshmem/src/device/init/init_device.cu:145: non-zero status: 1 "
                    "nvshmem_internal_init_thread failed\n"),
            "version-mismatch.nvshmem-device-host");
  // DeepEP's Buffer asserts its rank layout (nodes of NUM_MAX_NVL_PEERS GPUs) before NVSHMEM is touched.
  EXPECT_EQ(topRule("RuntimeError: Failed: Assertion error /home1/DeepEP/csrc/deep_ep.cpp:32 'num_ranks > "
                    "NUM_MAX_NVL_PEERS or low_latency_mode'\n"),
            "other.deepep-rank-layout");
}

// XLA's fatal CHECKs in its GPU collectives code: a compiler or runtime bug, not the fabric.
TEST(DoctorReportedMessages, AnXlaCheckInItsCollectivesCode) {
  EXPECT_EQ(topRule("F0105 23:50:34.026692   34204 nccl_all_reduce_thunk.cc:175] Check failed: "
                    "reduction_kind.has_value()\n*** Check failure stack trace: ***\n"),
            "other.xla-collective-check");
  EXPECT_FALSE(test::diagnoses("F0105 23:50:34.026692   34204 hlo_instruction.cc:175] Check failed: shape.IsArray()\n",
                               "other.xla-collective-check"));
}

// vLLM measures the free memory of its GPU at start-up; far less than the share it was asked to take means another
// process holds that GPU (a second job, a leftover, or a container that sees GPUs it was not given).
TEST(DoctorReportedMessages, VllmFindsItsGpuAlreadyHeld) {
  EXPECT_EQ(topRule("ValueError: Free memory on device cuda:1 (7.16/79.18 GiB) on startup is less than desired GPU "
                    "memory utilization (0.9, 71.26 GiB). Decrease GPU memory utilization or reduce GPU memory used "
                    "by other processes.\n"),
            "cuda.device-busy");
}

// Launchers' own checks before NCCL starts: Accelerate's for GPUs without peer access, Lightning's of the Slurm
// task layout.
TEST(DoctorReportedMessages, LauncherChecksBeforeNcclStarts) {
  EXPECT_EQ(topRule("NotImplementedError: Using RTX 4000 series doesn't support faster communication broadband via P2P "
                    "or IB. Please set `NCCL_P2P_DISABLE=\"1\"` and `NCCL_IB_DISABLE=\"1\" or use `accelerate launch` "
                    "which will do this automatically.\n"),
            "p2p.peer-access-unsupported");
  EXPECT_EQ(topRule("RuntimeError: You set `--ntasks=200` in your SLURM bash script, but this variable is not "
                    "supported. HINT: Use `--ntasks-per-node=200` instead.\n"),
            "rendezvous.lightning-slurm-tasks");
}

}  // namespace
}  // namespace pf::doctor
