// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A backend's call table: the library call that runs each collective on that backend, keyed by the
// collective's registry key (Collective::key()). A collective is two halves: its descriptor
// (descriptors/<key>.cpp) says what the operation computes and how it is counted, and each backend registers,
// beside itself, the call that performs it (mpi/mpi_calls.cpp, nccl/nccl_calls.cpp). nccl-tests keeps
// ncclAllReduce beside AllReduceGetBw in src/all_reduce.cu; here the call stays in the backend's own target,
// so the descriptors need neither MPI nor NCCL.
//
// Contract: `Call` is the backend's own entry type (a struct of function pointers over the arguments that
// backend resolves per launch), so each backend has exactly one table, a function-local static like the
// registry's. A backend without a call for a collective has no entry; the backend's select() then throws a
// UsageError that names the collectives it does run, before the sweep allocates anything.
// tests/unit/collectives/call_table_test.cpp checks every backend's table against the collective registry,
// both ways (a call under a misspelt key is a missing call).
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <string>
#include <vector>

#include "pf/error.hpp"
#include "pf/registry.hpp"

namespace pf::collectives {

template <typename Call>
class CallTable {
 public:
  static CallTable& instance() {
    static CallTable table;
    return table;
  }

  /// Adds the call for the collective `key`; a later registration of the same key replaces the earlier one.
  void add(const std::string& key, Call call) { calls_[key] = call; }

  /// The call for `collective`; the reference stays valid for the life of the program.
  /// @param backend the backend's key, for the message
  /// @throws UsageError when this table has no call for `collective`
  const Call& get(const std::string& collective, const std::string& backend) const {
    auto it = calls_.find(collective);
    if (it == calls_.end())
      throw UsageError(
          fmt::format("collective '{}' is not implemented by the {} backend (it runs: {}); "
                      "choose one of those or another backend",
                      collective, backend, fmt::join(keys(), ", ")));
    return it->second;
  }

  /// Collective keys with a call, in sorted order.
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& [k, c] : calls_) out.push_back(k);
    return out;
  }

 private:
  std::map<std::string, Call> calls_;
};

/// Static registrar used by PF_REGISTER_CALL.
template <typename Call>
struct CallRegistrar {
  CallRegistrar(const std::string& key, Call call) { CallTable<Call>::instance().add(key, call); }
};

}  // namespace pf::collectives

/// Registers, in `Call`'s table, the call for the collective registered under `key`: the remaining arguments
/// initialise a `Call` (designated initializers read best: .run = allReduce, .loop = allReduceLoop).
#define PF_REGISTER_CALL(Call, key, ...) \
  static const ::pf::collectives::CallRegistrar<Call> PF_CONCAT(pf_call_registrar_, __COUNTER__)(key, Call{__VA_ARGS__})
