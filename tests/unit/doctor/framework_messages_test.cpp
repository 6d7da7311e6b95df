// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The ninth sweep of programs' own messages (docs/doctor-rules.md, "Rules from the programs' own messages"): what
// the frameworks above NCCL raise when a distributed job cannot start or goes wrong (DeepSpeed, Accelerate and
// transformers, Lightning, vLLM and SGLang, Ray and Horovod, torch.distributed's Python side, Megatron-LM, NeMo and
// torchtitan, JAX/XLA and PaddlePaddle), read in their sources. Each line is laid out as the program prints it and
// must reach the rule its cause belongs to; the warnings of jobs that carry on must reach none.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

// One entry per rule; every line is a different message (or another program's wording of the same check).
const std::vector<test::RuleLines>& frameworkMessages() {
  static const std::vector<test::RuleLines> table = {
      {"rendezvous.env-not-set",
       {"KeyError: 'OMPI_COMM_WORLD_RANK'",
        "AssertionError: DeepSpeed requires the LOCAL_RANK environment variable, it is set",
        "RuntimeError: LOCAL_RANK is not in the environment. Consider passing fallback_rank",
        "ValueError: LOCAL_RANK must be set before selecting a local device.",
        "RuntimeError: Cannot determine world size: WORLD_SIZE environment variable not set and torch.distributed is "
        "not initialized.",
        "ValueError: Tried to launch on distributed with multinode, but `MASTER_ADDR` env was not set,",
        "ValueError: Cannot determine world size. Environment variable `JSM_NAMESPACE_SIZE` not found. Make sure you "
        "run your executable with `jsrun`.",
        "RuntimeError: (NotFound) The environment variable 'PADDLE_TRAINER_ENDPOINTS' cannot be found.",
        "RuntimeError: (NotFound) The environment variable 'PADDLE_MASTER' cannot be found.",
        "AssertionError: The environment variable 'MASTER_ADDR' and 'MASTER_PORT' must be specified,",
        "ValueError: paddle.distributed initialize error, environment variable FLAGS_selected_gpus",
        "RuntimeError: Could not determine process rank and size: only one of HOROVOD_RANK",
        "ValueError: coordinator_address should be defined.", "ValueError: Number of processes must be defined.",
        "ValueError: The process id of the current process must be defined."}},
      {"rendezvous.ranks-disagree-on-world",
       {"AssertionError: MPI rank 3 does not match torch rank 0", "OSError: rank number doesn't match!",
        "OSError: local_rank number doesn't match!",
        "AssertionError: world group already initialized with a different world size",
        "RuntimeError: zero.Init resolved a process group of world_size=1, but the launcher environment reports",
        "AssertionError: LOCAL_RANK (0) != OMPI_COMM_WORLD_LOCAL_RANK (3), not sure how to proceed as we're seeing "
        "conflicting local rank info.",
        "AssertionError: Mismatch in local rank setting, args.local_rank=0 but env['LOCAL_RANK']=2."}},
      {"rendezvous.launcher-not-found",
       {"OSError: mpirun or mpiexec were not found. Ensure that Intel MPI, Open MPI, or MVAPICH are installed.",
        "Exception: horovod does not find an installed MPI."}},
      {"rendezvous.ssh-launch-failed",
       {"RuntimeError: Using hostfile at /job/hostfile but host=worker-0 was not reachable via ssh. If you are running "
        "with a single node please remove"}},
      // DeepSpeed's pdsh runner before it created the variable (development case a25-ds5318).
      {"rendezvous.deepspeed-ssh-port-without-pdsh-args", {"KeyError: 'PDSH_SSH_ARGS_APPEND'"}},
      {"rendezvous.hostfile-malformed",
       {"ValueError: Hostfile is empty or not formatted correctly, unable to proceed with launching.",
        "[2024-05-14 09:12:33,418] [ERROR] [runner.py:261:_parse_hostfile] Bad hostfile text: ['worker-0",
        "ValueError: Hostname 'worker-3' not found in hostfile",
        "ValueError: Num nodes is >1 but no extra nodes available via hostfile"}},
      {"rendezvous.ray-placement-pending",
       {"TimeoutError: Placement group creation timed out. Make sure your cluster either has enough resources",
        "ray.train.v2._internal.exceptions.InsufficientClusterResourcesError: Insufficient cluster resources to launch "
        "training workers.",
        "Tensor parallel size may exceed available GPUs in your cluster. Check resources with",
        "ValueError: Cannot provide a placement group of placement_group_specs=[{'GPU': 1.0}] within 1800 seconds. See "
        "`ray status` and `ray list nodes` to make sure the cluster has enough resources.",
        "ray.train.v2._internal.exceptions.WorkerGroupStartupTimeoutError: The worker group startup timed out after"}},
      {"rendezvous.rendezvous-timeout",
       {"E0105 10:12:03.456789  2345 client.cc:129] Failed to connect to distributed JAX controller: waited too long "
        "for some tasks to show up.",
        "RuntimeError: Unable to meet other processes at the rendezvous store. If you are",
        "RuntimeError: Unable to get the NCCLUniqueID from the store within 180 seconds.",
        "TimeoutError: Timed out waiting for GLOO rendezvous metadata for group 'default'.",
        "ValueError: (InvalidArgument) TCPStore timeouted and not all workers got ready.",
        "horovod.runner.common.util.timeout.TimeoutException: Timed out waiting for minimum number of slots to become "
        "available."}},
      {"rendezvous.master-unresolvable", {"ValueError: (InvalidArgument) Fail to get host by name worker-1."}},
      {"rendezvous.endpoint-malformed",
       {"RuntimeError: Failed to recognize coordinator address t1v-n-abc-w-0",
        "ValueError: Bare IPv6 address without brackets is ambiguous: 'fe80::1:5000'. Use"}},
      {"rendezvous.xla-task-restarted",
       {"ABORTED: /job:jax_worker/replica:0/task:2 Heartbeat: Incarnation ID mismatch: expecting",
        "ABORTED: Leader incarnation ID mismatch: the coordination  leader (usually slice 0 task 0) has restarted.",
        "jaxlib._jax.XlaRuntimeError: FAILED_PRECONDITION: Different local topology for node 1 has been set "
        "previously, possibly before a restart."}},
      {"cuda.invalid-device-ordinal",
       {"ValueError: World size (8) is larger than the number of available GPUs (4) in this",
        "ValueError: You requested to find 8 devices but this machine only has 4 GPUs.",
        " But your machine only has: [0, 1]",
        "ValueError: (InvalidArgument) Device id must be less than GPU count, but received",
        "RuntimeError: the number of visible devices(2) is less than the number of spawn processes(4),",
        "ValueError: device_id 4 is out of range. Please use a device index less than the number of accelerators "
        "available:",
        "RuntimeError: device 4 is not visible (CUDA_VISIBLE_DEVICES=[0, 1, 2, 3])"}},
      {"cuda.no-gpu",
       {"RuntimeError: nccl2 requires at least one CUDA device",
        "RuntimeError: cuda driver can't be loaded, is cuda enabled?",
        "lightning.fabric.utilities.exceptions.MisconfigurationException: GPUs requested but none are available.",
        "ValueError: You requested to find 4 devices but there are no visible CUDA devices on this machine.",
        "RuntimeError: Unable to proceed, no GPU resources available",
        "jaxlib._jax.XlaRuntimeError: FAILED_PRECONDITION: No visible GPU devices.",
        "RuntimeError: FSDP needs a non-CPU accelerator device, but no accelerator device is detected.",
        "[2024-05-14 09:12:33,418] [WARNING] [real_accelerator.py:199:get_accelerator] Setting accelerator to CPU. If "
        "you have GPU or other accelerator, we were unable to detect it.",
        "RuntimeError: There are currently no available devices found, must be one of 'XPU',"}},
      {"cuda.device-busy",
       {"ValueError: Free memory on device cuda:0 (10.5/79.2 GiB) on startup is less than the engine's budget after "
        "excluding",
        "RuntimeError: You requested to find 4 devices but only 2 are currently available. The devices [2, 3] are "
        "occupied by other processes and can't be used at the moment.",
        "RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes.",
        "AssertionError: Error in memory profiling. Initial free memory 70.1 GiB, current free memory 75.3 GiB. This "
        "happens when other processes sharing the same container release GPU memory while vLLM is profiling"}},
      {"version-mismatch.torch-backend-not-built",
       {// libgpuarray (pygpu) built before NCCL was installed, as Platoon prints it (development case a26-platoon72).
        "WARNING! Failed to register in a local GPU comm world.\nReason: No collective ops available, API error. Is a "
        "collectives library installed?",
        "RuntimeError: Distributed package doesn't have Gloo built in",
        "RuntimeError: Distributed package doesn't have UCC built in",
        "RuntimeError: torch.distributed is not available. Cannot initialize distributed process group",
        "RuntimeError: Torch distributed is not available.", "RuntimeError: Distributed torch is not available.",
        "RuntimeError: PyTorch was compiled without CUDA support",
        "ValueError: paddle.distributed initialize error, your paddle is not compiled with cuda but you assign 'nccl' "
        "as backend.",
        "ValueError: Horovod has not been built with MPI support. Ensure MPI is installed",
        "ValueError: Gloo support has not been built.  If this is not expected, ensure CMake",
        "ValueError: MPI support has not been built.  If this is not expected, ensure MPI",
        "ValueError: Neither MPI nor Gloo support has been built. Try reinstalling Horovod",
        "ValueError: Gloo support is required to use elastic training, but has not been built."}},
      {"version-mismatch.nccl-not-loadable",
       {"RuntimeError: failed to load the NCCL library for unique-id rendezvous",
        "2024-05-01 10:12:13,123\tWARNING nccl_collective_group.py:177 -- NCCL is not available. Please install Cupy",
        "ImportError: NCCL in Ray requires Cupy being available!",
        "W0105 10:12:03.456789  2345 dynamic_loader.cc:287] You may need to install 'nccl2' from NVIDIA official "
        "website:"}},
      {"version-mismatch.nccl-too-old-for-torch",
       {"WARNING 06-01 10:00:00 [pynccl_wrapper.py:414] The symbol ncclCommWindowRegister is not found in the NCCL "
        "library libnccl.so.2. To enable VLLM_USE_NCCL_SYMM_MEM  please update your NCCL version to >= 2.27.03.",
        "AssertionError: NCCL version 2.27.3 or higher is required for NCCL symmetric memory",
        "TypeError: BF16 all reduce communication hook required CUDA 11+ and NCCL 2.10+ or XPU and XCCL"}},
      {"version-mismatch.cuda-build-mismatch",
       {"RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version",
        "RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version",
        "RuntimeError: HIP version mismatch! DeepSpeed ops were compiled and installed with a different version than "
        "what is being used at runtime. Please re-install DeepSpeed or switch torch versions. Install HIP version=5.7, "
        "Runtime HIP version=6.0"}},
      {"other.mismatched-collective",
       {"RuntimeError: (PreconditionNotMet) Tensors in communication are expected to have matching sizes.",
        "RuntimeError: (PreconditionNotMet) Tensors in communication are expected to have the same data type.",
        "[2024-05-01 10:12:13.123456: E /tmp/pip-req-build-x1/horovod/common/operations.cc:682] Horovod could not be "
        "initialized: Attempted to register process set with mismatching size on different ranks",
        "[2024-05-01 10:12:13.123456: E /tmp/pip-req-build-x1/horovod/common/operations.cc:682] Horovod could not be "
        "initialized: Different ranks tried to set up mismatching numbers of process sets",
        "AssertionError: sync_global_devices name mismatch ('checkpoint_step_100'). Expected:",
        "INVALID_ARGUMENT: Conflicting tasks specified by different processes for the same barrier:",
        "RuntimeError: Detected a disagreement on list contents between rank0 and rank3: ",
        "RuntimeError: Forward order differs across ranks: rank 0 is all-gathering 1 parameters",
        "RuntimeError: Configuration mismatch detected for engine 1. All DP workers must have identical configurations "
        "for parameters that affect collective communication",
        "RuntimeError: AutoEP+AutoTP routing decisions differ across tensor-parallel lanes.",
        "AssertionError: Data inconsistency within the TP group. Please check the Dataloader"}},
      {"other.parallel-config-invalid",
       {"AssertionError: data_parallel_size (3) * tensor_model_parallel_size (2) must equal world_size (8)",
        "RuntimeError: num_stages (3) must divide distributed world size (8)",
        "AssertionError: dp group size is not dividable by dp_shard_size,  (world_size 12,",
        "ValueError: expert_parallel_degree (16) must divide dp_shard * cp * tp (8)",
        "AssertionError: tp_size must be divisible by number of nodes",
        "AssertionError: world_size (8) must be equal to the tensor_parallel_size (4) x pipeline_parallel_size",
        "RuntimeError: world_size (16) is not equal to tensor_model_parallel_size (8) x pipeline_model_parallel_size "
        "(1)",
        "AssertionError: Hybrid context parallel requires an even number of ranks",
        "deepspeed.elasticity.config.ElasticityIncompatibleWorldSize: World size (12) is not valid with the current "
        "list of valid GPU counts:",
        "ValueError: To use `BatchSamplerShard` in `split_batches` mode, the batch size (6) needs to be a round "
        "multiple of the number of processes",
        "AssertionError: Number of experts should be a multiple of expert model parallel_size.",
        "AssertionError: number of layers of the model must be divisible pipeline model parallel size"}},
      {"other.program-misuse",
       {"AssertionError: tensor model parallel group is already initialized",
        "AssertionError: data parallel group is already initialized",
        "RuntimeError: distributed.initialize should only be called once.",
        "RuntimeError: Trying to initialize a group a second time."}},
      {"other.parallel-state-not-initialized",
       {"AssertionError: data parallel group is not initialized",
        "AssertionError: tensor parallel group is not initialized", "AssertionError: world group is not initialized",
        "RuntimeError: create_all_gather_groups() requires parallel state to be initialized. Call "
        "initialize_model_parallel() first.",
        "AssertionError: Warning! Process group not initialized",
        "AssertionError: DeepSpeed backend not set, please initialize it using init_process_group()",
        "AssertionError: Distributed backend is not initialized. Please set dist_init_required to True",
        "AssertionError: Parameters cannot be scattered without initializing deepspeed.comm",
        "AssertionError: Please initialize the torch distributed backend.", "AssertionError: dist is not initialized",
        "RuntimeError: Distributed JAX not initialized.",
        "RuntimeError: jax.distributed.initialize() must be called before any JAX calls that might initialise the XLA "
        "backend.",
        "RuntimeError: The collective group 'default' is not initialized in the process."}},
      {"network-interface.host-address-undetectable",
       {"[2024-05-14 09:12:33,418] [ERROR] [runner.py:506:main] Unable to detect suitable master address via 'hostname "
        "-I',",
        "UserWarning: Failed to get the IP address, using 0.0.0.0 by default. The value can",
        "RuntimeError: Neither 127.0.0.1 nor ::1 are bound to a local interface. Set the VLLM_LOOPBACK_IP",
        "ValueError: Can not get local ip",
        "WARNING 06-01 10:00:00 [Errno 99] Can not get local ip from NIC. Please verify whether SGLANG_LOCAL_IP_NIC is "
        "set correctly.",
        "AssertionError: Can't find your local ip {10.0.0.5} in node_ips: {['10.0.0.1', '10.0.0.2']}",
        "RuntimeError: Cannot find an IPv4 address of the common interface.",
        "ValueError: No interface is found for address 127.0.0.1."}},
      {"network-interface.horovod-interface-discovery",
       {"One possible cause of this problem is that horovod currently requires every host to have at least one "
        "routable network interface with the same name across all of the hosts.",
        "horovod.runner.common.util.network.NoValidAddressesFound: No available network interface found matching user "
        "provided interface:",
        "Exception: Unable to find a set of common task-to-task communication interfaces:",
        "horovod.runner.common.util.timeout.TimeoutException: Timed out waiting for tasks to update task-to-task "
        "addresses.",
        "horovod.runner.common.util.timeout.TimeoutException: Timed out waiting for Task to task address check."}},
      {"p2p.peer-access-probe-failed",
       {"WARNING 06-01 10:00:00 [all_reduce_utils.py:319] Two processes do not agree on the P2P access status",
        "RuntimeError: Error happened when batch testing peer-to-peer access from (0, 0, 1,"}},
      {"shm.dev-shm-full",
       {"ERROR 06-01 10:00:00 [parallel_state.py:2672] Error ignored in is_in_the_same_node: [Errno 28] No space left "
        "on device",
        "3. Increase shared memory by setting the -shm-size option when starting docker container,"}},
      {"shm.segment-create-failed", {"shared_create deepspeed_allreduce_buffer_1000_127.0.0.1_29500_0 failed"}},
      {"timeout-hang.watchdog-timeout",
       {"2024-05-01 10:12:13,123\tWARNING nccl_ras.py:888 -- NCCL hang still suspected! 1 of",
        "ray.train.v2._internal.exceptions.BroadcastCollectiveTimeoutError: The collective operation timed out after "
        "1800.00 seconds. The following ranks have not joined the collective operation:",
        "1 of 3 communicators have a collective mismatch and made no progress for 600 seconds (40 polls). This usually "
        "means that the collective is deadlocked / hanging.",
        "W0105 10:12:03.456789  2345 comm_task_manager.cc:171] Find timeout init but not start "
        "task:group_key:group_0,group_ranks:[0,1,2,3],global_rank:1,local_rank:1,comm_count:57,op:ALLREDUCE,started:0,"
        "completed:0,numel:1024,nranks:4",
        "W0105 10:12:03.456789  2345 comm_task_manager.cc:176] Find timeout start but not finish "
        "task:group_key:group_0,group_ranks:[0,1,2,3],global_rank:1,local_rank:1,comm_count:57,op:ALLREDUCE,started:1,"
        "completed:0,numel:1024,nranks:4"}},
      {"timeout-hang.horovod-stalled-ranks",
       {"[2024-05-01 10:12:13.123456: E /tmp/pip-req-build-x1/horovod/common/stall_inspector.cc:105] One or more rank "
        "(marked by \"!\") is stalled for longer than 300 seconds. Will shutdown."}},
      {"timeout-hang.elastic-exit-barrier",
       {"torch.distributed.DistStoreError: Timed out waiting on barrier on rank 0, for key prefix: "
        "torchelastic/agent/terminal_state (world_size=4, missing_ranks=[rank 2, rank 3], timeout=300)"}},
      {"cuda.out-of-memory",
       {"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current"}},
      {"rendezvous.cannot-reach-master",
       {"E0105 10:12:03.456789  2345 client.cc:138] Failed to connect to distributed JAX controller: UNAVAILABLE:"}},
      {"timeout-hang.xla-task-lost",
       {"UNAVAILABLE: The following tasks are unhealthy (stopped sending heartbeats):",
        "INTERNAL: Coordination service has stopped. RecordHeartbeat() from task: /job:jax_worker/replica:0/task:1",
        "jaxlib._jax.XlaRuntimeError: UNAVAILABLE: Failed to send RPC to coordination service. Either the leader task "
        "was preempted/died/restarted unexpectedly or this task is experiencing network issues."}},
      {"resource-limits.killed-sigkill",
       {"torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL"}},
      {"shm.bus-error",
       {"torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGBUS"}},
      {"other.te-userbuffers-bootstrap",
       {"Exception: Tensor parallel overlap: userbuffer initialization failed with CUDA error:"}},
  };
  return table;
}

TEST(DoctorFrameworkMessages, EachFrameworkMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(frameworkMessages(), 163));
}

// Warnings printed by jobs that go on (a port retried, a feature skipped, a fallback taken) name no failure.
TEST(DoctorFrameworkMessages, WarningsOfJobsThatCarryOnAreNotFailures) {
  for (const std::string line : {
           "WARNING 06-01 10:00:00 [parallel.py:841] Address already in use. Retrying with a new port.",
           "WARNING 06-01 10:00:00 [pynccl.py:648] ncclCommSuspend is not available in the loaded NCCL/RCCL library "
           "(requires NCCL >= 2.29.7); skipping comm suspend",
           "2024-05-01 10:12:13,123\tWARNING nccl_ras.py:683 -- `ncclras` binary 'ncclras' rejected the `-f` format "
           "flag, which requires NCCL 2.28+. Disabling the RAS hang detector.",
           " [WARNING]  DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was "
           "compiled "
           "with 11.8.Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of CUDA, but it may result in "
           "unexpected behavior.",
           "WARNING 06-01 10:00:00 Failed to initialize QuickAllReduce: hipErrorPeerAccessUnsupported",
       }) {
    EXPECT_TRUE(rankedRuleIds(line + "\n").empty()) << line;
  }
}

// The same words still name the failure where the job stops on them.
TEST(DoctorFrameworkMessages, TheExclusionsLeaveTheFailuresTheyResemble) {
  EXPECT_EQ(topRule("RuntimeError: The server socket has failed to bind. Address already in use\n"),
            "rendezvous.port-in-use");
  EXPECT_EQ(topRule("RuntimeError: ReduceOp.AVG requires NCCL 2.10+\n"), "version-mismatch.nccl-too-old-for-torch");
  EXPECT_EQ(topRule("RuntimeError: Installed CUDA version 12.1 does not match the version torch was compiled with "
                    "11.8, unable to compile cuda/cpp extensions without a matching cuda version.\n"),
            "version-mismatch.cuda-build-mismatch");
}

// torchrun's exit barrier after a failure elsewhere is that failure's consequence; alone, it is the diagnosis.
TEST(DoctorFrameworkMessages, ExitBarrierRanksAfterTheFailureItFollows) {
  const std::string barrier =
      "torch.distributed.DistStoreError: Timed out waiting on barrier on rank 0, for key prefix: "
      "torchelastic/agent/terminal_state (world_size=4, missing_ranks=[rank 2, rank 3], timeout=300)\n";
  EXPECT_EQ(topRule(barrier), "timeout-hang.elastic-exit-barrier");
  const auto ids = rankedRuleIds("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n" + barrier);
  ASSERT_GE(ids.size(), 2u);
  EXPECT_EQ(ids.front(), "cuda.out-of-memory");
}

}  // namespace
}  // namespace pf::doctor
