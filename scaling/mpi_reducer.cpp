// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI group: MPI_Iallreduce per bucket, MPI_Test for progress. Built only when PF_HAVE_MPI.
#include <fmt/format.h>
#include <mpi.h>

#include <chrono>
#include <thread>
#include <vector>

#include "pf/error.hpp"
#include "reducer.hpp"

namespace pf::scaling {
namespace {
void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw MpiError(fmt::format("{} failed with MPI error {}", what, rc));
}

class MpiReducer final : public GradReducer {
 public:
  explicit MpiReducer(MPI_Comm c) : comm_(c) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiReducer() override {
    for (auto& r : reqs_)
      if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Comm_free(&comm_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int start(float* data, std::size_t count) override {
    reqs_.push_back(MPI_REQUEST_NULL);
    check(MPI_Iallreduce(MPI_IN_PLACE, data, static_cast<int>(count), MPI_FLOAT, MPI_SUM, comm_, &reqs_.back()),
          "MPI_Iallreduce");
    return static_cast<int>(reqs_.size()) - 1;
  }
  void reduceNow(float* data, std::size_t count) override {
    check(MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(count), MPI_FLOAT, MPI_SUM, comm_), "MPI_Allreduce");
  }
  bool test(int h) override {
    int flag = 0;
    check(MPI_Test(&reqs_[h], &flag, MPI_STATUS_IGNORE), "MPI_Test");
    if (flag && h == static_cast<int>(reqs_.size()) - 1) clearIfDone();
    return flag != 0;
  }
  void wait(int h) override {
    check(MPI_Wait(&reqs_[h], MPI_STATUS_IGNORE), "MPI_Wait");
    clearIfDone();
  }
  double allSum(double v) override { return reduce(v, MPI_SUM); }
  double allMax(double v) override { return reduce(v, MPI_MAX); }
  void barrier() override { MPI_Barrier(comm_); }

 private:
  double reduce(double v, MPI_Op op) {
    double out = 0;
    check(MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, op, comm_), "MPI_Allreduce");
    return out;
  }
  // Handles are indices; reset the list once nothing is outstanding so it does not grow across steps.
  void clearIfDone() {
    for (auto& r : reqs_)
      if (r != MPI_REQUEST_NULL) return;
    reqs_.clear();
  }
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<MPI_Request> reqs_;
};
}  // namespace

bool haveMpiReducer() { return true; }

void idleBarrier() {
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &req), "MPI_Ibarrier");
  for (int done = 0;;) {
    check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

std::unique_ptr<GradReducer> makeMpiReducer(int n) {
  int world = 0, rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (n > world) throw UsageError(fmt::format("--ranks {} exceeds the {} launched ranks", n, world));
  MPI_Comm sub = MPI_COMM_NULL;
  check(MPI_Comm_split(MPI_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &sub), "MPI_Comm_split");
  if (sub == MPI_COMM_NULL) return nullptr;
  return std::make_unique<MpiReducer>(sub);
}

}  // namespace pf::scaling
