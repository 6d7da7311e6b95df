// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Value syntax of NCCL variables, as the NCCL User Guide documents it. A value NCCL would reject or silently
// ignore is a warn; the two that break jobs outright (an unknown NCCL_ALGO / NCCL_PROTO token makes NCCL fail
// init since there is no fallback) are a fail.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "nccl/nccl_env_table.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

std::vector<std::string> options(const std::string& spec) { return splitList(spec.substr(spec.find(':') + 1), "|"); }

/// NCCL_ALGO / NCCL_PROTO: "a,b", "^a", and since 2.24 "a,b;func:c;func2:^d" (the first entry may omit func).
std::vector<std::string> unknownTokens(const std::string& value, const std::vector<std::string>& known) {
  static const std::vector<std::string> kFuncs = {"ALLREDUCE", "BROADCAST", "REDUCE", "ALLGATHER", "REDUCESCATTER",
                                                  "SENDRECV",  "ALLTOALL",  "GATHER", "SCATTER"};
  std::vector<std::string> bad;
  for (const auto& part : splitList(value, ";")) {
    std::string list = part;
    if (auto colon = part.find(':'); colon != std::string::npos) {
      std::string func = upper(trim(part.substr(0, colon)));
      if (std::find(kFuncs.begin(), kFuncs.end(), func) == kFuncs.end()) bad.push_back(func + ":");
      list = part.substr(colon + 1);
    }
    list = trim(list);
    if (!list.empty() && list[0] == '^') list.erase(0, 1);
    for (const auto& tok : splitList(list, ","))
      if (std::find(known.begin(), known.end(), upper(trim(tok))) == known.end()) bad.push_back(trim(tok));
  }
  return bad;
}

}  // namespace

std::vector<VarProblem> validateNcclValue(const NcclVarInfo& info, const std::string& value) {
  std::vector<VarProblem> out;
  const std::string spec = info.syntax;
  const std::string name = info.name;
  auto bad = [&](Status s, std::string why, std::string fix) { out.push_back({s, std::move(why), std::move(fix)}); };
  const auto num = parseInt(value);
  if (spec == "bool" && value != "0" && value != "1") {
    bad(Status::kWarn, fmt::format("{}={} is not 0 or 1", name, value), fmt::format("set {} to 0 or 1", name));
  } else if ((spec == "int" || spec == "uint") && (!num || (spec == "uint" && *num < 0))) {
    bad(Status::kWarn,
        fmt::format("{}={} is not {}", name, value, spec == "uint" ? "a non-negative integer" : "an integer"),
        fmt::format("give {} a number", name));
  } else if (spec.rfind("range:", 0) == 0) {
    auto parts = splitList(spec, ":");
    long long lo = std::stoll(parts[1]), hi = std::stoll(parts[2]);
    if (!num || *num < lo || *num > hi)
      bad(Status::kWarn, fmt::format("{}={} is outside {}..{}", name, value, lo, hi),
          fmt::format("set {} between {} and {}", name, lo, hi));
  } else if (spec.rfind("enum", 0) == 0) {
    auto opts = options(spec);
    const bool cs = spec.rfind("enumcs:", 0) == 0;
    bool ok = std::any_of(opts.begin(), opts.end(),
                          [&](const std::string& o) { return cs ? o == value : o == upper(value); });
    if (!ok)
      bad(Status::kWarn,
          fmt::format("{}={} is not one of {}: NCCL ignores it or falls back to its default", name, value,
                      fmt::join(opts, ", ")),
          fmt::format("set {} to one of {}", name, fmt::join(opts, ", ")));
    else if (name == "NCCL_LAUNCH_MODE" && upper(value) == "GROUP")
      bad(Status::kWarn, "NCCL_LAUNCH_MODE=GROUP is deprecated since NCCL 2.9", "unset NCCL_LAUNCH_MODE");
  } else if (spec.rfind("level:", 0) == 0) {
    auto opts = options(spec);
    if (num)
      bad(Status::kWarn, fmt::format("{}={} uses the legacy integer form, which NCCL discourages", name, value),
          fmt::format("use a name: {}", fmt::join(opts, ", ")));
    else if (std::find(opts.begin(), opts.end(), upper(value)) == opts.end())
      bad(Status::kWarn, fmt::format("{}={} is not one of {}", name, value, fmt::join(opts, ", ")),
          fmt::format("use one of {}", fmt::join(opts, ", ")));
  } else if (spec == "algo" || spec == "proto") {
    std::vector<std::string> known = spec == "algo"
                                         ? std::vector<std::string>{"RING",          "TREE", "COLLNET",  "COLLNETCHAIN",
                                                                    "COLLNETDIRECT", "NVLS", "NVLSTREE", "PAT"}
                                         : std::vector<std::string>{"LL", "LL128", "SIMPLE"};
    auto unknown = unknownTokens(value, known);
    if (!unknown.empty())
      bad(Status::kFail,
          fmt::format("{}={} has unknown token(s) {}: NCCL fails at init (no fallback)", name, value,
                      fmt::join(unknown, ", ")),
          fmt::format("use only {} (or unset {})", fmt::join(known, ", "), name));
    if (spec == "proto" && upper(value).find("LL128") != std::string::npos && value.find('^') == std::string::npos)
      bad(Status::kWarn, "NCCL_PROTO forces LL128: on platforms without LL128 support this can corrupt data",
          "unset NCCL_PROTO and let NCCL choose");
  } else if (spec == "subsys") {
    static const std::vector<std::string> kSubsys = {
        "INIT", "COLL",  "P2P",  "SHM",       "NET", "GRAPH",   "TUNING", "ENV",     "ALLOC", "ALLOC_HOST",
        "CALL", "PROXY", "NVLS", "BOOTSTRAP", "REG", "PROFILE", "RAS",    "DESTROY", "ALL"};
    std::vector<std::string> unknown;
    for (auto tok : splitList(value, ",")) {
      tok = upper(trim(tok));
      if (!tok.empty() && tok[0] == '^') tok.erase(0, 1);
      if (std::find(kSubsys.begin(), kSubsys.end(), tok) == kSubsys.end()) unknown.push_back(tok);
    }
    if (!unknown.empty())
      bad(Status::kWarn, fmt::format("NCCL_DEBUG_SUBSYS has unknown subsystem(s) {}", fmt::join(unknown, ", ")),
          fmt::format("use {}", fmt::join(kSubsys, ", ")));
  } else if (spec == "debugfile" && value.find("%h") == std::string::npos && value.find("%p") == std::string::npos &&
             value.rfind("/dev/std", 0) != 0) {
    bad(Status::kWarn, fmt::format("NCCL_DEBUG_FILE={} has no %h or %p: every process overwrites the same file", value),
        "add %h (host) and %p (pid) to the name, e.g. nccl.%h.%p.log");
  } else if (spec == "ibtimeout") {
    if (!num || *num < 0)
      bad(Status::kWarn, fmt::format("NCCL_IB_TIMEOUT={} is not a number 1..31", value),
          "set NCCL_IB_TIMEOUT to 20-22");
    else if (*num == 0 || *num >= 32)
      bad(Status::kWarn, fmt::format("NCCL_IB_TIMEOUT={} means an infinite timeout: a dead peer hangs the job", value),
          "set NCCL_IB_TIMEOUT to 20-22 (timeout = 4.096 us x 2^value)");
    else if (*num < 18)
      bad(Status::kWarn,
          fmt::format("NCCL_IB_TIMEOUT={} is below NCCL's default (20 since 2.23, 18 since 2.14): "
                      "transient congestion becomes ibv_poll_cq error 12",
                      value),
          "unset NCCL_IB_TIMEOUT or raise it to 20-22");
  } else if (spec == "buffsize") {
    if (!num || *num <= 0)
      bad(Status::kWarn, fmt::format("NCCL_BUFFSIZE={} is not a positive byte count", value), "unset NCCL_BUFFSIZE");
    else if ((*num & (*num - 1)) != 0)
      bad(Status::kWarn, fmt::format("NCCL_BUFFSIZE={} is not a power of two", value),
          "use a power of two (default 4194304)");
    else if (*num > (64LL << 20))
      bad(Status::kWarn,
          fmt::format("NCCL_BUFFSIZE={} is large: every channel and peer allocates it (CUDA OOM)", value),
          "unset NCCL_BUFFSIZE (default 4 MiB)");
  }
  return out;
}

}  // namespace pf::probes
