// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Column-major care: the CPU model keeps W_l row-major [out x in] and activations row-major [batch x feat].
// cuBLAS is column-major, so it sees W_l as Wc = W^T [in x out] (ld in) and an activation as A^T
// [feat x batch] (ld feat). Each product below is the CPU's, transposed:
//   forward   Z = X W^T          ->  Z^T [out x B]  = Wc^T X^T        gemm(T, N, out, B, in)
//   backward  dW = dZ^T X        ->  dW^T [in x out] = X^T (dZ^T)^T   gemm(N, T, in, out, B)
//             dX = dZ W          ->  dX^T [in x B]   = Wc dZ^T        gemm(N, N, in, B, out)
#include "cuda/cuda_trainer.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <exception>

#include "cuda/cublas_check.hpp"
#include "cuda/cuda_kernels.hpp"
#include "nccl/nccl_check.hpp"
#include "pf/cuda_check.hpp"

namespace pf::scaling {
namespace {

template <typename T>
T* deviceAlloc(std::size_t n) {
  void* p = nullptr;
  PF_CUDA_CHECK(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)));
  return static_cast<T*>(p);
}

cudaEvent_t newEvent() {
  cudaEvent_t e = nullptr;
  PF_CUDA_CHECK(cudaEventCreate(&e));
  return e;
}

float elapsedUs(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  PF_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms * 1000.0f;
}

}  // namespace

struct CudaTrainer::Impl {
  TrainerSpec spec;
  int rank = 0, ranks = 1;
  NcclComm* comm = nullptr;
  Mlp host;  // initial parameters, slots, and the checksum of copied-back parameters
  std::vector<Bucket> buckets;
  std::vector<BucketEvent> events;
  std::vector<float> x, y;
  long long t = 0;  // optimizer steps taken (Adam's bias correction)

  cudaStream_t compute = nullptr, comms = nullptr;
  cublasHandle_t blas = nullptr;
  float *params = nullptr, *grads = nullptr, *m = nullptr, *v = nullptr;
  float *dx = nullptr, *dy = nullptr, *dA = nullptr, *dPrev = nullptr;
  std::vector<float*> acts;  // acts[l] = input of layer l; acts[depth] = output (as Mlp)
  double* loss = nullptr;
  cudaEvent_t evStart = nullptr, evBackEnd = nullptr, evWaited = nullptr, evEnd = nullptr;
  std::vector<cudaEvent_t> evLayer, evReady, evCommStart, evCommEnd;
  int exceptionsAtStart = std::uncaught_exceptions();

  Impl(const TrainerSpec& s, int r, int n, NcclComm* c)
      : spec(s), rank(r), ranks(n), comm(c), host(s.model), buckets(makeBuckets(host.slots(), s.bucketCapBytes)) {}

  void init() {
    const std::size_t np = host.params().size();
    const int B = spec.batchPerRank, depth = spec.model.depth;
    PF_CUDA_CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
    PF_CUDA_CHECK(cudaStreamCreateWithFlags(&comms, cudaStreamNonBlocking));
    PF_CUBLAS_CHECK(cublas().create(&blas));
    PF_CUBLAS_CHECK(cublas().setStream(blas, compute));
    // Plain FP32 (no TF32 tensor-op shortcut), so the result can be compared with the CPU model.
    PF_CUBLAS_CHECK(cublas().setMathMode(blas, CUBLAS_DEFAULT_MATH));
    params = deviceAlloc<float>(np);
    grads = deviceAlloc<float>(np);
    m = deviceAlloc<float>(np);
    v = deviceAlloc<float>(np);
    PF_CUDA_CHECK(cudaMemcpy(params, host.params().data(), np * sizeof(float), cudaMemcpyHostToDevice));
    PF_CUDA_CHECK(cudaMemset(grads, 0, np * sizeof(float)));
    PF_CUDA_CHECK(cudaMemset(m, 0, np * sizeof(float)));
    PF_CUDA_CHECK(cudaMemset(v, 0, np * sizeof(float)));
    int widest = spec.model.input;
    for (int l = 0; l < depth; ++l) widest = std::max(widest, spec.model.layerShape(l).second);
    dy = deviceAlloc<float>(static_cast<std::size_t>(B) * spec.model.output);
    dA = deviceAlloc<float>(static_cast<std::size_t>(B) * widest);
    dPrev = deviceAlloc<float>(static_cast<std::size_t>(B) * widest);
    acts.push_back(dx = deviceAlloc<float>(static_cast<std::size_t>(B) * spec.model.input));
    for (int l = 0; l < depth; ++l)
      acts.push_back(deviceAlloc<float>(static_cast<std::size_t>(B) * spec.model.layerShape(l).second));
    loss = deviceAlloc<double>(1);
    for (cudaEvent_t* e : {&evStart, &evBackEnd, &evWaited, &evEnd}) *e = newEvent();
    for (int l = 0; l < depth; ++l) evLayer.push_back(newEvent());
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      evReady.push_back(newEvent());
      evCommStart.push_back(newEvent());
      evCommEnd.push_back(newEvent());
    }
    // The copies and memsets above ran on the legacy stream, which the non-blocking streams do not wait for.
    PF_CUDA_CHECK(cudaDeviceSynchronize());
  }

  ~Impl() {  // cleanup path: warn, never throw
    // Leaving on an error: a stream may wait forever on a failed NCCL kernel, and synchronising or freeing would
    // wait with it before the communicator's owner can abort it. The process is about to exit (the error takes
    // the job down, cli/launch.cpp) and the driver frees what it holds.
    if (std::uncaught_exceptions() > exceptionsAtStart) return;
    if (compute) PF_CUDA_WARN(cudaStreamSynchronize(compute));
    if (comms) PF_CUDA_WARN(cudaStreamSynchronize(comms));
    for (cudaEvent_t e : {evStart, evBackEnd, evWaited, evEnd})
      if (e) PF_CUDA_WARN(cudaEventDestroy(e));
    for (auto* list : {&evLayer, &evReady, &evCommStart, &evCommEnd})
      for (cudaEvent_t e : *list) PF_CUDA_WARN(cudaEventDestroy(e));
    for (float* p : acts) PF_CUDA_WARN(cudaFree(p));  // acts[0] is dx
    for (void* p : std::initializer_list<void*>{params, grads, m, v, dy, dA, dPrev, loss})
      if (p) PF_CUDA_WARN(cudaFree(p));
    if (blas) cublas().destroy(blas);
    if (comms) PF_CUDA_WARN(cudaStreamDestroy(comms));
    if (compute) PF_CUDA_WARN(cudaStreamDestroy(compute));
  }

  const float* W(int l) const { return params + host.slots()[2 * l].paramOffset; }
  const float* b(int l) const { return params + host.slots()[2 * l + 1].paramOffset; }

  void forward(int B) {
    const float one = 1.0f, zero = 0.0f;
    for (int l = 0; l < spec.model.depth; ++l) {
      auto [in, out] = spec.model.layerShape(l);
      PF_CUBLAS_CHECK(cublas().sgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, out, B, in, &one, W(l), in, acts[l], in, &zero,
                                     acts[l + 1], out));
      cuda::addBiasActivation(acts[l + 1], b(l), B, out, l != spec.model.depth - 1, compute);
    }
    PF_CUDA_CHECK(cudaMemsetAsync(loss, 0, sizeof(double), compute));
    cuda::mseGrad(acts[spec.model.depth], dy, dA, static_cast<std::size_t>(B) * spec.model.output, B, loss, compute);
  }

  // Backward layer by layer; after layer l every bucket that is now complete gets its all-reduce enqueued on
  // the communication stream behind an event recorded on the compute stream.
  void backward(int B) {
    const float one = 1.0f, zero = 0.0f;
    std::size_t next = 0;
    for (int l = spec.model.depth - 1; l >= 0; --l) {
      auto [in, out] = spec.model.layerShape(l);
      if (l != spec.model.depth - 1) cuda::reluMask(dA, acts[l + 1], static_cast<std::size_t>(B) * out, compute);
      float* dW = grads + host.slots()[2 * l].gradOffset;
      float* db = grads + host.slots()[2 * l + 1].gradOffset;
      PF_CUBLAS_CHECK(
          cublas().sgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, in, out, B, &one, acts[l], in, dA, out, &zero, dW, in));
      cuda::biasGrad(dA, db, B, out, compute);
      if (l > 0) {
        PF_CUBLAS_CHECK(
            cublas().sgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, in, B, out, &one, W(l), in, dA, out, &zero, dPrev, in));
        std::swap(dA, dPrev);
      }
      PF_CUDA_CHECK(cudaEventRecord(evLayer[spec.model.depth - 1 - l], compute));
      while (next < buckets.size() && buckets[next].readyAfterLayer >= l) {
        if (comm) {
          const auto& bk = buckets[next];
          PF_CUDA_CHECK(cudaEventRecord(evReady[next], compute));
          PF_CUDA_CHECK(cudaStreamWaitEvent(comms, evReady[next], 0));
          PF_CUDA_CHECK(cudaEventRecord(evCommStart[next], comms));
          PF_NCCL_CHECK(
              ncclAllReduce(grads + bk.offset, grads + bk.offset, bk.count, ncclFloat, ncclAvg, comm->get(), comms));
          PF_CUDA_CHECK(cudaEventRecord(evCommEnd[next], comms));
        }
        events[next].startedAfterLayers = spec.model.depth - l;
        ++next;
      }
    }
  }

  void optimize() {
    ++t;
    const auto& o = spec.optimizer;
    const bool isAdam = o.kind == "adam";
    // Same float expressions as Optimizer::step, so the corrections round identically.
    const float c1 = isAdam ? 1.0f - std::pow(o.beta1, static_cast<float>(t)) : 1.0f;
    const float c2 = isAdam ? 1.0f - std::pow(o.beta2, static_cast<float>(t)) : 1.0f;
    for (const auto& s : host.slots()) {
      float* p = params + s.paramOffset;
      const float* g = grads + s.gradOffset;
      if (isAdam)
        cuda::adam(p, g, m + s.paramOffset, v + s.paramOffset, s.size, o.lr, o.beta1, o.beta2, o.eps, c1, c2, compute);
      else
        cuda::sgdMomentum(p, g, m + s.paramOffset, s.size, o.lr, o.momentum, compute);
    }
  }

  // Waits for the step by polling, so an asynchronous NCCL error surfaces instead of a hang.
  void waitDone() {
    if (comm) {
      waitNcclStream(compute, *comm);
    } else {
      PF_CUDA_CHECK(cudaStreamSynchronize(compute));
    }
  }

  StepTiming step(long long s) {
    StepTiming st;
    const int B = spec.batchPerRank, depth = spec.model.depth;
    syntheticBatch(spec.model, s, B * ranks, rank, ranks, x, y, spec.reversedSamples);
    PF_CUDA_CHECK(cudaMemcpyAsync(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice, compute));
    PF_CUDA_CHECK(cudaMemcpyAsync(dy, y.data(), y.size() * sizeof(float), cudaMemcpyHostToDevice, compute));
    events.assign(buckets.size(), BucketEvent{});
    PF_CUDA_CHECK(cudaEventRecord(evStart, compute));
    forward(B);
    backward(B);
    PF_CUDA_CHECK(cudaEventRecord(evBackEnd, compute));
    if (comm && !buckets.empty()) PF_CUDA_CHECK(cudaStreamWaitEvent(compute, evCommEnd.back(), 0));
    PF_CUDA_CHECK(cudaEventRecord(evWaited, compute));
    optimize();
    PF_CUDA_CHECK(cudaEventRecord(evEnd, compute));
    waitDone();
    double lossHost = 0;  // after the wait: a copy to pageable memory would block outside the NCCL-aware poll
    PF_CUDA_CHECK(cudaMemcpy(&lossHost, loss, sizeof(double), cudaMemcpyDeviceToHost));
    st.loss = lossHost;
    st.stepUs = elapsedUs(evStart, evEnd);
    st.computeUs = elapsedUs(evStart, evBackEnd);
    st.exposedUs = elapsedUs(evBackEnd, evWaited);
    st.restUs = elapsedUs(evWaited, evEnd);  // the optimizer (NCCL already averaged)
    if (!comm) {
      for (auto& e : events) e.completedAfterLayers = e.startedAfterLayers;
      return st;
    }
    // Union of the [start, end] intervals (ordered by start: one stream), in us since evStart; completion
    // counted in backward layers whose end precedes the all-reduce's end.
    double covered = 0, curS = -1, curE = -1;
    for (std::size_t k = 0; k < buckets.size(); ++k) {
      const double s0 = elapsedUs(evStart, evCommStart[k]), e0 = elapsedUs(evStart, evCommEnd[k]);
      if (s0 > curE) {
        if (curE > curS) covered += curE - curS;
        curS = s0;
        curE = e0;
      } else {
        curE = std::max(curE, e0);
      }
      int done = 0;
      for (int l = 0; l < depth; ++l) done += elapsedUs(evLayer[l], evCommEnd[k]) >= 0 ? 1 : 0;
      events[k].completedAfterLayers = std::max(done, events[k].startedAfterLayers);
    }
    if (curE > curS) covered += curE - curS;
    st.commUs = ranks > 1 ? covered : 0.0;
    return st;
  }
};

CudaTrainer::CudaTrainer(const TrainerSpec& spec, int rank, int ranks, NcclComm* comm)
    : impl_(std::make_unique<Impl>(spec, rank, ranks, comm)) {
  impl_->init();
}

CudaTrainer::~CudaTrainer() = default;

StepTiming CudaTrainer::step(long long step) { return impl_->step(step); }
const std::vector<Bucket>& CudaTrainer::buckets() const { return impl_->buckets; }
const std::vector<BucketEvent>& CudaTrainer::lastEvents() const { return impl_->events; }

std::vector<float> CudaTrainer::params() const {
  std::vector<float> out(impl_->host.params().size());
  PF_CUDA_CHECK(cudaStreamSynchronize(impl_->compute));
  PF_CUDA_CHECK(cudaMemcpy(out.data(), impl_->params, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return out;
}

double CudaTrainer::checksum() const {
  impl_->host.params() = params();
  return impl_->host.checksum();
}

}  // namespace pf::scaling
