// SPDX-License-Identifier: Apache-2.0
#include "loopback_backend.hpp"

#include <cstdlib>
#include <cstring>

#include "pf/timer.hpp"
#include "verify.hpp"

namespace pf::collectives::testing {
namespace {

// On one rank every collective delivers this rank's input: sum/prod/max/min/avg of a single input are the
// input itself, and the gathers, scatters and shifts move the one block to itself.
void copy(const Launch& l) {
  if (l.send != l.recv) std::memmove(l.recv, l.send, l.count * sizeOf(l.dtype));
}
PF_REGISTER_CALL(LoopbackCall, "all_reduce", .run = copy);
PF_REGISTER_CALL(LoopbackCall, "all_gather", .run = copy);
PF_REGISTER_CALL(LoopbackCall, "reduce_scatter", .run = copy);
PF_REGISTER_CALL(LoopbackCall, "broadcast", .run = copy);
PF_REGISTER_CALL(LoopbackCall, "reduce", .run = copy);
PF_REGISTER_CALL(LoopbackCall, "alltoall", .run = copy);
PF_REGISTER_CALL(LoopbackCall, "sendrecv", .run = copy);

}  // namespace

void* LoopbackBackend::allocate(size_t bytes) {
  hugeAllocations += hugePages_;
  return std::malloc(bytes);
}
void LoopbackBackend::release(void* p) noexcept { std::free(p); }
void LoopbackBackend::toDevice(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }
void LoopbackBackend::toHost(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }

void LoopbackBackend::launch(const Launch& l) {
  ++launches;
  PF_CHECK(call_ != nullptr) << "launch before select()";
  call_->run(l);
  if (corrupt_ && l.count > 0) {
    double v = loadValue(l.dtype, l.recv, l.count / 2);
    storeValue(l.dtype, l.recv, l.count / 2, v + 1);
  }
}

double LoopbackBackend::timeOne(const Launch& l) {
  Timer t;
  launch(l);
  return t.micros();
}

}  // namespace pf::collectives::testing
