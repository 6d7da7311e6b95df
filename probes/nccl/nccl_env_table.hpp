// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL_* variables Preflight knows, from the NCCL User Guide's "Environment Variables" page (through 2.30)
// and its troubleshooting page: which section documents them (system configuration, or debugging: "should
// not be used in production nor retained in scripts"), which are obsolete and what replaced them, and the
// syntax each accepts. Validation returns problems as text; the probe turns them into warn/fail.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf::probes {

/// kNotNccl: an NCCL_* name that images and builds set for themselves and NCCL never reads (no warning).
enum class NcclVarClass { kSystem, kDebug, kObsolete, kPytorch, kNotNccl };

struct NcclVarInfo {
  const char* name;
  NcclVarClass cls;
  const char* syntax;  ///< validator id: "", "bool", "int", "enum:A|B", "range:lo:hi", "list:A|B", ...
  const char* note;    ///< replacement for obsolete ones, or a short rule
};

/// nullptr for a name not in the table.
const NcclVarInfo* findNcclVar(const std::string& name);

/// The known name closest to `name` (edit distance <= 3), for "did you mean"; empty when none is close.
std::string closestNcclVar(const std::string& name);

struct VarProblem {
  Status status;
  std::string message;
  std::string remedy;
};

/// Checks one value against its variable's syntax (and the version-independent rules in the reference).
std::vector<VarProblem> validateNcclValue(const NcclVarInfo& info, const std::string& value);

/// Number of variables in the table (for evidence).
size_t ncclVarCount();

}  // namespace pf::probes
