// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA half of the model (modelled_runtime.hpp): the runtime entry points the GPU code calls, with the
// signatures of the CUDA 13 headers (which declare them extern "C"), one device.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "modelled_internal.hpp"

// The opaque handle type of the header, defined here (streams: modelled_internal.hpp).
struct CUevent_st {
  double seconds = 0;
  cudaStream_t stream = nullptr;  // where it was last recorded (null: the legacy stream, reached at once)
  long long ticket = 0;           // the record's item number on that stream
};

namespace pf::test::modelled {
namespace {

State g;
std::mutex mu;  // guards g, pinned, live
// Pageable host-to-device copies staged by cudaMemcpy, and memsets, that have not landed: they land when the legacy
// stream is next ordered with the host (a cudaMemcpy of another kind, a legacy stream wait). Per rank thread.
thread_local std::vector<std::function<void()>> pendingLegacyDma;
std::map<const char*, size_t> pinned;  // cudaHostAlloc'ed ranges: start -> bytes
std::set<cudaStream_t> live;           // streams made and not yet destroyed, every rank's

bool isPinned(const void* p) {
  std::lock_guard lk(mu);
  const auto* c = static_cast<const char*>(p);
  auto it = pinned.upper_bound(c);
  return it != pinned.begin() && c < std::prev(it)->first + std::prev(it)->second;
}

void landLegacyDma() {
  for (auto& f : pendingLegacyDma) f();
  pendingLegacyDma.clear();
}

// Streams made on this rank's thread. They run together when the host waits for one of them (another thread's
// are that rank's to run).
thread_local std::vector<cudaStream_t> myStreams;

// Runs `s`'s next item if it may start; whether it ran.
bool step(cudaStream_t s) {
  if (s->stuck || s->work.empty()) return false;
  CUstream_st::Work& w = s->work.front();
  if (w.ready && !w.ready()) return false;
  auto run = std::move(w.run);
  s->work.pop_front();
  if (run) run();
  ++s->completed;
  return true;
}

// Runs work until `s` has completed `ticket` items; false when it cannot get there (it is stuck, or waits on a
// stream that is). The streams of this thread advance together, an item each in turn, as a GPU runs streams
// concurrently: work that another stream's event does not hold back may run before the work enqueued ahead of it
// elsewhere, so a missing cudaStreamWaitEvent shows.
bool runUntil(cudaStream_t s, long long ticket) {
  if (s == nullptr) return landLegacyDma(), true;
  while (s->completed < ticket) {
    bool progressed = step(s);
    for (cudaStream_t other : myStreams)
      if (other != s) progressed = step(other) || progressed;
    if (!progressed) return false;
  }
  return true;
}

bool drain(cudaStream_t s) { return s == nullptr ? (landLegacyDma(), true) : runUntil(s, s->enqueued); }

// What cudaDeviceSynchronize does, and with it every call that synchronises the device implicitly (cudaFree,
// cudaFreeHost): the legacy stream's copies land and this rank's streams run to their end. A stream that never
// finishes counts a wait that would block forever on real hardware.
void syncDevice() {
  landLegacyDma();
  for (cudaStream_t s : myStreams)
    if (!drain(s)) detail::count(&State::blockedWaits);
}

}  // namespace

State& state() { return g; }
void reset() {
  {
    std::lock_guard lk(mu);
    g = State{};
    pinned.clear();
  }
  pendingLegacyDma.clear();
  detail::resetNccl();
}

namespace detail {

std::mutex& stateLock() { return mu; }
void count(int State::*counter) {
  std::lock_guard lk(mu);
  ++(g.*counter);
}
void enqueue(cudaStream_t s, std::function<void()> f) { enqueueWhen(s, nullptr, std::move(f)); }
void enqueueWhen(cudaStream_t s, std::function<bool()> ready, std::function<void()> f) {
  if (s == nullptr) {  // the legacy stream: in order with the host here (a wait on it has nothing to run)
    landLegacyDma();
    if (f) f();
    return;
  }
  bool stuckNow = false;
  {
    std::lock_guard lk(mu);
    stuckNow = g.stuck;
  }
  if (stuckNow) stick(s);
  ++s->enqueued;
  s->work.push_back({std::move(ready), std::move(f)});
}
void stick(cudaStream_t s) {
  std::lock_guard lk(mu);
  s->stuck = true;
}
bool anyStuck() {
  std::lock_guard lk(mu);
  return std::any_of(live.begin(), live.end(), [](cudaStream_t s) { return s->stuck; });
}
void endAborted(cudaStream_t s) {
  std::lock_guard lk(mu);
  if (!live.count(s)) return;  // destroyed already
  s->stuck = false;
  s->work.clear();
  s->completed = s->enqueued;
}

}  // namespace detail

}  // namespace pf::test::modelled

namespace m = pf::test::modelled;
using m::State;

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
// cudaFree synchronises the device (the CUDA programming guide's implicit synchronisation; cudaFreeAsync exists to
// avoid it): freeing memory that a stuck NCCL kernel may touch waits for that kernel.
cudaError_t cudaFree(void* p) {
  m::syncDevice();
  return std::free(p), cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int) {
  m::myStreams.push_back(*s = new CUstream_st);
  std::lock_guard lk(m::mu);
  m::live.insert(*s);
  return cudaSuccess;
}
// Modelled as waiting for the stream's work. The API reference lets cudaStreamDestroy return at once and release
// the stream when its work is done, but a stream whose kernel never ends is never released either; the model is
// the stricter of the two, so that a destructor cannot rely on the difference.
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (!m::drain(s)) m::detail::count(&State::blockedWaits);
  std::erase(m::myStreams, s);
  {
    std::lock_guard lk(m::mu);
    m::live.erase(s);
  }
  return delete s, cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t s) { return m::drain(s) ? cudaSuccess : cudaErrorNotReady; }
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (!m::drain(s)) m::detail::count(&State::blockedWaits);  // real hardware would wait here forever
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e) { return *e = new CUevent_st, cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { return delete e, cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  e->stream = s;
  e->ticket = s ? s->enqueued + 1 : 0;
  m::detail::enqueue(s, [e] {
    e->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  });
  return cudaSuccess;
}
// The waiting stream's later work starts once the event's stream has reached the record (an event of this rank).
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int) {
  m::detail::enqueueWhen(s, [src = e->stream, ticket = e->ticket] { return !src || src->completed >= ticket; }, {});
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() { return m::syncDevice(), cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = static_cast<float>((b->seconds - a->seconds) * 1e3);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  m::detail::count(&State::legacyCopies);
  if (kind == cudaMemcpyHostToDevice) {
    // Returns once the source is staged; the DMA lands later, in legacy-stream order.
    auto staged =
        std::make_shared<std::vector<char>>(static_cast<const char*>(src), static_cast<const char*>(src) + bytes);
    m::pendingLegacyDma.push_back([dst, staged] { std::memcpy(dst, staged->data(), staged->size()); });
    return cudaSuccess;
  }
  m::landLegacyDma();
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  const void* host = kind == cudaMemcpyHostToDevice ? src : kind == cudaMemcpyDeviceToHost ? dst : nullptr;
  if (host && !m::isPinned(host)) {
    // Pageable host memory: the copy is staged through the driver and the call returns when the stream has
    // reached it, outside any polling wait.
    if (!m::drain(s)) m::detail::count(&State::blockedWaits);
    std::memmove(dst, src, bytes);
    return cudaSuccess;
  }
  m::detail::enqueue(s, [=] { std::memmove(dst, src, bytes); });
  return cudaSuccess;
}
cudaError_t cudaHostAlloc(void** p, size_t bytes, unsigned int) {
  *p = std::malloc(bytes ? bytes : 1);
  std::lock_guard lk(m::mu);
  m::pinned[static_cast<const char*>(*p)] = bytes;
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* p) {
  m::syncDevice();  // as cudaFree
  {
    std::lock_guard lk(m::mu);
    m::pinned.erase(static_cast<const char*>(p));
  }
  return std::free(p), cudaSuccess;
}
// Queued on the legacy stream behind its copies (asynchronous to the host for device memory).
cudaError_t cudaMemset(void* p, int v, size_t bytes) {
  m::pendingLegacyDma.push_back([=] { std::memset(p, v, bytes); });
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int v, size_t bytes, cudaStream_t s) {
  m::detail::enqueue(s, [=] { std::memset(p, v, bytes); });
  return cudaSuccess;
}
