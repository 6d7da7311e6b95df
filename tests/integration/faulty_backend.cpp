// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A test-only backend, "mpi-corrupt": the real MPI backend, except that the last rank flips one element of
// every result. It is linked only into the preflight_faulty test binary, never into preflight, and proves
// that a wrong element reaches the table, the JSON document and the exit code.
#include "backend.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class CorruptingBackend final : public Backend {
 public:
  CorruptingBackend() : inner_(Registry<Backend>::instance().create("mpi")) {}
  void init(Bootstrap& boot, const LauncherEnv& env) override {
    inner_->init(boot, env);
    corrupter_ = boot.rank() == boot.size() - 1;
  }
  bool supports(DataType t, RedOp op) const override { return inner_->supports(t, op); }
  std::vector<std::string> collectives() const override { return inner_->collectives(); }
  void select(const std::string& collective) override { inner_->select(collective); }
  uint64_t memoryAvailable() const override { return inner_->memoryAvailable(); }
  void* allocate(size_t bytes) override { return inner_->allocate(bytes); }
  void release(void* p) noexcept override { inner_->release(p); }
  void toDevice(void* d, const void* s, size_t n) override { inner_->toDevice(d, s, n); }
  void toHost(void* d, const void* s, size_t n) override { inner_->toHost(d, s, n); }
  void launch(const Launch& l) override {
    inner_->launch(l);
    if (corrupter_ && l.count > 0) storeValue(l.dtype, l.recv, 0, loadValue(l.dtype, l.recv, 0) + 1);
  }
  void complete() override { inner_->complete(); }
  double timeOne(const Launch& l) override { return inner_->timeOne(l); }
  Json info() const override { return inner_->info(); }

 private:
  std::unique_ptr<Backend> inner_;
  bool corrupter_ = false;
};

PF_REGISTER_BACKEND(CorruptingBackend, "mpi-corrupt");

}  // namespace
}  // namespace pf::collectives
