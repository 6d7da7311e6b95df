// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI engine's transport for every rail: one TCP connection per pair and rail, from the rail's address on one
// node to the same rail's address on the other. One launch has one MPI library whose TCP or UCX transport picks
// (and stripes over) interfaces itself, and Open MPI reads btl_tcp_if_include once per launch, so MPI cannot be told
// "this message over ib3"; a socket bound to ib3's address and connected to the peer's ib3 address can (the
// destination lies in that rail's subnet, and the socket is also bound to the device where the process may:
// SO_BINDTODEVICE). The bytes therefore cross exactly that NIC, cable and switch port. The control messages of the
// pair protocol travel on the same connection, in order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "pf/bootstrap.hpp"
#include "rails.hpp"

namespace pf::check {

class RailSockets {
 public:
  RailSockets() = default;
  ~RailSockets();
  RailSockets(const RailSockets&) = delete;
  RailSockets& operator=(const RailSockets&) = delete;

  /// Listens on each of this rank's rails and learns every rank's endpoints (a collective call).
  /// @throws SystemError naming the rail when a socket cannot be opened on its address
  void open(Bootstrap& boot, const RailPlan& plan);
  int count() const { return count_; }
  void select(int rail) { rail_ = rail; }
  int selected() const { return rail_; }
  /// The NIC of `rank` on `rail`, as its node named it.
  const std::string& nic(int rank, int rail) const;

  /// Connects to `peer` on the selected rail (the initiator connects, the other accepts), once per peer and rail.
  void connect(int peer, bool initiator);
  void send(int peer, const void* data, uint64_t bytes);
  void recv(int peer, void* data, uint64_t bytes);

 private:
  int fd(int peer) const;

  int me_ = 0, count_ = 0, rail_ = 0;
  std::vector<int> listening_;                                       ///< per rail of this rank
  std::vector<std::vector<std::pair<std::string, int>>> endpoints_;  ///< rank -> rail -> (address, port)
  std::vector<std::vector<std::string>> nics_;                       ///< rank -> rail -> NIC
  std::vector<std::string> netdevs_;                                 ///< this rank's rail interfaces
  std::map<std::pair<int, int>, int> conns_;                         ///< (peer, rail) -> connected socket
};

}  // namespace pf::check
