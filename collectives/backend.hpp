// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A collective backend: where buffers live and how one collective is launched. The MPI backend uses host
// buffers and MPI collectives; the NCCL backend uses device buffers and NCCL on a CUDA stream. The sweep
// driver is written against this interface only.
//
// Contract: select() picks, once per sweep, the collective that launch() runs, from the backend's call table
// (call_table.hpp); launch() enqueues one operation (it may return before the operation finishes, as NCCL
// does); complete() waits for everything enqueued. timeOne() measures a single operation as precisely as the backend
// can (host clock for MPI, CUDA events for NCCL). Errors are thrown as pf::Error subclasses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collective.hpp"
#include "pf/bootstrap.hpp"
#include "pf/launcher_env.hpp"
#include "pf/registry.hpp"
#include "pf/result.hpp"

namespace pf::collectives {

/// One operation of the selected collective, to launch.
struct Launch {
  const void* send = nullptr;
  void* recv = nullptr;
  size_t count = 0;  ///< Layout::paramCount
  DataType dtype = DataType::kFloat;
  RedOp op = RedOp::kSum;
  int root = 0;
  bool inPlace = false;
};

/// key() is the registry key ("mpi", "nccl"), handed over by the registry (pf::Registered).
class Backend : public Registered {
 public:
  using Registered::Registered;  // a test double names itself: LoopbackBackend() : Backend("loopback")
  /// Joins the ranks described by `boot`; called once before anything else.
  /// @param boot the control plane (rank, size, broadcast of an NCCL unique id)
  /// @param env  the launcher's view (local rank picks the GPU)
  virtual void init(Bootstrap& boot, const LauncherEnv& env) = 0;
  /// Whether this backend can run `t` with `op` (e.g. NCCL has no avg before 2.10).
  virtual bool supports(DataType t, RedOp op) const = 0;
  /// Registry keys of the collectives this backend has a call for (its call table), sorted.
  virtual std::vector<std::string> collectives() const = 0;
  /// Looks up the call that launch() makes from now on, so that a launch costs what the library call costs.
  /// @param collective a Collective::key()
  /// @throws UsageError when this backend has no call for `collective`
  virtual void select(const std::string& collective) = 0;
  /// Bytes the backend can allocate for buffers (host memory or GPU memory).
  virtual uint64_t memoryAvailable() const = 0;
  /// Host buffers of 2 MiB and more on transparent huge pages (pf/host_buffer.hpp) from the next allocate() on.
  /// Backends whose buffers are not host memory ignore it.
  void useHugePages(bool on) { hugePages_ = on; }
  virtual void* allocate(size_t bytes) = 0;
  virtual void release(void* p) noexcept = 0;
  /// Copies between the backend's buffers and host memory (plain memcpy for host backends).
  virtual void toDevice(void* dst, const void* src, size_t bytes) = 0;
  virtual void toHost(void* dst, const void* src, size_t bytes) = 0;
  virtual void launch(const Launch& op) = 0;
  /// Launches `op` `times` times back to back: the timed loop. A backend may resolve types and ops once
  /// here, so that the loop costs what a hand-written loop of library calls costs (bench/sweep_vs_bare).
  virtual void launchRepeated(const Launch& op, int times) {
    for (int i = 0; i < times; ++i) launch(op);
  }
  virtual void complete() = 0;
  /// Time of one operation in microseconds, launched and completed.
  virtual double timeOne(const Launch& op) = 0;
  /// Library names and versions for the result document's context.
  virtual Json info() const = 0;

 protected:
  bool hugePages_ = false;
};

}  // namespace pf::collectives

#define PF_REGISTER_BACKEND(Type, key) PF_REGISTER(::pf::collectives::Backend, Type, key)
