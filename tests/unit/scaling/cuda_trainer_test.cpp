// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA trainer against the CPU trainer (label `gpu`). On a node without a GPU every case is skipped with
// the reason (GTEST_SKIP; CTest reads "[  SKIPPED ]"); on one with a GPU that CUDA cannot use, they fail. With one: a
// single rank trained a few steps holds the CPU trainer's parameters within 1e-3 relative, with and without a (1-rank)
// NCCL communicator on the all-reduce path, for SGD and Adam; and the loss decreases.
#include "cuda/cuda_trainer.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <nccl.h>

#include <cmath>
#include <string>

#include "../gpu_presence.hpp"
#include "cuda_runner.hpp"
#include "nccl/nccl_check.hpp"
#include "pf/error.hpp"
#include "reducer.hpp"
#include "trainer.hpp"

namespace pf::scaling {
namespace {

// Skips only on a node without a GPU; on one with a GPU, CUDA failing to use it fails the case.
#define PF_REQUIRE_GPU()                                                             \
  do {                                                                               \
    if (auto why = ::pf::testing::noGpuOnThisNode()) GTEST_SKIP() << *why;           \
    ASSERT_NO_THROW(requireCudaDevice()) << "this node has a GPU: CUDA must use it"; \
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);                                        \
  } while (0)

TrainerSpec smallSpec(const std::string& opt) {
  TrainerSpec s;
  s.model.input = 32;
  s.model.width = 64;
  s.model.depth = 3;
  s.model.output = 8;
  s.batchPerRank = 16;
  s.optimizer.kind = opt;
  s.optimizer.lr = opt == "adam" ? 1e-3f : 0.02f;
  s.bucketCapBytes = 8 << 10;  // several buckets
  return s;
}

// |gpu - cpu| <= 1e-3 |cpu| (plus a floor for values near zero, where relative error means nothing).
void expectClose(const std::vector<float>& gpu, const std::vector<float>& cpu) {
  ASSERT_EQ(gpu.size(), cpu.size());
  int bad = 0;
  for (std::size_t i = 0; i < cpu.size() && bad < 5; ++i)
    if (std::abs(gpu[i] - cpu[i]) > 1e-3 * std::abs(cpu[i]) + 1e-5) {
      ADD_FAILURE() << "param " << i << ": gpu " << gpu[i] << " cpu " << cpu[i];
      ++bad;
    }
}

void compareWithCpu(const std::string& opt, bool withNccl) {
  const TrainerSpec spec = smallSpec(opt);
  NcclComm comm;  // the trainer borrows it (cuda_runner.cpp's device owns it)
  if (withNccl) {
    ncclUniqueId id{};
    ASSERT_EQ(ncclGetUniqueId(&id), ncclSuccess);
    comm.init(1, id, 0);
  }
  std::vector<float> gpu;
  double gpuLoss = 0;
  {
    CudaTrainer t(spec, 0, 1, withNccl ? &comm : nullptr);
    EXPECT_GE(t.buckets().size(), 2u);
    gpuLoss = t.step(0).loss;
    for (int s = 1; s < 5; ++s) t.step(s);
    gpu = t.params();
    EXPECT_EQ(t.lastEvents().size(), t.buckets().size());
  }
  comm.end();
  auto solo = makeSoloReducer();
  Trainer cpu(spec, *solo);
  const double cpuLoss = cpu.step(0).loss;
  for (int s = 1; s < 5; ++s) cpu.step(s);
  EXPECT_NEAR(gpuLoss, cpuLoss, 1e-3 * cpuLoss) << "the first step's loss (same data, same initial parameters)";
  expectClose(gpu, cpu.model().params());
}

// Runs everywhere: with no GPU the command's check is an honest usage error (exit 2), naming the cause.
TEST(CudaTrainer, AbsentDeviceIsAUsageErrorThatSaysSo) {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) {
    EXPECT_EQ(requireCudaDevice(), count);
    return;
  }
  try {
    requireCudaDevice();
    FAIL() << "expected pf::UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device: "), std::string::npos) << e.what();
  }
}

TEST(CudaTrainer, SgdMatchesCpuTrainer) {
  PF_REQUIRE_GPU();
  compareWithCpu("sgd", false);
}

TEST(CudaTrainer, AdamMatchesCpuTrainer) {
  PF_REQUIRE_GPU();
  compareWithCpu("adam", false);
}

TEST(CudaTrainer, NcclPathMatchesCpuTrainer) {
  PF_REQUIRE_GPU();
  compareWithCpu("sgd", true);
}

TEST(CudaTrainer, LossDecreasesAndTimingsAreSane) {
  PF_REQUIRE_GPU();
  TrainerSpec spec = smallSpec("sgd");
  CudaTrainer t(spec, 0, 1, nullptr);
  const StepTiming first = t.step(0);
  for (int s = 1; s < 40; ++s) t.step(s % 4);  // four batches, as the CPU trainer's test
  const StepTiming last = t.step(0);           // the first batch again, after training
  EXPECT_LT(last.loss, first.loss);
  EXPECT_GT(last.stepUs, 0.0);
  EXPECT_GE(last.stepUs, last.computeUs);
  EXPECT_EQ(last.commUs, 0.0);
  // The checksum is the CPU model's formula over the same parameters.
  Mlp m(spec.model);
  m.params() = t.params();
  EXPECT_DOUBLE_EQ(t.checksum(), m.checksum());
}

}  // namespace
}  // namespace pf::scaling
