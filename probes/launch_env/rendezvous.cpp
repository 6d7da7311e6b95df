// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rendezvous.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "net/net_interfaces.hpp"
#include "probe.hpp"

namespace pf::probes {
namespace {

std::vector<std::string> resolve(const std::string& host, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = getaddrinfo(host.c_str(), nullptr, &hints, &res);
  std::vector<std::string> out;
  if (rc != 0) {
    error = gai_strerror(rc);
    return out;
  }
  for (addrinfo* p = res; p; p = p->ai_next) {
    char buf[INET6_ADDRSTRLEN] = {};
    const void* a = p->ai_family == AF_INET
                        ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(p->ai_addr)->sin_addr)
                        : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(p->ai_addr)->sin6_addr);
    inet_ntop(p->ai_family, a, buf, sizeof buf);
    if (std::find(out.begin(), out.end(), buf) == out.end()) out.push_back(buf);
  }
  freeaddrinfo(res);
  return out;
}

/// 0 when the port can be bound here, else errno (EADDRINUSE when something already listens).
int tryBind(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return errno;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  int rc = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 ? 0 : errno;
  close(fd);
  return rc;
}

/// 0 when a TCP connection opened, ETIMEDOUT after `timeoutMs`, else the connect error.
int tryConnect(const std::string& addr, int port, int timeoutMs) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(addr.c_str(), std::to_string(port).c_str(), &hints, &res) != 0 || !res) return EHOSTUNREACH;
  int fd = socket(res->ai_family, SOCK_STREAM, 0);
  int rc = EHOSTUNREACH;
  if (fd >= 0) {
    fcntl(fd, F_SETFL, O_NONBLOCK);
    if (connect(fd, res->ai_addr, res->ai_addrlen) == 0) {
      rc = 0;
    } else if (errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      if (poll(&p, 1, timeoutMs) == 1) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
        rc = err;
      } else {
        rc = ETIMEDOUT;
      }
    } else {
      rc = errno;
    }
    close(fd);
  }
  freeaddrinfo(res);
  return rc;
}

}  // namespace

Result checkRendezvous(const JobEnv& job, const SystemView& sys, const EnvCheckOptions& opt) {
  Result r;
  r.key = "env.master";
  r.kind = Kind::kEnv;
  if (!job.masterAddr) {
    r.status = Status::kSkipped;
    r.message = "no master address from the launcher (torch.distributed needs MASTER_ADDR for more than one node)";
    return r;
  }
  const std::string master = *job.masterAddr;
  const int port = job.masterPort.value_or(29500);
  r.params = {{"master_addr", master}, {"master_port", port}};
  if (!opt.network) {
    r.status = Status::kSkipped;
    r.message = fmt::format("master {}:{} not tested ({})", master, port, opt.networkOff);
    return r;
  }
  std::string err;
  auto addrs = resolve(master, err);
  addEvidence(r, "master addresses", addrs, "getaddrinfo(" + master + ")");
  if (addrs.empty()) {
    r.status = Status::kFail;
    r.message = fmt::format("master address {} does not resolve on this node ({})", master, err);
    r.remedy = "use an IP address or a name every node resolves (DNS or /etc/hosts), e.g. the first node's address";
    return r;
  }
  std::set<std::string> local;
  for (const auto& a : addressesFromGetifaddrs()) local.insert(a.addr);
  const bool here = std::any_of(addrs.begin(), addrs.end(), [&](const std::string& a) { return local.count(a) != 0; });
  if (here) {
    int rc = tryBind(port);
    const bool rendezvousRunning = sys.env().has("TORCHELASTIC_RUN_ID");  // torchrun's store already holds it
    r.status = rc == 0 || (rc == EADDRINUSE && rendezvousRunning) ? Status::kPass : Status::kFail;
    r.message = rc == 0            ? fmt::format("this node is the master ({}); port {} is free", master, port)
                : rc == EADDRINUSE ? fmt::format("this node is the master ({}); port {} is in use{}", master, port,
                                                 rendezvousRunning ? " by the running rendezvous"
                                                                   : ": the job would fail with EADDRINUSE")
                                   : fmt::format("port {} cannot be bound here: {}", port, std::strerror(rc));
    if (r.status == Status::kFail)
      r.remedy = fmt::format("pick another MASTER_PORT or stop what holds {} (ss -ltnp 'sport = :{}')", port, port);
    return r;
  }
  int rc = tryConnect(addrs.front(), port, opt.connectTimeoutMs);
  addEvidence(r, "connect", rc == 0 ? "connected" : std::strerror(rc), fmt::format("TCP {}:{}", addrs.front(), port));
  if (rc == 0 || rc == ECONNREFUSED) {
    r.status = Status::kPass;
    r.message =
        fmt::format("master {} ({}) reachable; port {} {}", master, addrs.front(), port,
                    rc == 0 ? "accepts connections" : "refuses for now (nothing listens yet: fine before launch)");
    return r;
  }
  r.status = Status::kWarn;
  r.message = fmt::format("master {}:{} did not answer within {} ms ({}): a firewall or route may block the rendezvous",
                          master, port, opt.connectTimeoutMs, std::strerror(rc));
  r.remedy = fmt::format("open TCP port {} between the nodes, or check the route to {}", port, master);
  return r;
}

}  // namespace pf::probes
