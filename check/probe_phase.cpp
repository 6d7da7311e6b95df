// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase of `preflight check` with the probes component: every rank probes its node (quick: nothing
// that takes long), rank 0 gathers, and every warn/fail becomes a finding about that node, as does every
// node that differs from the majority. The InfiniBand/RoCE probe's active ports give the link rates the
// expected-bandwidth model uses.
#include "probe_phase.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "consistency.hpp"
#include "gather.hpp"
#include "pf/error.hpp"
#include "probe.hpp"
#include "probe_util.hpp"
#include "profile/node_profile.hpp"
#include "profile/profile_catalog.hpp"

namespace pf::check {
namespace {

Finding toFinding(const Result& r, const std::string& check) {
  Finding f;
  f.check = check;
  f.status = r.status == Status::kWarn ? Status::kWarn : Status::kFail;
  f.hosts = {r.host};
  f.message = fmt::format("{}: {}", r.host, r.message);
  f.remedy = r.remedy;
  f.evidence = r.evidence;
  return f;
}

}  // namespace

std::shared_ptr<const probes::NodeProfile> loadCheckProfile(const std::string& spec, Thresholds& limits) {
  auto p = std::make_shared<const probes::NodeProfile>(probes::resolveProfile(spec));
  // Declared expectations replace the derived ones; `derive = true` (or no [expect]) keeps today's derivation.
  if (p->expect.pairBusbwGbs) {
    limits.pairs.declaredBwGbps = p->expect.pairBusbwGbs;
    limits.pairs.declaredSource = p->origin;
  }
  if (p->expect.allreduceBusbwGbs) {
    limits.allreduce.declaredBusbwGbps = p->expect.allreduceBusbwGbs;
    limits.allreduce.declaredSource = p->origin;
  }
  return p;
}

void validateDcgmLevel(int level, bool noProbes) {
  if (level < 0 || level > 4)
    throw UsageError(
        fmt::format("--dcgm: level {} does not exist; DCGM's diagnostic has levels 1 (about a minute) to "
                    "4 (hours)",
                    level));
  if (level > 0 && noProbes) throw UsageError("--no-probes excludes --dcgm: DCGM's diagnostic runs in the probe phase");
}

ProbePhase runProbePhase(Bootstrap& boot, const LauncherEnv& launcher, const Environment& env, bool quick,
                         const ProbeInput& input) {
  ProbePhase phase;
  phase.available = true;
  // Only the live root may call libraries: a captured tree has files, not devices.
  probes::SystemView view(input.root.empty() ? "/" : input.root, env, input.root.empty());
  probes::ProbeOptions opt;
  // The gate must take seconds: always skip the slow measurements here, whatever --quick says about the rest.
  opt.quick = true;
  (void)quick;
  opt.dcgmLevel = input.dcgmLevel;
  opt.firstOnNode = launcher.local_rank == 0;  // DCGM's diagnostic runs once per node
  std::vector<Result> local = probes::runProbes(view, opt);
  if (input.profile)
    local.push_back(probes::judgeNodeProfile(probes::readNodeFacts(view), *input.profile, opt.firstOnNode));
  auto gathered = probes::gatherResults(boot, input.root.empty() ? hostName() : probes::nodeName(view), local);
  if (boot.rank() != 0) return phase;

  // Several ranks on one node probe the same node: report a finding once per node, probe and message.
  std::set<std::string> seen;
  std::map<std::string, std::vector<double>> ratesByHost;
  for (const auto& rr : gathered) {
    for (const auto& r : rr.results) {
      if (r.key == "probe.ib" && !ratesByHost.count(rr.host)) ratesByHost[rr.host] = probes::activePortRatesGbit(r);
      if (r.status != Status::kWarn && r.status != Status::kFail && r.status != Status::kError) continue;
      if (!seen.insert(rr.host + "\n" + r.key + "\n" + r.message).second) continue;
      Finding f = toFinding(r, r.key);  // "probe.net" -> result key "check.probe.net"
      if (r.status == Status::kError) {
        f.status = Status::kWarn;  // the probe could not look: say so, but do not call the node broken
        f.remedy =
            f.remedy.empty() ? "run `preflight probe --only " + r.key.substr(6) + "` on the node to see why" : f.remedy;
      }
      phase.findings.push_back(std::move(f));
    }
  }
  for (const auto& d : probes::checkConsistency(gathered)) {
    if (!seen.insert(d.host + "\n" + d.key + "\n" + d.message).second) continue;
    Finding f = toFinding(d, d.key);
    f.message = d.message;  // already names the node
    phase.findings.push_back(std::move(f));
  }
  for (const auto& [host, rates] : ratesByHost) phase.links.push_back({host, rates});
  // Links only help the expectation when every node reported them; a partial set would mislead it.
  std::set<std::string> hosts;
  for (const auto& rr : gathered) hosts.insert(rr.host);
  const bool anyRate =
      std::any_of(phase.links.begin(), phase.links.end(), [](const NodeLinks& l) { return !l.portRatesGbit.empty(); });
  if (phase.links.size() != hosts.size() || !anyRate) phase.links.clear();
  // One copy per node: ranks sharing a host with identical results (the usual case) add nothing to the document.
  std::map<std::string, std::string> firstOnHost;
  for (const auto& rr : gathered) {
    Json print = Json::array();
    for (const auto& r : rr.results) {
      Json j = toJson(r);
      j.erase("rank");
      print.push_back(std::move(j));
    }
    auto [it, fresh] = firstOnHost.emplace(rr.host, print.dump());
    if (!fresh && it->second == print.dump()) continue;
    phase.results.insert(phase.results.end(), rr.results.begin(), rr.results.end());
  }
  return phase;
}

}  // namespace pf::check
