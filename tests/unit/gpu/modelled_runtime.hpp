// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A modelled CUDA runtime and NCCL for testing the GPU code's host side on a machine without a GPU
// (modelled_runtime.cpp, modelled_nccl.cpp). It links in place of libcudart and libnccl and keeps "device"
// memory in host memory, one device; the ranks of a multi-rank test are threads (makeThreadBootstraps), each
// with its own stream. What it models is the ordering that the host code must get right, from the CUDA runtime
// API's "API synchronization behavior" and "Stream synchronization behavior" sections:
//   - work on a stream runs when the host waits for that stream (cudaStreamQuery, cudaStreamSynchronize),
//     not when it is enqueued; the rank's other streams advance with it, an item each in turn, so work that
//     no event holds back (cudaStreamWaitEvent) may run ahead of work enqueued earlier on another stream;
//   - cudaMemset of device memory is queued on the legacy stream, as cudaMemcpy's DMA is (below);
//   - cudaMemcpy from pageable host memory to the device returns once the source is staged, and its DMA
//     lands later, ordered with the legacy default stream only: a stream made with cudaStreamNonBlocking
//     does not wait for it;
//   - a copy between the device and pageable host memory (not from cudaMallocHost) returns only when the
//     stream has reached it;
//   - NCCL's operations rendezvous across the ranks when each rank's stream runs them (modelled_nccl.cpp says
//     in which order);
//   - a "stuck" stream (a peer that died; any send or receive outside a group) never finishes:
//     waiting on it blocks forever, which is counted here (`blockedWaits`) instead of hanging the test, and
//     NCCL reports the failure asynchronously. cudaFree and cudaFreeHost wait for the whole device, and
//     cudaStreamDestroy for its stream, as implicit synchronisation makes them; ncclCommAbort ends the
//     communicator's stuck work (its kernels end), after which those waits return.
// cuBLAS's SGEMM and the CUDA trainer's kernels are done on the host in stream order (modelled_cublas.cpp,
// modelled_kernels.cpp). It is a test double for ordering and error paths, not a measurement of anything.
#pragma once

namespace pf::test::modelled {

struct State {
  int ncclVersion = 22809;       ///< what ncclGetVersion reports (2.28.9)
  bool stuck = false;            ///< new stream work never finishes
  bool asyncError = false;       ///< ncclCommGetAsyncError reports ncclSystemError
  bool peerDies = false;         ///< new collectives never finish: their stream sticks, as when a peer died
  int aborts = 0, destroys = 0;  ///< ncclCommAbort / ncclCommDestroy calls
  int blockedWaits = 0;          ///< waits that would block forever on real hardware
  int legacyCopies = 0;          ///< cudaMemcpy calls (the legacy stream)
};

/// The model's state; reset() before each test.
State& state();
void reset();

}  // namespace pf::test::modelled
