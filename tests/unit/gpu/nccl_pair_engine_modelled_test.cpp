// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL pair engine's host side on the modelled CUDA runtime and NCCL (modelled_runtime.hpp), one rank, no
// GPU: a control value from a peer that died ends in NcclError from the polling wait, not in a copy that blocks
// outside it (issue 15, defect 6), and the communicator is aborted, not destroyed.
#include <gtest/gtest.h>

#include <array>

#include "modelled_runtime.hpp"
#include "nccl/nccl_pair_engine.hpp"
#include "pf/bootstrap.hpp"
#include "pf/error.hpp"
#include "pf/launcher_env.hpp"

namespace pf::check {
namespace {

namespace modelled = pf::test::modelled;

// The peer never sends: with one rank a lone receive is exactly that. NCCL has noticed (asyncError).
void recvFromADeadPeer(Bootstrap& boot) {
  auto engine = makeNcclPairEngine();
  engine->init(boot, LauncherEnv{});
  modelled::state().asyncError = true;
  std::array<double, 2> values{};
  engine->recvValues(0, values);
}

TEST(NcclPairEngineModelled, AValueFromADeadPeerThrowsWithoutABlockingCopy) {
  modelled::reset();
  auto boot = makeLocalBootstrap();
  EXPECT_THROW(recvFromADeadPeer(*boot), NcclError);
  EXPECT_EQ(modelled::state().blockedWaits, 0) << "a copy waited on the stuck stream outside the polling wait";
  EXPECT_EQ(modelled::state().aborts, 1);
  EXPECT_EQ(modelled::state().destroys, 0);
}

TEST(NcclPairEngineModelled, InitFindsTheModelledGpu) {
  modelled::reset();
  auto boot = makeLocalBootstrap();
  auto engine = makeNcclPairEngine();
  engine->init(*boot, LauncherEnv{});
  EXPECT_EQ(engine->info()["device"], "modelled GPU");
  EXPECT_EQ(engine->info()["nccl_version"], 22809);
}

}  // namespace
}  // namespace pf::check
