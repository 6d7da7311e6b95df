// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair protocol: what both ranks of a pair do, in the same order, over any engine's transport
// (pair_engine.hpp). The driver (pair_driver.hpp) calls it on the two leader ranks of each pair.
//
// Contract: both ranks call measurePair() with the same options, at the same time; the initiator gets the
// sample, the responder gets an empty one.
//  - Latency first: `latIters` timed round trips of `latBytes` (after 5 untimed ones that also open lazy
//    connections, as Open MPI's TCP BTL makes on the first message); the median half round trip.
//  - Then one untimed message each way (large-message protocols set up their own connections), then the
//    initiator's direction, then the responder's.
//  - A direction is up to `bwTrials` bursts of `bwIters` messages; the best burst counts. Interference (the
//    simulated cluster shares its cores; real nodes run daemons) only ever slows a burst, while a slow link
//    slows every burst, so the best one measures the link.
//  - The sender alone decides when to stop: before each burst it announces the burst's message count (0 ends
//    the direction), so the receiver can post receives of known size (NCCL needs them) and the time cap needs no
//    agreement. A burst starts while less than `maxSecondsPerDirection` has passed (the first always does), so
//    a throttled link costs a bounded time (the cap plus one burst) instead of stalling the whole check.
//  - Where a completed send does not mean delivery (PairEngine::sendCompletesBeforeDelivery: MPI, NCCL), a burst
//    ends on the receiver's acknowledgement, and the acknowledgement's own one-way trip (half the fastest of three
//    control round trips, announced as -1 before the bursts) is taken off each burst's time.
//  - Each sender measured its own direction; the responder hands its figure to the initiator.
#pragma once

#include "pair_engine.hpp"

namespace pf::check {

/// Measures the pair (this rank, `peer`) over `engine`. @param initiator true on exactly one of the two ranks
PairSample measurePair(PairEngine& engine, int peer, bool initiator, const PairOptions& opts);

}  // namespace pf::check
