// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI pair engine: host buffers and blocking point-to-point MPI between the two leader ranks of a pair.
// Every operation completes when it is posted (MPI_Send/MPI_Recv), as the measurements always did; MPI keeps
// the messages between two ranks on one communicator and tag in order, so the protocol's sequence of data and
// control messages matches on both sides. A returned MPI_Send only frees its buffer (eager messages, TCP socket
// buffers), so bandwidth bursts end on the receiver's acknowledgement (sendCompletesBeforeDelivery).
// The protocol itself is pair_protocol.hpp. With several rails (check --rails), every pair message, data and
// control, goes over a TCP connection on the selected rail instead (rail_sockets.hpp says why not MPI).
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "../pair_engine.hpp"
#include "../rail_sockets.hpp"
#include "mpi_bootstrap.hpp"
#include "pf/error.hpp"

namespace pf::check {
namespace {

constexpr int kTagData = 4101, kTagControl = 4102;

class MpiPairEngine final : public PairEngine {
 public:
  ~MpiPairEngine() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
  }

  void init(Bootstrap& boot, const LauncherEnv&) override {
    auto* mpi = dynamic_cast<MpiBootstrap*>(&boot);
    if (!mpi) throw UsageError("the MPI pair engine needs the MPI bootstrap; this run was started without MPI");
    // Our own communicator: the pair traffic can never match a message of the bootstrap's barriers.
    PF_MPI_CHECK(MPI_Comm_dup(mpi->comm(), &comm_));
  }

  Json info() const override {
    Json j{{"engine", "mpi"}, {"library", mpiLibraryVersion()}, {"buffers", "host"}};
    if (rails_.count() > 0) j["rails"] = Json{{"count", rails_.count()}, {"transport", "TCP sockets, one per rail"}};
    return j;
  }

  bool canDriveRails() const override { return true; }
  void useRails(Bootstrap& boot, const RailPlan& plan) override { rails_.open(boot, plan); }
  int railCount() const override { return rails_.count(); }
  void selectRail(int rail) override { rails_.select(rail); }
  std::string railNic(int rank, int rail) const override { return rails_.nic(rank, rail); }

  void prepare(int peer, uint64_t bytes, bool initiator) override {
    if (rails_.count() > 0) rails_.connect(peer, initiator);
    buf_.resize(bytes);
    // Touch the buffer so first-touch page faults stay out of the timed loops.
    std::fill(buf_.begin(), buf_.end(), static_cast<char>(initiator ? 1 : 2));
  }
  void postSend(int peer, uint64_t bytes) override {
    if (rails_.count() > 0) return rails_.send(peer, buf_.data(), count(bytes));
    PF_MPI_CHECK(MPI_Send(buf_.data(), count(bytes), MPI_BYTE, peer, kTagData, comm_));
  }
  void postRecv(int peer, uint64_t bytes) override {
    if (rails_.count() > 0) return rails_.recv(peer, buf_.data(), count(bytes));
    PF_MPI_CHECK(MPI_Recv(buf_.data(), count(bytes), MPI_BYTE, peer, kTagData, comm_, MPI_STATUS_IGNORE));
  }
  void complete() override {}  // blocking calls: nothing is outstanding
  void sendValues(int peer, std::span<const double> v) override {
    if (rails_.count() > 0) return rails_.send(peer, v.data(), v.size_bytes());
    PF_MPI_CHECK(MPI_Send(v.data(), static_cast<int>(v.size()), MPI_DOUBLE, peer, kTagControl, comm_));
  }
  void recvValues(int peer, std::span<double> v) override {
    if (rails_.count() > 0) return rails_.recv(peer, v.data(), v.size_bytes());
    PF_MPI_CHECK(
        MPI_Recv(v.data(), static_cast<int>(v.size()), MPI_DOUBLE, peer, kTagControl, comm_, MPI_STATUS_IGNORE));
  }
  bool sendCompletesBeforeDelivery() const override { return true; }

 private:
  int count(uint64_t bytes) const {
    PF_CHECK(bytes <= buf_.size()) << "a pair message of " << bytes << " bytes exceeds the prepared buffer";
    return static_cast<int>(bytes);
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<char> buf_;
  RailSockets rails_;
};

PF_REGISTER_PAIR_ENGINE(MpiPairEngine, "mpi");

}  // namespace
}  // namespace pf::check
