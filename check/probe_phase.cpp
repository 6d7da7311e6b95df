// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase of `preflight check` with the probes component: every rank probes its node (quick: nothing
// that takes long), rank 0 gathers, and every warn/fail becomes a finding about that node, as does every
// node that differs from the majority. The InfiniBand/RoCE probe's active ports give the link rates the
// expected-bandwidth model uses.
#include "probe_phase.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

// Rank 0: the gathered results as findings (once per node, probe and message), the nodes' link rates, and the
// results for the document (one copy per node where its ranks agree).
void summarize(const std::vector<probes::RankResults>& gathered, ProbePhase& phase) {
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
}

// Rank 0's link rates on every rank (a collective call).
std::vector<NodeLinks> shareLinks(Bootstrap& boot, const std::vector<NodeLinks>& mine) {
  std::string wire;
  if (boot.rank() == 0) {
    Json all = Json::array();
    for (const NodeLinks& l : mine) all.push_back({{"host", l.host}, {"rates", l.portRatesGbit}});
    wire = all.dump();
  }
  boot.broadcast(wire, 0);
  std::vector<NodeLinks> out;
  for (const Json& j : Json::parse(wire))
    out.push_back({j.at("host").get<std::string>(), j.at("rates").get<std::vector<double>>()});
  return out;
}

DeclaredExpect declaredOf(const probes::NodeProfile& p) {
  return {p.expect.pairBusbwGbs, p.expect.allreduceBusbwGbs, p.origin, ""};
}

}  // namespace

void applyDeclared(const DeclaredExpect& d, Thresholds& limits) {
  // Declared expectations replace the derived ones; `derive = true` (or no [expect]) keeps today's derivation.
  if (d.pairBusbwGbs) {
    limits.pairs.declaredBwGbps = d.pairBusbwGbs;
    limits.pairs.declaredSource = d.source;
  }
  if (d.allreduceBusbwGbs) {
    limits.allreduce.declaredBusbwGbps = d.allreduceBusbwGbs;
    limits.allreduce.declaredSource = d.source;
  }
}

std::shared_ptr<const probes::NodeProfile> loadCheckProfile(const std::string& spec, Thresholds& limits) {
  auto p = std::make_shared<const probes::NodeProfile>(probes::resolveProfile(spec));
  applyDeclared(declaredOf(*p), limits);  // "auto" declares nothing yet: the nodes pick in the probe phase
  return p;
}

std::string pickJson(const std::string& host, const probes::NodeProfile& picked) {
  auto figure = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  return Json{{"host", host},
              {"profile", picked.noneFits.empty() ? picked.origin : std::string("none")},
              {"pair", figure(picked.expect.pairBusbwGbs)},
              {"allreduce", figure(picked.expect.allreduceBusbwGbs)}}
      .dump();
}

DeclaredExpect agreeDeclared(const std::vector<std::string>& picks) {
  std::map<std::string, Json> byHost;  // one entry per node (its ranks picked alike), in host order
  for (const auto& p : picks) {
    Json j = Json::parse(p);
    byHost.emplace(j.at("host").get<std::string>(), std::move(j));
  }
  DeclaredExpect d;
  std::map<std::string, int> usedBy;  // profile -> nodes, when a figure applies (then every node declares it)
  std::vector<std::string> notes;
  auto agree = [&](const char* key, const char* name, std::optional<double>& out) {
    std::vector<std::string> with, without;
    double lowest = 0;
    for (const auto& [host, j] : byHost) {
      const std::string who = fmt::format("{} ({})", host, j.at("profile").get<std::string>());
      if (j.at(key).is_null()) {
        without.push_back(who);
      } else {
        const double v = j.at(key).get<double>();
        lowest = with.empty() ? v : std::min(lowest, v);
        with.push_back(who);
      }
    }
    if (with.empty()) return;
    if (!without.empty()) {
      notes.push_back(fmt::format("expect.{} is declared by {} but not by {}: it is derived, as without a profile",
                                  name, fmt::join(with, ", "), fmt::join(without, ", ")));
      return;
    }
    out = lowest;
  };
  agree("pair", "pair_busbw_gbs", d.pairBusbwGbs);
  agree("allreduce", "allreduce_busbw_gbs", d.allreduceBusbwGbs);
  if (d.pairBusbwGbs || d.allreduceBusbwGbs)
    for (const auto& [host, j] : byHost) ++usedBy[j.at("profile").get<std::string>()];
  if (usedBy.size() == 1) {
    d.source = usedBy.begin()->first + ", picked by --profile auto on every node";
  } else if (!usedBy.empty()) {
    std::vector<std::string> parts;
    for (const auto& [profile, nodes] : usedBy) parts.push_back(fmt::format("{} on {} node(s)", profile, nodes));
    d.source = fmt::format("the lowest of {}, picked by --profile auto", fmt::join(parts, ", "));
  }
  d.note = fmt::format("{}", fmt::join(notes, "; "));
  return d;
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
  opt.xidSince = input.xidSince;
  opt.firstOnNode = launcher.local_rank == 0;  // DCGM's diagnostic runs once per node
  std::vector<Result> local = probes::runProbes(view, opt);
  const std::string host = input.root.empty() ? hostName() : probes::nodeName(view);
  if (input.profile) {
    const probes::NodeFacts facts = probes::readNodeFacts(view);
    const probes::NodeProfile mine = probes::profileForNode(facts, *input.profile);
    local.push_back(probes::judgeNodeProfile(facts, mine, opt.firstOnNode));
    // --profile auto: the measured phases hold every rank to the same figures, so every rank learns every pick.
    if (input.profile->autoPick) phase.declared = agreeDeclared(boot.allGather(pickJson(host, mine)));
  }
  auto gathered = probes::gatherResults(boot, host, local);
  if (boot.rank() == 0) summarize(gathered, phase);
  // Every rank judges the pair matrix (and agrees without talking on which pairs to measure again), so every rank
  // needs the expectation's link rates, not rank 0 alone.
  phase.links = shareLinks(boot, phase.links);
  return phase;
}

}  // namespace pf::check
