// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// In-process ranks for tests. Each collective is two phases around a std::barrier: every rank writes its slot,
// all meet, every rank reads all slots, all meet again so no slot is overwritten while someone still reads.
#include <barrier>
#include <memory>
#include <mutex>

#include "pf/bootstrap.hpp"

namespace pf {
namespace {

struct Shared {
  explicit Shared(int n) : size(n), sync(n), slots(static_cast<size_t>(n)) {}
  int size;
  std::barrier<> sync;
  std::vector<std::string> slots;
};

class ThreadBootstrap final : public Bootstrap {
 public:
  ThreadBootstrap(std::shared_ptr<Shared> shared, int rank) : shared_(std::move(shared)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return shared_->size; }
  void barrier() override { shared_->sync.arrive_and_wait(); }
  std::vector<std::string> allGather(const std::string& local) override {
    shared_->slots[static_cast<size_t>(rank_)] = local;
    shared_->sync.arrive_and_wait();
    std::vector<std::string> all = shared_->slots;
    shared_->sync.arrive_and_wait();
    return all;
  }
  void broadcast(std::string& data, int root) override {
    if (rank_ == root) shared_->slots[static_cast<size_t>(root)] = data;
    shared_->sync.arrive_and_wait();
    if (rank_ != root) data = shared_->slots[static_cast<size_t>(root)];
    shared_->sync.arrive_and_wait();
  }
  std::string name() const override { return "threads"; }
  void abortAll(int) override {}

 private:
  std::shared_ptr<Shared> shared_;
  int rank_;
};

}  // namespace

std::vector<std::unique_ptr<Bootstrap>> makeThreadBootstraps(int n) {
  auto shared = std::make_shared<Shared>(n);
  std::vector<std::unique_ptr<Bootstrap>> out;
  for (int r = 0; r < n; ++r) out.push_back(std::make_unique<ThreadBootstrap>(shared, r));
  return out;
}

}  // namespace pf
