// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL backend's host side on the modelled CUDA runtime and NCCL (modelled_runtime.hpp), one rank, no GPU:
// staging copies ordered with NCCL's stream (issue 15, defect 5), an asynchronous NCCL failure that surfaces
// as an error and aborts the communicator instead of hanging (defect 6), and avg/bfloat16 skipped on an NCCL
// older than 2.10 (defect 8). The GPU itself is validated by ci/gpu_validate.sh on a GPU machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "modelled_runtime.hpp"
#include "nccl/nccl_backend.hpp"
#include "pf/bootstrap.hpp"
#include "pf/error.hpp"
#include "pf/launcher_env.hpp"
#include "pf/registry.hpp"
#include "pf/sweep_row.hpp"
#include "sweep.hpp"

namespace pf::collectives {
namespace {

namespace modelled = pf::test::modelled;

SweepOptions small() {
  SweepOptions o;
  o.minBytes = 8;
  o.maxBytes = 4096;
  o.stepFactor = 8;
  o.iters = 2;
  o.warmup = 1;
  return o;
}

// Every collective, type and operation gives exactly the expected elements. The driver poisons the receive
// buffer and writes the input through the backend's toDevice before each checked launch: copies that do not
// order with NCCL's non-blocking stream (cudaMemcpy on the legacy stream, as before the fix) let the
// collective read stale input and the poison land afterwards, and every row counts wrong elements.
TEST(NcclBackendModelled, EveryCollectiveTypeAndOpIsExactOnOneRank) {
  modelled::reset();
  auto boot = makeLocalBootstrap();
  SweepOptions o = small();
  o.dtypes = parseDataTypes("all");
  o.ops = parseRedOps("all");
  for (const std::string& name : Registry<Collective>::instance().keys()) {
    auto be = makeNcclBackend();
    be->init(*boot, LauncherEnv{});
    auto coll = Registry<Collective>::instance().create(name);
    const auto names = be->collectives();
    if (std::find(names.begin(), names.end(), name) == names.end()) continue;
    Result r = runSweep(*be, *boot, *coll, o);
    ASSERT_FALSE(r.rows.empty()) << name;
    for (const Json& j : r.rows) EXPECT_EQ(*sweepRowFromJson(j).wrong, 0) << name << " " << j.dump();
    EXPECT_EQ(r.status, Status::kPass) << name;
  }
  EXPECT_EQ(modelled::state().legacyCopies, 0) << "staging copies must be on NCCL's stream";
  EXPECT_EQ(modelled::state().blockedWaits, 0);
}

// Three ranks (threads), every collective, out of place and in place: the model's grouped sends and receives run
// rank after rank, so an in-place alltoall or sendrecv that sent from the buffer it receives into (before the
// fix: one buffer in one group, which NCCL does not support) hands the next rank overwritten blocks. Float avg
// is NCCL's (each contribution times 1/n, then summed) and must pass the check's tolerance; half and bfloat16
// are rounded after every step, as NCCL's kernels round them.
TEST(NcclBackendModelled, ThreeRanksAreExactInPlaceToo) {
  modelled::reset();
  constexpr int kRanks = 3;
  auto boots = makeThreadBootstraps(kRanks);
  std::vector<std::vector<Result>> results(kRanks);
  std::vector<std::string> errors(kRanks);
  std::vector<std::thread> threads;
  for (int r = 0; r < kRanks; ++r) {
    threads.emplace_back([&, r] {
      try {
        LauncherEnv env;
        env.rank = env.local_rank = r;
        env.world_size = env.local_world_size = kRanks;
        SweepOptions o = small();
        o.dtypes = {DataType::kFloat, DataType::kInt32, DataType::kHalf, DataType::kBfloat16};
        o.ops = {RedOp::kSum, RedOp::kAvg, RedOp::kMax};
        for (const std::string& name : Registry<Collective>::instance().keys()) {
          auto be = makeNcclBackend();
          be->init(*boots[static_cast<size_t>(r)], env);
          auto coll = Registry<Collective>::instance().create(name);
          results[static_cast<size_t>(r)].push_back(runSweep(*be, *boots[static_cast<size_t>(r)], *coll, o));
        }
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const std::string& e : errors) ASSERT_EQ(e, "");
  ASSERT_EQ(results[0].size(), Registry<Collective>::instance().keys().size());
  for (const Result& r : results[0]) {
    ASSERT_FALSE(r.rows.empty());
    for (const Json& j : r.rows) EXPECT_EQ(*sweepRowFromJson(j).wrong, 0) << j.dump();
  }
}

// NCCL 2.9 has neither ncclAvg nor ncclBfloat16: the sweep skips those pairs and says so instead of failing.
TEST(NcclBackendModelled, AnNcclOlderThan210SkipsAvgAndBfloat16) {
  modelled::reset();
  modelled::state().ncclVersion = 20907;
  auto boot = makeLocalBootstrap();
  auto be = makeNcclBackend();
  be->init(*boot, LauncherEnv{});
  EXPECT_FALSE(be->supports(DataType::kFloat, RedOp::kAvg));
  EXPECT_FALSE(be->supports(DataType::kBfloat16, RedOp::kSum));
  EXPECT_TRUE(be->supports(DataType::kFloat, RedOp::kSum));
  SweepOptions o = small();
  o.dtypes = {DataType::kFloat, DataType::kBfloat16};
  o.ops = {RedOp::kSum, RedOp::kAvg};
  auto coll = Registry<Collective>::instance().create("all_reduce");
  Result r = runSweep(*be, *boot, *coll, o);
  int skipped = 0;
  for (const auto& e : r.evidence) skipped += e.what.find("skipped") != std::string::npos;
  EXPECT_EQ(skipped, 3);  // float avg, bfloat16 sum, bfloat16 avg
  for (const Json& j : r.rows) {
    EXPECT_EQ(j["dtype"], "float");
    EXPECT_EQ(j["op"], "sum");
  }
}

// Launches on a backend whose stream gets stuck and waits; the backend and its buffer are destroyed while the
// error leaves.
void launchOnAStuckStream(Bootstrap& boot) {
  auto be = makeNcclBackend();
  be->init(boot, LauncherEnv{});
  be->select("all_reduce");
  struct Buffer {  // freed before the backend, as runSweep's buffers are (cudaFree synchronises the device)
    Backend& be;
    void* p;
    ~Buffer() { be.release(p); }
  } buf{*be, be->allocate(64)};
  modelled::state().stuck = true;
  modelled::state().asyncError = true;
  Launch l;
  l.send = l.recv = buf.p;
  l.count = 16;
  be->launch(l);
  be->complete();
}

// A peer that dies leaves NCCL's stream stuck: waiting must end in NcclError (NCCL's asynchronous error), and the
// backend, destroyed while that error leaves, must abort the communicator: ncclCommDestroy would wait forever.
TEST(NcclBackendModelled, AnAsyncNcclErrorThrowsAndAbortsTheCommunicator) {
  modelled::reset();
  auto boot = makeLocalBootstrap();
  EXPECT_THROW(launchOnAStuckStream(*boot), NcclError);
  EXPECT_EQ(modelled::state().aborts, 1);
  EXPECT_EQ(modelled::state().destroys, 0);
  EXPECT_EQ(modelled::state().blockedWaits, 0);
}

// A peer dies while a sweep runs (issue 49, defect 1): the wait in runSweep throws NcclError with NCCL's kernel still
// stuck, and the sweep's buffers are freed as the error leaves. cudaFree synchronises the device, so unless the
// failed wait aborted the communicator first, the rank would wait there forever and never reach the code that takes
// the job down (cli/launch.cpp). Fails when waitNcclStream throws without aborting (one blocked wait per buffer).
TEST(NcclBackendModelled, APeerThatDiesMidSweepIsAbortedBeforeTheBuffersAreFreed) {
  modelled::reset();
  auto boot = makeLocalBootstrap();
  auto be = makeNcclBackend();
  be->init(*boot, LauncherEnv{});
  auto coll = Registry<Collective>::instance().create("all_reduce");
  modelled::state().peerDies = true;
  modelled::state().asyncError = true;
  EXPECT_THROW(runSweep(*be, *boot, *coll, small()), NcclError);
  EXPECT_EQ(modelled::state().blockedWaits, 0) << "a buffer's cudaFree waited on NCCL's stuck kernel";
  EXPECT_EQ(modelled::state().aborts, 1);
  be.reset();  // the backend's own end neither destroys nor aborts again
  EXPECT_EQ(modelled::state().aborts, 1);
  EXPECT_EQ(modelled::state().destroys, 0);
  EXPECT_EQ(modelled::state().blockedWaits, 0);
}

// After a clean run the communicator is destroyed (its work finished), not aborted.
TEST(NcclBackendModelled, ACleanRunDestroysTheCommunicator) {
  modelled::reset();
  auto boot = makeLocalBootstrap();
  {
    auto be = makeNcclBackend();
    be->init(*boot, LauncherEnv{});
  }
  EXPECT_EQ(modelled::state().destroys, 1);
  EXPECT_EQ(modelled::state().aborts, 0);
}

}  // namespace
}  // namespace pf::collectives
