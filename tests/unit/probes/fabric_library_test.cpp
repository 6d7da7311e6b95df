// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libfabric is opened when the efa probe's live query runs, not linked (probes/fabric/fabric_query.cpp). In a build
// with libfabric the library is on this machine, so the query must load it and get an answer from fi_getinfo (on a
// machine without EFA: "No data available"); in a build without it, the result says why there is none.
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <utility>
#include <vector>

#include "rdma_library.hpp"

namespace pf::probes {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGABRT};

// Each signal's handler (the sa_handler/sa_sigaction union, read as a pointer) and whether it takes siginfo.
std::vector<std::pair<void*, bool>> dispositions() {
  std::vector<std::pair<void*, bool>> out;
  for (int sig : kSignals) {
    struct sigaction a = {};
    sigaction(sig, nullptr, &a);
    out.emplace_back(reinterpret_cast<void*>(a.sa_handler), (a.sa_flags & SA_SIGINFO) != 0);
  }
  return out;
}

TEST(FabricLibrary, TheLiveQueryOpensLibfabricAtRunTime) {
  // Loading libfabric runs libinfinipath's constructor, which catches these signals; the query puts back what
  // was there (the default action, or a sanitizer's handler), so a stop or a crash ends the process as before.
  const auto before = dispositions();
  const FabricQuery q = queryEfaFabric();
#if PF_TEST_HAVE_LIBFABRIC
  ASSERT_TRUE(q.available) << q.result;
  EXPECT_EQ(q.version.rfind("1.", 0), 0u) << q.version;
  EXPECT_FALSE(q.result.empty());
  // Asked twice, the library is opened once and answers the same.
  EXPECT_EQ(queryEfaFabric().result, q.result);
#else
  EXPECT_FALSE(q.available);
  EXPECT_NE(q.result.find("libfabric"), std::string::npos) << q.result;
#endif
  EXPECT_EQ(dispositions(), before);
}

}  // namespace
}  // namespace pf::probes
