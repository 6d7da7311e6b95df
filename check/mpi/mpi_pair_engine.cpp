// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI pair engine: host buffers and blocking point-to-point MPI between the two leader ranks of a pair.
// Bandwidth: the sender streams a burst of messages, then a marker, and waits for the receiver's
// acknowledgement; bytes over that time (one small round trip included, negligible against megabytes); the
// best of a few bursts. Latency: the median of
// timed 8-byte round trips, halved, after a warm-up that also opens the connection (Open MPI's TCP BTL
// connects lazily, on the first message, which would otherwise land in the first sample).
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "../pair_engine.hpp"
#include "mpi_bootstrap.hpp"
#include "pf/error.hpp"
#include "pf/stats.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"

namespace pf::check {
namespace {

constexpr int kTagData = 4101, kTagEnd = 4102, kTagAck = 4103, kTagLat = 4104, kTagResult = 4105, kTagTrialEnd = 4106;
constexpr int kLatWarmup = 5;

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

  PairSample measure(int peer, bool initiator, const PairOptions& o) override {
    buf_.resize(std::max<uint64_t>(o.bwBytes, o.latBytes));
    // Touch the buffer so first-touch page faults stay out of the timed loop.
    std::fill(buf_.begin(), buf_.end(), static_cast<char>(initiator ? 1 : 2));
    PairSample s;
    s.latUs = latency(peer, initiator, o);
    // Warm-up message each way (the large-message protocol has its own connection set-up in some BTLs).
    PairOptions warm = o;
    warm.bwIters = 1;
    warm.bwTrials = 1;
    stream(peer, initiator, warm);
    stream(peer, !initiator, warm);
    auto out = stream(peer, initiator, o);   // initiator sends
    auto in = stream(peer, !initiator, o);   // responder sends
    // Each sender measured its own direction; the responder reports its figure to the initiator.
    if (initiator) {
      double theirs[2] = {0, 0};
      PF_MPI_CHECK(MPI_Recv(theirs, 2, MPI_DOUBLE, peer, kTagResult, comm_, MPI_STATUS_IGNORE));
      s.bwOutGbps = out.gbps;
      s.bwMessagesOut = out.messages;
      s.bwInGbps = theirs[0];
      s.bwMessagesIn = static_cast<int>(theirs[1]);
      return s;
    }
    double mine[2] = {in.gbps, static_cast<double>(in.messages)};
    PF_MPI_CHECK(MPI_Send(mine, 2, MPI_DOUBLE, peer, kTagResult, comm_));
    return PairSample{};
  }

  Json info() const override {
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(version, &len);
    std::string v(version, static_cast<size_t>(len));
    if (auto nl = v.find('\n'); nl != std::string::npos) v.resize(nl);
    return Json{{"engine", "mpi"}, {"library", v}, {"buffers", "host"}};
  }

 private:
  struct Streamed {
    double gbps = 0;
    int messages = 0;
  };

  // One direction: `sending` streams `trials` bursts of `bwIters` messages, each closed by a marker the receiver
  // acknowledges; the best burst counts. Interference from other processes (the simulated cluster shares its
  // cores; real nodes run daemons) only ever slows a burst, while a slow link slows every burst, so the best
  // one measures the link. The sender alone decides when to stop, so the time cap needs no agreement.
  Streamed stream(int peer, bool sending, const PairOptions& o) {
    const int n = static_cast<int>(o.bwBytes);
    Streamed r;
    if (sending) {
      Timer total;
      for (int trial = 0; trial < o.bwTrials && (trial == 0 || total.seconds() < o.maxSecondsPerDirection);
           ++trial) {
        Timer t;
        int sent = 0;
        while (sent < o.bwIters && (sent == 0 || total.seconds() < o.maxSecondsPerDirection)) {
          PF_MPI_CHECK(MPI_Send(buf_.data(), n, MPI_BYTE, peer, kTagData, comm_));
          ++sent;
        }
        PF_MPI_CHECK(MPI_Send(nullptr, 0, MPI_BYTE, peer, kTagTrialEnd, comm_));
        PF_MPI_CHECK(MPI_Recv(nullptr, 0, MPI_BYTE, peer, kTagAck, comm_, MPI_STATUS_IGNORE));
        r.gbps = std::max(r.gbps, gbPerSecond(static_cast<double>(o.bwBytes) * sent, t.seconds()));
        r.messages += sent;
      }
      PF_MPI_CHECK(MPI_Send(nullptr, 0, MPI_BYTE, peer, kTagEnd, comm_));
      return r;
    }
    // MPI keeps messages between two ranks on one communicator in order, so each marker follows its burst.
    for (;;) {
      MPI_Status st;
      PF_MPI_CHECK(MPI_Recv(buf_.data(), n, MPI_BYTE, peer, MPI_ANY_TAG, comm_, &st));
      if (st.MPI_TAG == kTagEnd) break;
      if (st.MPI_TAG == kTagTrialEnd) {
        PF_MPI_CHECK(MPI_Send(nullptr, 0, MPI_BYTE, peer, kTagAck, comm_));
        continue;
      }
      ++r.messages;
    }
    return r;
  }

  double latency(int peer, bool initiator, const PairOptions& o) {
    const int n = static_cast<int>(o.latBytes);
    std::vector<double> halves;
    for (int i = 0; i < kLatWarmup + o.latIters; ++i) {
      Timer t;
      if (initiator) {
        PF_MPI_CHECK(MPI_Send(buf_.data(), n, MPI_BYTE, peer, kTagLat, comm_));
        PF_MPI_CHECK(MPI_Recv(buf_.data(), n, MPI_BYTE, peer, kTagLat, comm_, MPI_STATUS_IGNORE));
        if (i >= kLatWarmup) halves.push_back(t.micros() / 2);
      } else {
        PF_MPI_CHECK(MPI_Recv(buf_.data(), n, MPI_BYTE, peer, kTagLat, comm_, MPI_STATUS_IGNORE));
        PF_MPI_CHECK(MPI_Send(buf_.data(), n, MPI_BYTE, peer, kTagLat, comm_));
      }
    }
    // The median, not the mean: on shared cores one descheduled round trip would otherwise dominate.
    return initiator ? stats::median(halves) : 0;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<char> buf_;
};

PF_REGISTER_PAIR_ENGINE(MpiPairEngine, "mpi");

}  // namespace
}  // namespace pf::check
