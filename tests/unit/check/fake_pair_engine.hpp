// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// An in-process pair engine for tests: ranks are threads (makeThreadBootstraps), messages go through one
// shared FakeWire, and every engine keeps its own virtual clock. A send of N bytes takes N / speed of the
// sender's time (the speed scripted per message), a message arrives `latency` later, and a receive moves the
// receiver's clock up to the arrival (Lamport's rule), so a round trip costs 2 x latency and the pair
// protocol's time cap and best-burst choice can be driven without sleeping. Mismatched sizes or kinds of
// message (data vs control) throw: the two ranks' protocol steps must match, as NCCL requires.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pair_engine.hpp"

namespace pf::check::testing {

/// One data message as the speed script sees it: `nth` counts the sender's earlier messages of this size.
struct FakeLink {
  int from = 0, to = 0;
  uint64_t bytes = 0;
  int nth = 0;
};

class FakeWire {
 public:
  using Speed = std::function<double(const FakeLink&)>;  ///< GB/s of one message

  struct Message {
    bool control = false;
    uint64_t bytes = 0;
    std::vector<double> values;
    double arrival = 0;  ///< on the virtual clock
  };

  /// @param controlSeconds a control message's fixed cost on top of the latency (NCCL's staging copies and kernel)
  explicit FakeWire(Speed speed, double latencySeconds = 0, double controlSeconds = 0)
      : speed_(std::move(speed)), latency_(latencySeconds), control_(controlSeconds) {}

  double speed(const FakeLink& l) const { return speed_(l); }
  double latency() const { return latency_; }
  double controlCost() const { return control_; }

  void push(int from, int to, Message m) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queues_[{from, to}].push_back(std::move(m));
    }
    cv_.notify_all();
  }
  Message pop(int from, int to) {
    std::unique_lock<std::mutex> lock(mu_);
    auto& q = queues_[{from, to}];
    // A protocol that waits for a message nobody sends would hang the test; fail it instead.
    if (!cv_.wait_for(lock, std::chrono::seconds(20), [&] { return !q.empty(); }))
      throw std::runtime_error("fake wire: no message arrived (the two ranks' protocol steps differ)");
    Message m = std::move(q.front());
    q.pop_front();
    return m;
  }

 private:
  Speed speed_;
  double latency_, control_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::pair<int, int>, std::deque<Message>> queues_;
};

class FakePairEngine final : public PairEngine {
 public:
  using OnPrepare = std::function<void(int rank, int peer, bool initiator)>;

  /// @param ack the engine's sendCompletesBeforeDelivery() (true: as MPI) @param onPrepare sees every pair
  explicit FakePairEngine(FakeWire& wire, bool ack = false, OnPrepare onPrepare = {})
      : PairEngine("fake"), wire_(wire), ack_(ack), onPrepare_(std::move(onPrepare)) {}

  void init(Bootstrap& boot, const LauncherEnv&) override { rank_ = boot.rank(); }
  Json info() const override { return Json::object(); }

  void prepare(int peer, uint64_t bytes, bool initiator) override {
    bufBytes_ = bytes;
    if (onPrepare_) onPrepare_(rank_, peer, initiator);
  }
  void postSend(int peer, uint64_t bytes) override {
    check(bytes);
    const FakeLink link{rank_, peer, bytes, sent_[bytes]++};
    clock_ += static_cast<double>(bytes) / (wire_.speed(link) * 1e9);
    wire_.push(rank_, peer, {false, bytes, {}, clock_ + wire_.latency()});
  }
  void postRecv(int peer, uint64_t bytes) override {
    check(bytes);
    FakeWire::Message m = wire_.pop(peer, rank_);
    if (m.control || m.bytes != bytes) throw std::logic_error("fake wire: a receive does not match its send");
    clock_ = std::max(clock_, m.arrival);
  }
  void complete() override { ++completes_; }
  void sendValues(int peer, std::span<const double> v) override {
    wire_.push(rank_, peer, {true, 0, {v.begin(), v.end()}, clock_ + wire_.latency() + wire_.controlCost()});
  }
  void recvValues(int peer, std::span<double> v) override {
    FakeWire::Message m = wire_.pop(peer, rank_);
    if (!m.control || m.values.size() != v.size())
      throw std::logic_error("fake wire: a control receive does not match its send");
    std::copy(m.values.begin(), m.values.end(), v.begin());
    clock_ = std::max(clock_, m.arrival);
  }
  bool sendCompletesBeforeDelivery() const override { return ack_; }
  double clockSeconds() const override { return clock_; }

  int completes() const { return completes_; }

 private:
  void check(uint64_t bytes) const {
    if (bytes > bufBytes_) throw std::logic_error("fake wire: a message larger than the prepared buffer");
  }

  FakeWire& wire_;
  bool ack_;
  OnPrepare onPrepare_;
  int rank_ = -1;
  uint64_t bufBytes_ = 0;
  double clock_ = 0;
  int completes_ = 0;
  std::map<uint64_t, int> sent_;
};

}  // namespace pf::check::testing
