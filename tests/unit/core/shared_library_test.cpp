// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// pf::SharedLibrary: a library that is not there, and a symbol a library lacks, are reported in words that name
// the library; a symbol it has is bound. The fake libnvidia-ml built for nvml_test.cpp stands in as a library
// whose symbols are known.
#include "pf/shared_library.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pf {
namespace {

TEST(SharedLibrary, AMissingLibraryIsNamedAndBindsNothing) {
  SharedLibrary lib("libpreflight-no-such-library.so.7");
  EXPECT_NE(lib.error().find("libpreflight-no-such-library.so.7 not loadable"), std::string::npos) << lib.error();
  int (*fn)() = reinterpret_cast<int (*)()>(1);
  lib.bind("anything", fn);
  EXPECT_EQ(fn, nullptr);
}

TEST(SharedLibrary, ASymbolIsBoundAndTheFirstMissingOneIsReported) {
  SharedLibrary lib(PF_FAKE_NVML);
  ASSERT_EQ(lib.error(), "");
  int (*init)() = nullptr;
  lib.bind("nvmlInit_v2", init);
  EXPECT_NE(init, nullptr);
  EXPECT_EQ(lib.error(), "");
  int (*missing)() = nullptr;
  lib.bind("nvmlNoSuchFunction", missing);
  lib.bind("nvmlAnotherMissingOne", missing);
  EXPECT_EQ(missing, nullptr);
  EXPECT_EQ(lib.error(), std::string(PF_FAKE_NVML) + " lacks nvmlNoSuchFunction");
}

}  // namespace
}  // namespace pf
