// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Bootstrap: how ranks find each other and exchange small control data (results to gather on rank 0, an
// NCCL unique id, per-rank timings). Rank setup must not need MPI: the local bootstrap serves single-process
// runs and tests; the MPI one (core/mpi/, built when MPI is present) serves real launches.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace pf {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;
  /// This process's rank in [0, size()).
  virtual int rank() const = 0;
  /// Number of ranks.
  virtual int size() const = 0;
  /// Blocks until every rank has entered.
  virtual void barrier() = 0;
  /// A barrier for ranks with nothing to do while others measure: it sleeps between polls instead of spinning
  /// (Open MPI's MPI_Barrier busy-polls), so the waiting ranks leave the cores to the ranks at work. With more
  /// ranks than cores, spinning waiters halved a measured pair's bandwidth at random on the simulated cluster.
  virtual void idleBarrier() { barrier(); }
  /// Every rank contributes `local` (any length); every rank receives all contributions in rank order.
  /// @param local this rank's bytes
  virtual std::vector<std::string> allGather(const std::string& local) = 0;
  /// Replaces `data` on every rank with root's `data`.
  /// @param data in on root, out elsewhere
  /// @param root the sending rank
  virtual void broadcast(std::string& data, int root) = 0;
  /// Name for logs and result documents ("local", "mpi").
  virtual std::string name() const = 0;
  /// Ends every rank with `exitCode`. Only the CLI calls it, when one rank failed in a way the others cannot
  /// learn about (they would wait in the next collective forever). Probes and backends throw instead.
  virtual void abortAll(int exitCode) = 0;

  /// Every rank's double, in rank order (built on allGather).
  std::vector<double> allGatherDouble(double v);
  /// Sum of every rank's integer.
  long long allSum(long long v);
};

/// One rank, no peers: the bootstrap of a run without a launcher.
std::unique_ptr<Bootstrap> makeLocalBootstrap();

/// `n` in-process ranks that exchange data through shared memory, one Bootstrap per rank, each to be driven
/// by its own thread. For unit tests of gather and cross-rank logic without MPI (as UCX's in-process
/// perftest ranks). Every rank must make the same sequence of collective calls, as with MPI.
std::vector<std::unique_ptr<Bootstrap>> makeThreadBootstraps(int n);

}  // namespace pf
