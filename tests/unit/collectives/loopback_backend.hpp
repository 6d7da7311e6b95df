// SPDX-License-Identifier: Apache-2.0
// A one-rank backend on host memory for driver tests: every collective on one rank is a copy (avg divides by
// one). `corruptEvery` > 0 flips one element of the output after each launch: the planted error.
#pragma once

#include "backend.hpp"

namespace pf::collectives::testing {

class LoopbackBackend : public Backend {
 public:
  explicit LoopbackBackend(bool corrupt = false) : Backend("loopback"), corrupt_(corrupt) {}
  void init(Bootstrap&, const LauncherEnv&) override {}
  bool supports(DataType, RedOp) const override { return true; }
  uint64_t memoryAvailable() const override { return 1ull << 34; }
  void* allocate(size_t bytes) override;
  void release(void* p) noexcept override;
  void toDevice(void* dst, const void* src, size_t bytes) override;
  void toHost(void* dst, const void* src, size_t bytes) override;
  void launch(const Launch& op) override;
  void complete() override {}
  double timeOne(const Launch& op) override;
  Json info() const override { return Json{{"backend", "loopback"}}; }
  int launches = 0;

 private:
  bool corrupt_;
};

}  // namespace pf::collectives::testing
