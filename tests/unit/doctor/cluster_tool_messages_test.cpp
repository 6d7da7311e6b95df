// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Messages of the tools around a training job, from the thirtieth corpus batch's development cases: Open MPI's
// launcher, MPICH's GPU-enabled datatype engine (Yaksa), TensorRT-LLM's runtime, Ray's raylet and its trainers,
// UCX and the mlx5 provider, the NVIDIA container hook, Triton's Python backend, a cloud RDMA NIC's kernel driver,
// checkpoint code racing on shared storage and the dynamic loader. Each line is laid out as the program printed it
// in the case it comes from.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::diagnoses;
using test::rankedRuleIds;
using test::topRule;

const std::vector<test::RuleLines>& clusterToolMessages() {
  static const std::vector<test::RuleLines> table = {
      {"rendezvous.mpirun-executable-not-found",
       {"mpirun was unable to find the specified executable file, and therefore"}},
      {"other.mpich-gpu-support-without-gpu",
       {"CUDA Error (yaksuri_cuda_init_hook:src/backend/cuda/hooks/yaksuri_cuda_init_hooks.c,173): no CUDA-capable "
        "device is detected",
        "HIP Error (yaksuri_hip_init_hook:src/backend/hip/hooks/yaksuri_hip_init_hooks.c,111): no ROCm-capable "
        "device is detected"}},
      {"rendezvous.trtllm-engine-world-size", {"AssertionError: Engine world size (2) != Runtime world size (1)"}},
      {"network-interface.ray-redis-port-unreachable",
       {"F1119 08:22:23.602082 1513663 1513663 redis_context.cc:298] Could not establish connection to redis "
        "161.97.10.20:12662 (context.err = 1)"}},
      {"version-mismatch.mofed-userspace-kernel",
       {"mlx5dv_devx_create_event_channel() failed: Protocol not supported"}},
      {"cuda.container-cli-driver-timeout", {"nvidia-container-cli: initialization error: driver error: timed out"}},
      {"rendezvous.ray-cluster-fewer-gpus",
       {"ValueError: Total available GPUs 16.0 is less than total desired GPUs 32"}},
      {"rendezvous.ray-worker-register-timeout",
       {"(raylet) [2025-08-29 23:30:23,740 E 2711113 2711113] (raylet) worker_pool.cc:586: Some workers of the worker "
        "process(2769699) have not registered within the timeout. The process is still alive, probably it's hanging "
        "during start."}},
      {"ib-verbs.mr-larger-than-device-max",
       {"[Wed Jul 30 11:49:18 2025] infiniband erdma_0: ERROR: Out of mr size: 0, max 68719476736"}},
      {"other.checkpoint-files-raced-on-shared-storage",
       {"FileNotFoundError: [Errno 2] No such file or directory: 'rng_state_1.pth'",
        "FileNotFoundError: [Errno 2] No such file or directory: 'output/effnet_b0/tmp.pth.tar' -> "
        "'output/effnet_b0/last.pth.tar'"}},
      {"version-mismatch.undefined-symbol",
       {"AttributeError: ray::FSDPRefWorkerBase.offload_to_cpu: undefined symbol: numa_parse_nodestring. Did you "
        "mean: '_return_value'?"}},
      {"rendezvous.ssh-launch-failed",
       {"root@lm-mpi-job-mpiworker-1.lm-mpi-job's password: Permission denied, please "
        "try again."}},
      {"cuda.out-of-memory", {"RuntimeError: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:62"}},
      {"shm.dev-shm-full",
       {"UNAVAILABLE: Internal: Unable to initialize shared memory key 'triton_python_backend_shm_region_3' to "
        "requested size (67108864 bytes). If you are running Triton inside docker, use '--shm-size' flag to control "
        "the shared memory region size. Each Python backend model instance requires at least 64MBs of shared memory. "
        "Error: No space left on device"}},
      {"version-mismatch.torch-backend-not-built",
       {"Extension horovod.torch has not been built: /opt/conda/lib/python3.8/site-packages/horovod/torch/mpi_lib/"
        "_mpi_lib.cpython-38-x86_64-linux-gnu.so not found"}},
      {"network-interface.unreachable-or-refused", {"called with status -6: Destination is unreachable"}},
  };
  return table;
}

TEST(DoctorClusterToolMessages, EachMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(clusterToolMessages(), 18));
}

// A GPU-enabled MPICH on a CPU node prints CUDA's own "no CUDA-capable device" words; the hook's name says whose.
TEST(DoctorClusterToolMessages, MpichsGpuHookRanksAboveAMissingGpu) {
  const auto ids = rankedRuleIds(
      "CUDA Error (yaksuri_cuda_init_hook:src/backend/cuda/hooks/yaksuri_cuda_init_hooks.c,173): no CUDA-capable "
      "device is detected\n");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids[0], "other.mpich-gpu-support-without-gpu");
  EXPECT_EQ(topRule("cudaGetDeviceCount failed: no CUDA-capable device is detected\n"), "cuda.no-gpu");
}

// "NET/IB : No device found" is what every node without IB prints; only a job that asked for IB makes it a fault.
TEST(DoctorClusterToolMessages, NoIbDeviceIsAFaultOnlyWhereIbWasAskedFor) {
  const std::string noDevice = "node013:37715:38896 [0] NCCL INFO NET/IB : No device found.\n";
  EXPECT_FALSE(diagnoses(noDevice, "ib-verbs.ib-enabled-but-no-device"));
  EXPECT_EQ(topRule(noDevice + "node013:37715:38896 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0.\n"),
            "ib-verbs.ib-enabled-but-no-device");
  EXPECT_EQ(topRule(noDevice + "node013:37715:38896 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0\n"),
            "ib-verbs.ib-enabled-but-no-device");
}

// An undefined NCCL symbol keeps its own, more specific rule; any other undefined symbol is still a build mismatch.
TEST(DoctorClusterToolMessages, AnUndefinedNcclSymbolKeepsItsOwnRule) {
  EXPECT_EQ(topRule("ImportError: /usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
                    "ncclCommRegister\n"),
            "version-mismatch.symbol-missing");
}

// The raylet retries while the head is still starting; only its fatal line says the port stayed closed.
TEST(DoctorClusterToolMessages, ARetryToRedisAloneIsNoDiagnosis) {
  EXPECT_FALSE(
      diagnoses("W1119 08:22:22.445783 1513663 1513663 redis_context.cc:303] Failed to connect to Redis, "
                "retrying.\n",
                "network-interface.ray-redis-port-unreachable"));
}

// A missing data file is the job's own business, not ranks racing on a checkpoint.
TEST(DoctorClusterToolMessages, AMissingDataFileIsNoCheckpointRace) {
  EXPECT_FALSE(diagnoses("FileNotFoundError: [Errno 2] No such file or directory: 'data/train.jsonl'\n",
                         "other.checkpoint-files-raced-on-shared-storage"));
}

}  // namespace
}  // namespace pf::doctor
