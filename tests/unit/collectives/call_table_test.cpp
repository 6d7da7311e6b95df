// SPDX-License-Identifier: Apache-2.0
// Every backend's call table against the collective registry, both ways: a registered collective without a
// call cannot run on that backend, and a call under a key no descriptor registers is a misspelt key. The
// backends in this build (MPI, NCCL) are created without init(), which needs no MPI, GPU or NCCL; NCCL's comes
// from this build tree's preflight-gpu.so, as `preflight` gets it.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "backend.hpp"
#include "loopback_backend.hpp"
#include "pf/error.hpp"

namespace pf::collectives {
namespace {

std::vector<std::string> collectiveKeys() { return Registry<Collective>::instance().keys(); }

void expectComplete(const Backend& be) {
  EXPECT_FALSE(collectiveKeys().empty());
  EXPECT_EQ(be.collectives(), collectiveKeys()) << "the " << be.key() << " backend's call table";
}

TEST(CallTable, LoopbackRunsEveryCollective) { expectComplete(testing::LoopbackBackend()); }

TEST(CallTable, MpiBackendRunsEveryCollective) {
  auto be = Registry<Backend>::instance().create("mpi");
  if (!be) GTEST_SKIP() << "this build has no MPI backend";
  EXPECT_EQ(be->key(), "mpi");
  expectComplete(*be);
}

TEST(CallTable, EveryBackendInThisBuildRunsEveryCollective) {
#ifdef PF_GPU_MODULE_PATH
  setenv("PREFLIGHT_GPU_MODULE", PF_GPU_MODULE_PATH, 0);
#endif
  for (const std::string& key : Registry<Backend>::instance().keys())
    expectComplete(*Registry<Backend>::instance().create(key));
}

TEST(CallTable, MissingCallIsAUsageErrorNamingTheBackendAndWhatItRuns) {
  testing::LoopbackBackend be;
  try {
    be.select("all_to_one");
    FAIL() << "select() accepted a collective without a call";
  } catch (const UsageError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'all_to_one' is not implemented by the loopback backend"), std::string::npos) << what;
    EXPECT_NE(what.find("all_gather, all_reduce"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(be.select("all_reduce"));
}

}  // namespace
}  // namespace pf::collectives
