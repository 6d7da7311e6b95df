// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// pf::NvmlSession and listGpuProcesses against tests/unit/core/fake_nvml.cpp (PF_FAKE_NVML, a shared library
// built beside this test), and against a library that is not there, as on a node without a GPU driver.
#include "pf/nvml.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace pf {
namespace {

TEST(Nvml, AMissingLibraryIsReportedWithTheReason) {
  NvmlSession nvml("/nonexistent/libnvidia-ml.so.1");
  EXPECT_FALSE(nvml.ok());
  EXPECT_NE(nvml.error().find("dlopen(/nonexistent/libnvidia-ml.so.1)"), std::string::npos) << nvml.error();
  std::vector<GpuProcess> out;
  std::string why;
  EXPECT_FALSE(listGpuProcesses(nvml, out, why));
  EXPECT_EQ(why, nvml.error());
  EXPECT_TRUE(out.empty());
}

TEST(Nvml, AFailedInitIsReportedInNvmlsWords) {
  setenv("PF_FAKE_NVML_INIT_FAILS", "1", 1);
  NvmlSession nvml(PF_FAKE_NVML);
  unsetenv("PF_FAKE_NVML_INIT_FAILS");
  EXPECT_FALSE(nvml.ok());
  EXPECT_EQ(nvml.error(), "nvmlInit: Driver Not Loaded");
}

TEST(Nvml, ListsEveryGpusComputeProcessesAskingAgainWhenThereIsNoRoom) {
  NvmlSession nvml(PF_FAKE_NVML);
  ASSERT_TRUE(nvml.ok()) << nvml.error();
  std::vector<GpuProcess> out;
  std::string why;
  ASSERT_TRUE(listGpuProcesses(nvml, out, why)) << why;
  ASSERT_EQ(out.size(), 21u);  // GPU 0's 20 need a second call: the first makes room for 16
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(out[static_cast<size_t>(i)].gpu, 0);
    EXPECT_EQ(out[static_cast<size_t>(i)].pid, 1000 + i);
    EXPECT_EQ(out[static_cast<size_t>(i)].usedBytes, (i + 1) * 1048576LL);
  }
  EXPECT_EQ(out[20].gpu, 1);
  EXPECT_EQ(out[20].pid, 4242);
  EXPECT_EQ(out[20].usedBytes, -1);  // NVML_VALUE_NOT_AVAILABLE
}

}  // namespace
}  // namespace pf
