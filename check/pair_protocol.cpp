// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pair_protocol.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "pf/stats.hpp"
#include "pf/units.hpp"

namespace pf::check {
namespace {

constexpr int kLatWarmup = 5;

struct Streamed {
  double gbps = 0;  ///< the best burst; meaningful on the sender only
  int messages = 0;
};

double latency(PairEngine& e, int peer, bool initiator, const PairOptions& o) {
  std::vector<double> halves;
  for (int i = 0; i < kLatWarmup + o.latIters; ++i) {
    const double t0 = e.clockSeconds();
    // Leg 0 goes initiator -> responder, leg 1 back; each completes before the next is posted.
    for (int leg = 0; leg < 2; ++leg) {
      if ((leg == 0) == initiator)
        e.postSend(peer, o.latBytes);
      else
        e.postRecv(peer, o.latBytes);
      e.complete();
    }
    if (initiator && i >= kLatWarmup) halves.push_back((e.clockSeconds() - t0) * 1e6 / 2);
  }
  // The median, not the mean: on shared cores one descheduled round trip would otherwise dominate.
  return initiator ? stats::median(halves) : 0;
}

// The sender announces the next burst's message count, the receiver learns it; 0 ends the direction.
int announce(PairEngine& e, int peer, bool sending, int count) {
  double c = count;
  if (sending)
    e.sendValues(peer, {&c, 1});
  else
    e.recvValues(peer, {&c, 1});
  return static_cast<int>(c);
}

// Announced instead of a burst: one timed round trip of control values (the acknowledgement's probe).
constexpr int kAckProbe = -1;
constexpr int kAckProbes = 3;  ///< probes per direction; the fastest counts

// One round trip of a control value, sender first; the sender's time for it.
double controlRoundTrip(PairEngine& e, int peer, bool sending) {
  double v = 0;
  const double t0 = e.clockSeconds();
  if (sending) {
    e.sendValues(peer, {&v, 1});
    e.recvValues(peer, {&v, 1});
  } else {
    e.recvValues(peer, {&v, 1});
    e.sendValues(peer, {&v, 1});
  }
  return e.clockSeconds() - t0;
}

// One direction, `sending` on the sender's side.
Streamed stream(PairEngine& e, int peer, bool sending, const PairOptions& o) {
  Streamed r;
  const bool acked = e.sendCompletesBeforeDelivery();
  // An acknowledged burst's clock also runs while the acknowledgement comes back: a control value's one-way trip,
  // whose fixed cost (NCCL: a copy to the GPU, a send/receive kernel, a copy back, polling; 20-60 us) is no part of
  // the link's bandwidth and would lower the figure by 5-15% against a 335 us burst. Half the fastest control
  // round trip, measured here before the bursts, is taken off each burst's time.
  double ackSeconds = std::numeric_limits<double>::infinity();
  int probes = acked ? kAckProbes : 0;  // the sender's; the receiver follows the announcements
  const double start = e.clockSeconds();
  for (int trial = 0;;) {
    int count = 0;
    if (sending && probes > 0) {
      count = kAckProbe;
      --probes;
    } else if (sending && trial < o.bwTrials && (trial == 0 || e.clockSeconds() - start < o.maxSecondsPerDirection)) {
      count = o.bwIters;
    }
    count = announce(e, peer, sending, count);
    if (count == 0) return r;
    if (count == kAckProbe) {
      ackSeconds = std::min(ackSeconds, controlRoundTrip(e, peer, sending) / 2);
      continue;
    }
    ++trial;
    const double t0 = e.clockSeconds();
    for (int i = 0; i < count; ++i) {
      if (sending)
        e.postSend(peer, o.bwBytes);
      else
        e.postRecv(peer, o.bwBytes);
    }
    e.complete();
    double seconds = 0;
    if (acked) {
      // The burst counts once the receiver has it all: its acknowledgement, less the acknowledgement's own trip.
      double ack = 0;
      if (sending)
        e.recvValues(peer, {&ack, 1});
      else
        e.sendValues(peer, {&ack, 1});
      seconds = e.clockSeconds() - t0;
      // A burst under twice its acknowledgement is too short to tell the two apart: its whole time counts (a
      // figure that reads low, never one made high by noise in the probe).
      if (seconds > 2 * ackSeconds) seconds -= ackSeconds;
    } else {
      seconds = e.clockSeconds() - t0;
    }
    r.gbps = std::max(r.gbps, gbPerSecond(static_cast<double>(o.bwBytes) * count, seconds));
    r.messages += count;
  }
}

}  // namespace

PairSample measurePair(PairEngine& e, int peer, bool initiator, const PairOptions& o) {
  e.prepare(peer, std::max(o.bwBytes, o.latBytes), initiator);
  PairSample s;
  s.latUs = latency(e, peer, initiator, o);
  PairOptions warm = o;
  warm.bwIters = 1;
  warm.bwTrials = 1;
  stream(e, peer, initiator, warm);
  stream(e, peer, !initiator, warm);
  const Streamed out = stream(e, peer, initiator, o);  // the initiator sends
  const Streamed in = stream(e, peer, !initiator, o);  // the responder sends
  double figures[2] = {in.gbps, static_cast<double>(in.messages)};
  if (!initiator) {
    e.sendValues(peer, figures);
    return PairSample{};
  }
  e.recvValues(peer, figures);
  s.bwOutGbps = out.gbps;
  s.bwMessagesOut = out.messages;
  s.bwInGbps = figures[0];
  s.bwMessagesIn = static_cast<int>(figures[1]);
  return s;
}

}  // namespace pf::check
