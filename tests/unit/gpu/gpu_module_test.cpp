// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The GPU module's loader. CTest runs each case in a process of its own, so each opens its module afresh.
#include "pf/gpu_module.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "pf/error.hpp"

namespace pf::gpu {
namespace {

using ::testing::HasSubstr;

void useModule(const char* path) { ASSERT_EQ(setenv("PREFLIGHT_GPU_MODULE", path, 1), 0); }

std::string entryError(const char* symbol) {
  try {
    entryAddress(symbol);
  } catch (const RuntimeFailure& e) {
    return e.what();
  }
  return {};
}

TEST(GpuModule, MissingModuleSaysWhereItLooked) {
  useModule("/nonexistent/preflight-gpu.so");
  EXPECT_THAT(unavailableReason(),
              HasSubstr("GPU support is not installed: there is no /nonexistent/preflight-gpu.so"));
  EXPECT_THAT(entryError(entries::kNcclBackend), HasSubstr("/nonexistent/preflight-gpu.so"));
}

TEST(GpuModule, DefaultPathIsBesideTheExecutablesBin) {
  unsetenv("PREFLIGHT_GPU_MODULE");
  EXPECT_THAT(modulePath(), HasSubstr("/lib/preflight/preflight-gpu.so"));
}

TEST(GpuModule, ModuleFromAnotherBuildIsRefused) {
  useModule(PF_FAKE_OTHER);
  EXPECT_THAT(unavailableReason(), HasSubstr("was built as preflight 0.0.0 another build"));
  EXPECT_THAT(entryError(entries::kGpuRuntime), HasSubstr("install the two from the same build"));
}

TEST(GpuModule, MissingEntryIsNamed) {
  useModule(PF_FAKE_MATCHING);
  EXPECT_EQ(unavailableReason(), "");
  EXPECT_THAT(entryError(entries::kCudaWorldSize), HasSubstr("lacks pf_gpu_cuda_world_size"));
}

// The module holds the parts this build has (gpu/CMakeLists.txt): each entry of those binds, and each entry of a
// part left out (the CUDA trainer without OpenBLAS) is named as missing rather than crashing its caller.
TEST(GpuModule, EveryEntryOfThisBuildsPartsBinds) {
  if (std::string(PF_REAL_GPU_MODULE).empty()) GTEST_SKIP() << "this build has no GPU module (no CUDA or no NCCL)";
  const std::string built = std::string(",") + PF_REAL_GPU_ENTRIES + ",";
  ASSERT_NE(built, ",,") << "the module's parts exported no entry";
  useModule(PF_REAL_GPU_MODULE);
  ASSERT_EQ(unavailableReason(), "");
  for (const char* symbol : entries::kAll) {
    if (built.find(std::string(",") + symbol + ",") != std::string::npos) {
      EXPECT_EQ(entryError(symbol), "") << symbol;
    } else {
      EXPECT_THAT(entryError(symbol), HasSubstr(std::string("lacks ") + symbol));
    }
  }
}

}  // namespace
}  // namespace pf::gpu
