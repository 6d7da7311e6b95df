// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// In-process data-parallel groups for tests: ThreadGroup gives n GradReducers that sum through shared memory
// (every rank sums the contributions in rank order, so all ranks get bit-identical results, like a real
// all-reduce); LaggingReducer is a one-rank reducer whose handles complete only after `lag` test() calls,
// to observe where the trainer starts and completes buckets.
#pragma once

#include <memory>
#include <vector>

#include "reducer.hpp"

namespace pf::scaling::test {

std::vector<std::unique_ptr<GradReducer>> makeThreadGroup(int n);

class LaggingReducer final : public GradReducer {
 public:
  explicit LaggingReducer(int lag) : lag_(lag) {}
  int rank() const override { return 0; }
  int size() const override { return 2; }  // pretends to have a peer, so the trainer times communication
  int start(float*, std::size_t) override {
    polls_.push_back(0);
    return static_cast<int>(polls_.size()) - 1;
  }
  bool test(int h) override { return ++polls_[h] > lag_; }
  void wait(int h) override { polls_[h] = lag_ + 1; }
  double allSum(double v) override { return v; }
  double allMax(double v) override { return v; }
  void barrier() override {}

 private:
  int lag_;
  std::vector<int> polls_;
};

}  // namespace pf::scaling::test
