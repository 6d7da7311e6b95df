// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL half of the model (modelled_runtime.hpp), with the signatures of nccl.h. Ranks are threads of one
// process that share a clique per unique id. An operation runs when its rank's stream is waited for: the rank
// posts its buffers to the operation's round and waits for its peers. Collectives read every rank's input,
// wait until all have read, then write their own output (in-place is safe, as NCCL documents). Grouped sends
// and receives run rank after rank: rank 0 completes its receives, then rank 1, ... That is one order NCCL may
// choose, and the one in which a buffer that is both sent and received in one group (which NCCL does not
// support) hands a peer data already overwritten.
// Reductions cover every type NCCL has, in rank order; NCCL's avg on floating types multiplies each contribution
// by 1/n before summing, on integers it divides the sum. Half and bfloat16 are computed in float and rounded to
// their 16 bits after every step (reduce() below).
#include <nccl.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <type_traits>
#include <vector>

#include "modelled_internal.hpp"

namespace pf::test::modelled {
namespace {

struct P2p {
  int peer;
  void* buf;
  size_t bytes;
};
// One rank's part of a round: its buffers, or its grouped sends and receives.
struct Part {
  const void* send = nullptr;
  void* recv = nullptr;
  std::vector<P2p> sends, recvs;
};
struct Round {
  std::vector<Part> parts;
  int arrived = 0, read = 0, turn = 0;
};
struct Clique {
  int n = 1;
  std::mutex m;
  std::condition_variable cv;
  std::map<long, Round> rounds;  // by operation number (kept: a test's operations are few)
};

}  // namespace
}  // namespace pf::test::modelled

struct ncclComm {
  std::shared_ptr<pf::test::modelled::Clique> clique;
  int rank = 0;
  long next = 0;                        // the number of this rank's next operation
  std::set<cudaStream_t> streams = {};  // where its operations were enqueued (ncclCommAbort ends them)
};

namespace pf::test::modelled {
namespace {

std::map<long, std::shared_ptr<Clique>> cliques;  // by unique id (under detail::stateLock())
long nextId = 1;
thread_local int groupDepth = 0;
thread_local std::vector<P2p> groupSends, groupRecvs;
thread_local ncclComm* groupComm = nullptr;
thread_local cudaStream_t groupStream = nullptr;

size_t bytesOf(ncclDataType_t t) {
  switch (t) {
    case ncclInt8:
    case ncclUint8: return 1;
    case ncclFloat16:
    case ncclBfloat16: return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32: return 4;
    default: return 8;
  }
}

// Posts this rank's part of operation `op`, then either computes its output from every part (`compute`,
// reading only) and writes it after all ranks have read (`write`), or, in `turns`, runs `compute` alone in
// rank order, writing directly.
void runRound(ncclComm* c, long op, Part mine,
              const std::function<std::vector<char>(const std::vector<Part>&)>& compute,
              const std::function<void(const std::vector<char>&)>& write, bool turns) {
  Clique& q = *c->clique;
  std::unique_lock lk(q.m);
  Round& r = q.rounds[op];
  if (r.parts.empty()) r.parts.resize(static_cast<size_t>(q.n));
  r.parts[static_cast<size_t>(c->rank)] = std::move(mine);
  ++r.arrived;
  q.cv.notify_all();
  q.cv.wait(lk, [&] { return r.arrived == q.n; });
  if (turns) {
    q.cv.wait(lk, [&] { return r.turn == c->rank; });
    compute(r.parts);
    ++r.turn;
    q.cv.notify_all();
    q.cv.wait(lk, [&] { return r.turn == q.n; });  // a send completes once its peer has the data
    return;
  }
  lk.unlock();
  std::vector<char> out = compute(r.parts);
  lk.lock();
  ++r.read;
  q.cv.notify_all();
  q.cv.wait(lk, [&] { return r.read == q.n; });
  lk.unlock();
  write(out);
}

// How the model holds an element while it reduces: plain types as themselves; half and bfloat16 widened to
// float and rounded back to 16 bits after every step, as NCCL's kernels round each partial result. Half goes
// through the compiler's _Float16 and bfloat16 through its bit layout (the top half of a float, rounded to
// nearest even), not through the converters of collectives/verify.cpp that the checks under test use.
template <typename T>
struct Plain {
  using Stored = T;
  using Wide = T;
  static Wide load(T v) { return v; }
  static T store(Wide w) { return static_cast<T>(w); }
};
struct Half {
  using Stored = uint16_t;
  using Wide = float;
  static float load(uint16_t b) {
    _Float16 h;
    std::memcpy(&h, &b, sizeof b);
    return static_cast<float>(h);
  }
  static uint16_t store(float f) {
    const auto h = static_cast<_Float16>(f);
    uint16_t b;
    std::memcpy(&b, &h, sizeof b);
    return b;
  }
};
struct Bfloat16 {
  using Stored = uint16_t;
  using Wide = float;
  static float load(uint16_t b) {
    const uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  static uint16_t store(float f) {  // the inputs are finite: no NaN case
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
  }
};

template <typename C>
void reduce(const std::vector<Part>& parts, size_t offset, size_t count, ncclRedOp_t op, typename C::Stored* out) {
  using W = typename C::Wide;
  constexpr bool kFloating = std::is_floating_point_v<W>;
  const auto n = static_cast<int>(parts.size());
  const W inv = kFloating ? static_cast<W>(W(1) / static_cast<W>(n)) : W(0);
  auto in = [&](size_t q, size_t i) {
    return C::load(static_cast<const typename C::Stored*>(parts[q].send)[offset + i]);
  };
  auto rounded = [](W v) { return C::load(C::store(v)); };  // a partial result as the type holds it
  for (size_t i = 0; i < count; ++i) {
    W acc = op == ncclAvg && kFloating ? rounded(in(0, i) * inv) : in(0, i);
    for (size_t q = 1; q < parts.size(); ++q) {
      const W v = in(q, i);
      switch (op) {
        case ncclProd: acc = rounded(acc * v); break;
        case ncclMax: acc = std::max(acc, v); break;
        case ncclMin: acc = std::min(acc, v); break;
        case ncclAvg: acc = kFloating ? rounded(acc + rounded(v * inv)) : rounded(acc + v); break;
        default: acc = rounded(acc + v);
      }
    }
    if (op == ncclAvg && !kFloating) acc = static_cast<W>(acc / static_cast<W>(n));
    out[i] = C::store(acc);
  }
}

// Rank-order reduction of `count` elements from each part's send at `offset` into `out`.
void reduceAny(ncclDataType_t t, const std::vector<Part>& parts, size_t offset, size_t count, ncclRedOp_t op,
               void* out) {
  switch (t) {
    case ncclInt8: return reduce<Plain<int8_t>>(parts, offset, count, op, static_cast<int8_t*>(out));
    case ncclUint8: return reduce<Plain<uint8_t>>(parts, offset, count, op, static_cast<uint8_t*>(out));
    case ncclInt32: return reduce<Plain<int32_t>>(parts, offset, count, op, static_cast<int32_t*>(out));
    case ncclUint32: return reduce<Plain<uint32_t>>(parts, offset, count, op, static_cast<uint32_t*>(out));
    case ncclInt64: return reduce<Plain<int64_t>>(parts, offset, count, op, static_cast<int64_t*>(out));
    case ncclUint64: return reduce<Plain<uint64_t>>(parts, offset, count, op, static_cast<uint64_t*>(out));
    case ncclFloat16: return reduce<Half>(parts, offset, count, op, static_cast<uint16_t*>(out));
    case ncclBfloat16: return reduce<Bfloat16>(parts, offset, count, op, static_cast<uint16_t*>(out));
    case ncclFloat32: return reduce<Plain<float>>(parts, offset, count, op, static_cast<float*>(out));
    default: return reduce<Plain<double>>(parts, offset, count, op, static_cast<double*>(out));
  }
}

// Enqueues a collective whose output for rank `me` is `compute(parts)`, written to `recv` (nothing when empty).
ncclResult_t collective(ncclComm* c, cudaStream_t s, const void* send, void* recv,
                        std::function<std::vector<char>(const std::vector<Part>&, int me)> compute) {
  const long op = c->next++;
  bool peerDies = false;
  {
    std::lock_guard lk(detail::stateLock());
    peerDies = state().peerDies;
  }
  c->streams.insert(s);
  if (peerDies) detail::stick(s);
  detail::enqueue(s, [c, op, send, recv, compute = std::move(compute)] {
    Part mine;
    mine.send = send;
    mine.recv = recv;
    runRound(
        c, op, mine, [&](const std::vector<Part>& parts) { return compute(parts, c->rank); },
        [recv](const std::vector<char>& out) {
          if (!out.empty()) std::memcpy(recv, out.data(), out.size());
        },
        false);
  });
  return ncclSuccess;
}

// A send or receive joins the open group. Outside a group it waits for its peer; on one rank that is a peer that
// never answers: the stream sticks, as it would when the peer died. (The code under test groups every transfer
// it times.)
ncclResult_t post(std::vector<P2p>& list, void* buf, size_t n, ncclDataType_t t, int peer, ncclComm* c,
                  cudaStream_t st) {
  if (peer < 0 || peer >= c->clique->n) return ncclInvalidArgument;
  c->streams.insert(st);
  if (groupDepth == 0) return detail::stick(st), ncclSuccess;
  groupComm = c;
  groupStream = st;
  list.push_back({peer, buf, n * bytesOf(t)});
  return ncclSuccess;
}

}  // namespace

namespace detail {
void resetNccl() {
  std::lock_guard lk(stateLock());
  cliques.clear();
}
}  // namespace detail

}  // namespace pf::test::modelled

namespace m = pf::test::modelled;
using m::State;

ncclResult_t ncclGetVersion(int* v) {
  std::lock_guard lk(m::detail::stateLock());
  return *v = m::state().ncclVersion, ncclSuccess;
}
ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  std::memset(id, 0, sizeof *id);
  std::lock_guard lk(m::detail::stateLock());
  const long n = m::nextId++;
  std::memcpy(id->internal, &n, sizeof n);
  return ncclSuccess;
}
ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  if (nranks < 1 || rank < 0 || rank >= nranks) return ncclInvalidArgument;
  long key = 0;
  std::memcpy(&key, id.internal, sizeof key);
  std::lock_guard lk(m::detail::stateLock());
  auto& clique = m::cliques[key];
  if (!clique) {
    clique = std::make_shared<m::Clique>();
    clique->n = nranks;
  }
  if (clique->n != nranks) return ncclInvalidUsage;
  *comm = new ncclComm{clique, rank, 0};
  return ncclSuccess;
}
ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  m::detail::count(&State::destroys);
  // Destroy waits for the communicator's work, which on a stuck stream never ends.
  if (m::detail::anyStuck()) m::detail::count(&State::blockedWaits);
  return delete comm, ncclSuccess;
}
// Abort ends the communicator's kernels, those stuck on a dead peer too: its streams can be waited for again.
ncclResult_t ncclCommAbort(ncclComm_t comm) {
  m::detail::count(&State::aborts);
  for (cudaStream_t s : comm->streams) m::detail::endAborted(s);
  return delete comm, ncclSuccess;
}
ncclResult_t ncclCommGetAsyncError(ncclComm_t, ncclResult_t* e) {
  std::lock_guard lk(m::detail::stateLock());
  return *e = m::state().asyncError ? ncclSystemError : ncclSuccess, ncclSuccess;
}
const char* ncclGetErrorString(ncclResult_t) { return "modelled NCCL error"; }
const char* ncclGetLastError(ncclComm_t) { return "modelled: a peer stopped answering"; }

ncclResult_t ncclAllReduce(const void* s, void* r, size_t n, ncclDataType_t t, ncclRedOp_t op, ncclComm_t c,
                           cudaStream_t st) {
  return m::collective(c, st, s, r, [=](const std::vector<m::Part>& parts, int) {
    std::vector<char> out(n * m::bytesOf(t));
    m::reduceAny(t, parts, 0, n, op, out.data());
    return out;
  });
}
ncclResult_t ncclReduce(const void* s, void* r, size_t n, ncclDataType_t t, ncclRedOp_t op, int root, ncclComm_t c,
                        cudaStream_t st) {
  return m::collective(c, st, s, r, [=](const std::vector<m::Part>& parts, int me) {
    std::vector<char> out(me == root ? n * m::bytesOf(t) : 0);
    if (me == root) m::reduceAny(t, parts, 0, n, op, out.data());
    return out;
  });
}
ncclResult_t ncclReduceScatter(const void* s, void* r, size_t n, ncclDataType_t t, ncclRedOp_t op, ncclComm_t c,
                               cudaStream_t st) {
  return m::collective(c, st, s, r, [=](const std::vector<m::Part>& parts, int me) {
    std::vector<char> out(n * m::bytesOf(t));
    m::reduceAny(t, parts, static_cast<size_t>(me) * n, n, op, out.data());
    return out;
  });
}
ncclResult_t ncclBroadcast(const void* s, void* r, size_t n, ncclDataType_t t, int root, ncclComm_t c,
                           cudaStream_t st) {
  return m::collective(c, st, s, r, [=](const std::vector<m::Part>& parts, int) {
    const auto* src = static_cast<const char*>(parts[static_cast<size_t>(root)].send);
    return std::vector<char>(src, src + n * m::bytesOf(t));
  });
}
ncclResult_t ncclAllGather(const void* s, void* r, size_t n, ncclDataType_t t, ncclComm_t c, cudaStream_t st) {
  return m::collective(c, st, s, r, [=](const std::vector<m::Part>& parts, int) {
    const size_t block = n * m::bytesOf(t);
    std::vector<char> out(block * parts.size());
    for (size_t q = 0; q < parts.size(); ++q) std::memcpy(out.data() + q * block, parts[q].send, block);
    return out;
  });
}

ncclResult_t ncclGroupStart() { return ++m::groupDepth, ncclSuccess; }
ncclResult_t ncclGroupEnd() {
  if (--m::groupDepth > 0) return ncclSuccess;
  if (!m::groupComm) return ncclSuccess;
  m::Part mine;
  mine.sends = std::move(m::groupSends);
  mine.recvs = std::move(m::groupRecvs);
  ncclComm* c = m::groupComm;
  m::groupSends.clear();
  m::groupRecvs.clear();
  m::groupComm = nullptr;
  const long op = c->next++;
  m::detail::enqueue(m::groupStream, [c, op, mine] {
    // In this rank's turn: each receive from a peer takes that peer's matching send (k-th to k-th).
    auto receive = [c](const std::vector<m::Part>& parts) {
      std::map<int, size_t> taken;
      for (const m::P2p& r : parts[static_cast<size_t>(c->rank)].recvs) {
        size_t k = taken[r.peer]++;
        for (const m::P2p& s : parts[static_cast<size_t>(r.peer)].sends) {
          if (s.peer != c->rank) continue;
          if (k-- == 0) {
            std::memmove(r.buf, s.buf, std::min(r.bytes, s.bytes));
            break;
          }
        }
      }
      return std::vector<char>();
    };
    m::runRound(
        c, op, mine, receive, [](const std::vector<char>&) {}, true);
  });
  return ncclSuccess;
}
ncclResult_t ncclSend(const void* buf, size_t n, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t st) {
  return m::post(m::groupSends, const_cast<void*>(buf), n, t, peer, c, st);
}
ncclResult_t ncclRecv(void* buf, size_t n, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t st) {
  return m::post(m::groupRecvs, buf, n, t, peer, c, st);
}
