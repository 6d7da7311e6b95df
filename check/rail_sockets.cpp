// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rail_sockets.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pf/error.hpp"
#include "pf/result.hpp"

namespace pf::check {
namespace {

// A pair that stops answering (a dead peer, a rail that drops every packet) must end the run with an error, not
// hang it: every blocking call gives up after this long.
constexpr int kRailTimeoutSeconds = 30;

[[noreturn]] void railFailure(const std::string& what) {
  throw SystemError(fmt::format("rail transport: {}: {}", what, std::strerror(errno)));
}

sockaddr_in railAddress(const std::string& ip, int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, ip.c_str(), &a.sin_addr) != 1) throw SystemError("rail transport: bad IPv4 address " + ip);
  return a;
}

// Bound to the rail's address, and to its interface where the process may (CAP_NET_RAW): the source address alone
// lets the kernel route by the destination, which lies in the rail's own subnet.
int railSocket(const std::string& ip, const std::string& netdev) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) railFailure("socket");
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (!netdev.empty())
    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, netdev.c_str(), static_cast<socklen_t>(netdev.size()));
  sockaddr_in a = railAddress(ip, 0);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    railFailure("bind to " + ip + " (" + netdev + ")");
  }
  return fd;
}

void railTuned(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // the latency loop sends 8-byte messages
  timeval t{kRailTimeoutSeconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, sizeof t);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &t, sizeof t);
}

}  // namespace

RailSockets::~RailSockets() {
  for (int fd : listening_) close(fd);
  for (const auto& [key, fd] : conns_) close(fd);
}

void RailSockets::open(Bootstrap& boot, const RailPlan& plan) {
  me_ = boot.rank();
  count_ = plan.count;
  Json mine = Json::array();
  for (const Rail& r : plan.byRank.at(static_cast<size_t>(me_))) {
    const int fd = railSocket(r.address, r.netdev);
    if (listen(fd, 8) != 0) railFailure("listen on " + r.address);
    sockaddr_in a{};
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    listening_.push_back(fd);
    netdevs_.push_back(r.netdev);
    mine.push_back(Json{{"address", r.address}, {"port", ntohs(a.sin_port)}, {"nic", r.nic}});
  }
  for (const std::string& part : boot.allGather(mine.dump())) {
    std::vector<std::pair<std::string, int>> ends;
    std::vector<std::string> nics;
    for (const Json& e : Json::parse(part)) {
      ends.emplace_back(e.at("address").get<std::string>(), e.at("port").get<int>());
      nics.push_back(e.at("nic").get<std::string>());
    }
    endpoints_.push_back(std::move(ends));
    nics_.push_back(std::move(nics));
  }
}

const std::string& RailSockets::nic(int rank, int rail) const {
  return nics_.at(static_cast<size_t>(rank)).at(static_cast<size_t>(rail));
}

void RailSockets::connect(int peer, bool initiator) {
  if (conns_.count({peer, rail_})) return;
  const size_t r = static_cast<size_t>(rail_);
  int fd = -1;
  if (initiator) {
    const auto& [ip, port] = endpoints_.at(static_cast<size_t>(peer)).at(r);
    fd = railSocket(endpoints_.at(static_cast<size_t>(me_)).at(r).first, netdevs_.at(r));
    railTuned(fd);
    sockaddr_in a = railAddress(ip, port);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      close(fd);
      railFailure(
          fmt::format("connect over {} to rank {} at {}:{}", nics_[static_cast<size_t>(me_)][r], peer, ip, port));
    }
  } else {
    pollfd p{listening_.at(r), POLLIN, 0};
    if (poll(&p, 1, kRailTimeoutSeconds * 1000) != 1)
      railFailure(fmt::format("no connection from rank {} on {} within {} s", peer, nics_[static_cast<size_t>(me_)][r],
                              kRailTimeoutSeconds));
    fd = accept4(listening_[r], nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) railFailure("accept");
    railTuned(fd);
  }
  // Each side names itself, so a connection from anyone but the round's partner is an error, not a measurement.
  conns_[{peer, rail_}] = fd;
  const double hello[2] = {static_cast<double>(me_), static_cast<double>(rail_)};
  double theirs[2] = {-1, -1};
  send(peer, hello, sizeof hello);
  recv(peer, theirs, sizeof theirs);
  if (static_cast<int>(theirs[0]) != peer || static_cast<int>(theirs[1]) != rail_)
    throw SystemError(fmt::format("rail transport: expected rank {} on rail {}, got rank {} rail {}", peer, rail_,
                                  theirs[0], theirs[1]));
}

int RailSockets::fd(int peer) const {
  auto it = conns_.find({peer, rail_});
  PF_CHECK(it != conns_.end()) << "no rail connection to rank " << peer << " on rail " << rail_;
  return it->second;
}

void RailSockets::send(int peer, const void* data, uint64_t bytes) {
  const char* p = static_cast<const char*>(data);
  for (uint64_t done = 0; done < bytes;) {
    const ssize_t n = ::send(fd(peer), p + done, bytes - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) railFailure(fmt::format("send to rank {} on rail {}", peer, rail_));
    done += static_cast<uint64_t>(n);
  }
}

void RailSockets::recv(int peer, void* data, uint64_t bytes) {
  char* p = static_cast<char*>(data);
  for (uint64_t done = 0; done < bytes;) {
    const ssize_t n = ::recv(fd(peer), p + done, bytes - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = ECONNRESET;
    if (n <= 0) railFailure(fmt::format("receive from rank {} on rail {}", peer, rail_));
    done += static_cast<uint64_t>(n);
  }
}

}  // namespace pf::check
