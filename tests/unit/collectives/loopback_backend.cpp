// SPDX-License-Identifier: Apache-2.0
#include "loopback_backend.hpp"

#include <cstdlib>
#include <cstring>

#include "pf/timer.hpp"
#include "verify.hpp"

namespace pf::collectives::testing {

void* LoopbackBackend::allocate(size_t bytes) { return std::malloc(bytes); }
void LoopbackBackend::release(void* p) noexcept { std::free(p); }
void LoopbackBackend::toDevice(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }
void LoopbackBackend::toHost(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }

void LoopbackBackend::launch(const Launch& l) {
  ++launches;
  size_t bytes = l.count * sizeOf(l.dtype);
  if (l.send != l.recv) std::memmove(l.recv, l.send, bytes);
  // On one rank sum/prod/max/min/avg of a single input are the input itself: nothing more to do.
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
