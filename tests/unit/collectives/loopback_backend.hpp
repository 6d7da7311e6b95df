// SPDX-License-Identifier: Apache-2.0
// A one-rank backend on host memory for driver tests: every collective on one rank is a copy (avg divides by
// one). `corrupt` flips one element of the output after each launch: the planted error. Like a real backend
// it has a call table (loopback_backend.cpp), which call_table_test checks against the collective registry.
#pragma once

#include "backend.hpp"
#include "call_table.hpp"

namespace pf::collectives::testing {

/// How one collective runs on the loopback backend.
struct LoopbackCall {
  void (*run)(const Launch& l) = nullptr;
};

class LoopbackBackend : public Backend {
 public:
  explicit LoopbackBackend(bool corrupt = false) : Backend("loopback"), corrupt_(corrupt) {}
  void init(Bootstrap&, const LauncherEnv&) override {}
  bool supports(DataType, RedOp) const override { return true; }
  std::vector<std::string> collectives() const override { return CallTable<LoopbackCall>::instance().keys(); }
  void select(const std::string& collective) override {
    call_ = &CallTable<LoopbackCall>::instance().get(collective, key());
  }
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
  int hugeAllocations = 0;  ///< allocate() calls made while useHugePages(true) held

 private:
  bool corrupt_;
  const LoopbackCall* call_ = nullptr;
};

}  // namespace pf::collectives::testing
