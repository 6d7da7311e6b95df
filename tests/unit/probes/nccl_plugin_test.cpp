// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The nccl probe on a live node loads the net plugin NCCL would load (dlopen, as NCCL does) and records whether
// it offers CollNet: the capacity model adds CollNet only where it does (scaling/in_switch.hpp).
#include <gtest/gtest.h>

#include "probe.hpp"

namespace pf::probes {
namespace {

Result runLive(const std::string& plugin) {
  return Registry<Probe>::instance().create("nccl")->run(
      SystemView("/", Environment({{"NCCL_NET_PLUGIN", plugin}}), /*live=*/true), {});
}

TEST(NcclPlugin, APluginWithTheCollNetEntryPointIsRecorded) {
  const Result r = runLive(PF_TEST_COLLNET_PLUGIN);
  EXPECT_EQ(r.params["net_plugin"], PF_TEST_COLLNET_PLUGIN);
  EXPECT_EQ(r.params["collnet_plugin"], "ncclCollNetPlugin_v8");
}

TEST(NcclPlugin, APluginWithoutItOffersNoCollNet) {
  const Result r = runLive(PF_TEST_NET_PLUGIN);
  EXPECT_EQ(r.params["net_plugin"], PF_TEST_NET_PLUGIN);
  EXPECT_TRUE(r.params["collnet_plugin"].is_null()) << r.params.dump();
}

}  // namespace
}  // namespace pf::probes
