// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA trainer's host side on the modelled CUDA runtime, NCCL and cuBLAS (modelled_runtime.hpp,
// modelled_cublas.cpp, modelled_kernels.cpp), no GPU: the column-major products and buffer offsets against the
// CPU trainer, NCCL's averaging over three ranks against one rank trained on the whole batch, and a peer that
// dies mid-step (issue 15, defect 6): the step must end in NcclError, nothing may wait on the stuck stream, and
// the communicator's owner must abort it. The kernels and cuBLAS themselves run in
// tests/unit/scaling/cuda_trainer_test.cpp on a GPU.
#include <gtest/gtest.h>
#include <nccl.h>

#include <cmath>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "cuda/cuda_trainer.hpp"
#include "modelled_runtime.hpp"
#include "nccl/nccl_check.hpp"
#include "pf/bootstrap.hpp"
#include "pf/error.hpp"
#include "reducer.hpp"
#include "trainer.hpp"

namespace pf::scaling {
namespace {

namespace modelled = pf::test::modelled;
constexpr int kSteps = 4;

TrainerSpec smallSpec(const std::string& opt) {
  TrainerSpec s;
  s.model.input = 12;
  s.model.width = 20;
  s.model.depth = 3;
  s.model.output = 5;
  s.batchPerRank = 6;
  s.optimizer.kind = opt;
  s.optimizer.lr = opt == "adam" ? 1e-3f : 0.02f;
  s.bucketCapBytes = 1 << 10;  // several buckets, so several all-reduces overlap backward
  return s;
}

std::vector<float> cpuParams(const TrainerSpec& spec) {
  auto solo = makeSoloReducer();
  Trainer cpu(spec, *solo);
  for (int s = 0; s < kSteps; ++s) cpu.step(s);
  return cpu.model().params();
}

// Float sums in another order: 1e-4 relative with a floor. A wrong layout or a missing wait is off by far more.
void expectClose(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int bad = 0;
  for (std::size_t i = 0; i < want.size() && bad < 5; ++i)
    if (!(std::abs(got[i] - want[i]) <= 1e-4 * std::abs(want[i]) + 1e-6)) {
      ADD_FAILURE() << what << ": param " << i << " is " << got[i] << ", expected " << want[i];
      ++bad;
    }
}

// A one-rank communicator in its owner (NcclComm, as CudaDevice in cuda_runner.cpp holds it).
void joinOneRankComm(NcclComm& comm) {
  ncclUniqueId id{};
  EXPECT_EQ(ncclGetUniqueId(&id), ncclSuccess);
  comm.init(1, id, 0);
}

// One rank, with and without a communicator, SGD and Adam: the CPU trainer's parameters. The initial parameters
// reach the device by cudaMemcpy on the legacy stream, which the trainer's non-blocking streams do not wait for:
// without the trainer's cudaDeviceSynchronize the first products read uninitialised memory.
TEST(CudaTrainerModelled, OneRankHoldsTheCpuTrainersParameters) {
  for (const std::string opt : {"sgd", "adam"})
    for (bool withNccl : {false, true}) {
      modelled::reset();
      const TrainerSpec spec = smallSpec(opt);
      std::vector<float> params;
      {
        NcclComm owner;
        if (withNccl) joinOneRankComm(owner);
        CudaTrainer t(spec, 0, 1, withNccl ? &owner : nullptr);
        ASSERT_GE(t.buckets().size(), 2u);
        for (int s = 0; s < kSteps; ++s) EXPECT_GT(t.step(s).loss, 0.0);
        params = t.params();
        EXPECT_EQ(t.lastEvents().size(), t.buckets().size());
      }
      expectClose(params, cpuParams(spec), opt + (withNccl ? " with NCCL" : " without NCCL"));
      EXPECT_EQ(modelled::state().blockedWaits, 0);
      EXPECT_EQ(modelled::state().destroys, withNccl ? 1 : 0);
      EXPECT_EQ(modelled::state().aborts, 0);
    }
}

// Three ranks (threads), each on its shard of the global batch, average their gradients with ncclAvg: every rank
// ends with the same parameters, those of one rank trained on the whole batch (summing instead of averaging
// would be three times the step).
TEST(CudaTrainerModelled, ThreeRanksAverageToTheWholeBatchOnOneRank) {
  modelled::reset();
  constexpr int kRanks = 3;
  const TrainerSpec spec = smallSpec("sgd");
  auto boots = makeThreadBootstraps(kRanks);
  std::vector<std::vector<float>> params(kRanks);
  std::vector<std::string> errors(kRanks);
  std::vector<std::thread> threads;
  for (int r = 0; r < kRanks; ++r)
    threads.emplace_back([&, r] {
      try {
        const ncclUniqueId id = shareNcclUniqueId(*boots[r]);
        NcclComm owner;
        owner.init(kRanks, id, r);
        CudaTrainer t(spec, r, kRanks, &owner);
        for (int s = 0; s < kSteps; ++s) t.step(s);
        params[r] = t.params();
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (int r = 0; r < kRanks; ++r) ASSERT_EQ(errors[r], "") << "rank " << r;
  for (int r = 1; r < kRanks; ++r) EXPECT_EQ(params[r], params[0]) << "rank " << r << " differs from rank 0";
  TrainerSpec whole = spec;
  whole.batchPerRank = spec.batchPerRank * kRanks;
  expectClose(params[0], cpuParams(whole), "three ranks against one on the whole batch");
  EXPECT_EQ(modelled::state().destroys, kRanks);
  EXPECT_EQ(modelled::state().blockedWaits, 0);
}

// A peer dies during the second step: the all-reduce's stream never finishes and the compute stream waits behind
// it. The step must throw NcclError from NCCL's asynchronous error; the trainer, destroyed while it leaves, must not
// synchronise a stream; the owner must abort the communicator, since ncclCommDestroy would wait forever.
TEST(CudaTrainerModelled, APeerThatDiesMidStepThrowsAndNothingWaitsForever) {
  modelled::reset();
  const TrainerSpec spec = smallSpec("sgd");
  auto run = [&] {
    NcclComm owner;
    joinOneRankComm(owner);
    CudaTrainer t(spec, 0, 1, &owner);
    t.step(0);
    modelled::state().peerDies = true;
    modelled::state().asyncError = true;
    t.step(1);
  };
  EXPECT_THROW(run(), NcclError);
  EXPECT_EQ(modelled::state().blockedWaits, 0) << "something waited on a stream that never finishes";
  EXPECT_EQ(modelled::state().aborts, 1);
  EXPECT_EQ(modelled::state().destroys, 0);
}

}  // namespace
}  // namespace pf::scaling
