// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The modelled CUDA runtime and NCCL of modelled_runtime.hpp: the entry points the GPU code calls, with the
// signatures of the CUDA 13 and NCCL headers (which declare them extern "C"), one device, one rank.
#include "modelled_runtime.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <vector>

// The opaque handle types of the headers, defined here.
struct CUstream_st {
  std::deque<std::function<void()>> work;
  bool stuck = false;  // holds work that never finishes
};
struct CUevent_st {
  double seconds = 0;
};
struct ncclComm {
  int nranks = 1;
};

namespace pf::test::modelled {
namespace {

State g;
// Pageable host-to-device copies staged by cudaMemcpy whose DMA has not landed: they land when the legacy
// stream is next ordered with the host (a cudaMemcpy of another kind, a legacy stream wait).
std::vector<std::function<void()>> pendingLegacyDma;
// Point-to-point calls between ncclGroupStart and ncclGroupEnd, matched at the end.
struct P2p {
  void* buf;
  size_t bytes;
  cudaStream_t stream;
};
int groupDepth = 0;
std::vector<P2p> sends, recvs;
std::map<const char*, size_t> pinned;  // cudaHostAlloc'ed ranges: start -> bytes
bool anyStuck = false;                 // some stream holds work that never finishes

bool isPinned(const void* p) {
  const auto* c = static_cast<const char*>(p);
  auto it = pinned.upper_bound(c);
  return it != pinned.begin() && c < std::prev(it)->first + std::prev(it)->second;
}

void stick(cudaStream_t s) {
  s->stuck = true;
  anyStuck = true;
}

void landLegacyDma() {
  for (auto& f : pendingLegacyDma) f();
  pendingLegacyDma.clear();
}

void enqueue(cudaStream_t s, std::function<void()> f) {
  if (s == nullptr) {  // the legacy stream: in order with the host here
    landLegacyDma();
    f();
    return;
  }
  if (g.stuck) stick(s);
  s->work.push_back(std::move(f));
}

// Runs the stream's work; false when it cannot finish.
bool drain(cudaStream_t s) {
  if (s == nullptr) return landLegacyDma(), true;
  if (s->stuck) return false;
  while (!s->work.empty()) {
    auto f = std::move(s->work.front());
    s->work.pop_front();
    f();
  }
  return true;
}

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

// One rank: every reduction of one contribution is that contribution, every collective a copy.
ncclResult_t copyOn(cudaStream_t s, void* dst, const void* src, size_t bytes) {
  enqueue(s, [=] { std::memmove(dst, src, bytes); });
  return ncclSuccess;
}

}  // namespace

State& state() { return g; }
void reset() {
  g = State{};
  pendingLegacyDma.clear();
  groupDepth = 0;
  sends.clear();
  recvs.clear();
  pinned.clear();
  anyStuck = false;
}

}  // namespace pf::test::modelled

using pf::test::modelled::g;

// ---- CUDA runtime ----
cudaError_t cudaGetDeviceCount(int* count) { return *count = 1, cudaSuccess; }
cudaError_t cudaSetDevice(int) { return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int* v) { return *v = 13000, cudaSuccess; }
cudaError_t cudaRuntimeGetVersion(int* v) { return *v = 13000, cudaSuccess; }
cudaError_t cudaGetLastError() { return cudaSuccess; }
const char* cudaGetErrorString(cudaError_t) { return "modelled CUDA error"; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int) {
  std::memset(prop, 0, sizeof *prop);
  std::strcpy(prop->name, "modelled GPU");
  return cudaSuccess;
}
cudaError_t cudaDeviceGetPCIBusId(char* bus, int len, int) {
  std::strncpy(bus, "0000:00:00.0", static_cast<size_t>(len));
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* freeBytes, size_t* totalBytes) {
  *freeBytes = *totalBytes = size_t{1} << 30;
  return cudaSuccess;
}
cudaError_t cudaMalloc(void** p, size_t bytes) {
  return (*p = std::malloc(bytes ? bytes : 1)) ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFree(void* p) { return std::free(p), cudaSuccess; }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int) { return *s = new CUstream_st, cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t s) { return delete s, cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t s) { return pf::test::modelled::drain(s) ? cudaSuccess : cudaErrorNotReady; }
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (!pf::test::modelled::drain(s)) ++g.blockedWaits;  // real hardware would wait here forever
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e) { return *e = new CUevent_st, cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { return delete e, cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  pf::test::modelled::enqueue(s, [e] {
    e->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  });
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = static_cast<float>((b->seconds - a->seconds) * 1e3);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  ++g.legacyCopies;
  if (kind == cudaMemcpyHostToDevice) {
    // Returns once the source is staged; the DMA lands later, in legacy-stream order.
    auto staged =
        std::make_shared<std::vector<char>>(static_cast<const char*>(src), static_cast<const char*>(src) + bytes);
    pf::test::modelled::pendingLegacyDma.push_back([dst, staged] { std::memcpy(dst, staged->data(), staged->size()); });
    return cudaSuccess;
  }
  pf::test::modelled::landLegacyDma();
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  namespace m = pf::test::modelled;
  const void* host = kind == cudaMemcpyHostToDevice ? src : kind == cudaMemcpyDeviceToHost ? dst : nullptr;
  if (host && !m::isPinned(host)) {
    // Pageable host memory: the copy is staged through the driver and the call returns when the stream has
    // reached it, outside any polling wait.
    if (!m::drain(s)) ++g.blockedWaits;
    std::memmove(dst, src, bytes);
    return cudaSuccess;
  }
  m::enqueue(s, [=] { std::memmove(dst, src, bytes); });
  return cudaSuccess;
}
cudaError_t cudaHostAlloc(void** p, size_t bytes, unsigned int) {
  *p = std::malloc(bytes ? bytes : 1);
  pf::test::modelled::pinned[static_cast<const char*>(*p)] = bytes;
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* p) {
  pf::test::modelled::pinned.erase(static_cast<const char*>(p));
  return std::free(p), cudaSuccess;
}
cudaError_t cudaMemset(void* p, int v, size_t bytes) {
  pf::test::modelled::landLegacyDma();
  return std::memset(p, v, bytes), cudaSuccess;
}

// ---- NCCL ----
ncclResult_t ncclGetVersion(int* v) { return *v = g.ncclVersion, ncclSuccess; }
ncclResult_t ncclGetUniqueId(ncclUniqueId* id) { return std::memset(id, 0, sizeof *id), ncclSuccess; }
ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId, int rank) {
  if (nranks != 1 || rank != 0) return ncclInvalidUsage;  // the model has one rank
  return *comm = new ncclComm, ncclSuccess;
}
ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  ++g.destroys;
  if (pf::test::modelled::anyStuck) ++g.blockedWaits;  // destroy waits for the communicator's work: never ends
  return delete comm, ncclSuccess;
}
ncclResult_t ncclCommAbort(ncclComm_t comm) { return ++g.aborts, delete comm, ncclSuccess; }
ncclResult_t ncclCommGetAsyncError(ncclComm_t, ncclResult_t* e) {
  return *e = g.asyncError ? ncclSystemError : ncclSuccess, ncclSuccess;
}
const char* ncclGetErrorString(ncclResult_t) { return "modelled NCCL error"; }
const char* ncclGetLastError(ncclComm_t) { return "modelled: a peer stopped answering"; }
ncclResult_t ncclAllReduce(const void* s, void* r, size_t n, ncclDataType_t t, ncclRedOp_t, ncclComm_t,
                           cudaStream_t st) {
  return pf::test::modelled::copyOn(st, r, s, n * pf::test::modelled::bytesOf(t));
}
ncclResult_t ncclBroadcast(const void* s, void* r, size_t n, ncclDataType_t t, int, ncclComm_t, cudaStream_t st) {
  return pf::test::modelled::copyOn(st, r, s, n * pf::test::modelled::bytesOf(t));
}
ncclResult_t ncclReduce(const void* s, void* r, size_t n, ncclDataType_t t, ncclRedOp_t, int, ncclComm_t,
                        cudaStream_t st) {
  return pf::test::modelled::copyOn(st, r, s, n * pf::test::modelled::bytesOf(t));
}
ncclResult_t ncclAllGather(const void* s, void* r, size_t n, ncclDataType_t t, ncclComm_t, cudaStream_t st) {
  return pf::test::modelled::copyOn(st, r, s, n * pf::test::modelled::bytesOf(t));
}
ncclResult_t ncclReduceScatter(const void* s, void* r, size_t n, ncclDataType_t t, ncclRedOp_t, ncclComm_t,
                               cudaStream_t st) {
  return pf::test::modelled::copyOn(st, r, s, n * pf::test::modelled::bytesOf(t));
}
ncclResult_t ncclGroupStart() { return ++pf::test::modelled::groupDepth, ncclSuccess; }
ncclResult_t ncclGroupEnd() {
  namespace m = pf::test::modelled;
  if (--m::groupDepth > 0) return ncclSuccess;
  // One rank: the k-th send to self pairs with the k-th receive from self.
  if (m::sends.size() != m::recvs.size()) return ncclInvalidUsage;
  for (size_t i = 0; i < m::sends.size(); ++i) {
    if (m::sends[i].bytes != m::recvs[i].bytes) return ncclInvalidUsage;
    m::copyOn(m::recvs[i].stream, m::recvs[i].buf, m::sends[i].buf, m::sends[i].bytes);
  }
  m::sends.clear();
  m::recvs.clear();
  return ncclSuccess;
}
// Outside a group, a send or receive waits for a peer that, with one rank, never answers: its stream sticks,
// as it would when the peer died.
ncclResult_t ncclSend(const void* buf, size_t n, ncclDataType_t t, int peer, ncclComm_t, cudaStream_t st) {
  namespace m = pf::test::modelled;
  if (peer != 0) return ncclInvalidUsage;
  if (m::groupDepth == 0) return m::stick(st), ncclSuccess;
  m::sends.push_back({const_cast<void*>(buf), n * m::bytesOf(t), st});
  return ncclSuccess;
}
ncclResult_t ncclRecv(void* buf, size_t n, ncclDataType_t t, int peer, ncclComm_t, cudaStream_t st) {
  namespace m = pf::test::modelled;
  if (peer != 0) return ncclInvalidUsage;
  if (m::groupDepth == 0) return m::stick(st), ncclSuccess;
  m::recvs.push_back({buf, n * m::bytesOf(t), st});
  return ncclSuccess;
}
