// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// cuBLAS opened at run time (scaling/cuda/cublas_loader.hpp): every function the trainer calls resolves in the
// toolkit's library, and a status comes back with cuBLAS's own name for it. Neither needs a GPU: loading the
// library and naming a status touch no device.
#include "cuda/cublas_loader.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pf::scaling {
namespace {

TEST(CublasLoader, EveryFunctionTheTrainerCallsResolves) {
  const CublasApi& api = cublas();
  EXPECT_NE(api.create, nullptr);
  EXPECT_NE(api.destroy, nullptr);
  EXPECT_NE(api.setStream, nullptr);
  EXPECT_NE(api.setMathMode, nullptr);
  EXPECT_NE(api.sgemm, nullptr);
  EXPECT_EQ(&cublas(), &api);  // opened once
}

TEST(CublasLoader, StatusesAreNamedByCublasItself) {
  EXPECT_EQ(std::string(cublas().statusName(CUBLAS_STATUS_NOT_INITIALIZED)), "CUBLAS_STATUS_NOT_INITIALIZED");
  EXPECT_FALSE(std::string(cublas().statusString(CUBLAS_STATUS_ALLOC_FAILED)).empty());
}

}  // namespace
}  // namespace pf::scaling
