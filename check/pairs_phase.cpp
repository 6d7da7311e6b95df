// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pairs_phase.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>
#include <thread>

#include "contention.hpp"
#include "pf/environment.hpp"
#include "pf/units.hpp"

namespace pf::check {

PairsPhase analyzePairRun(PairRun run, const PairOptions& opts, const std::string& engine, const Thresholds& limits,
                          const std::vector<NodeLinks>& links, int portsUsed, const std::vector<CpuLoad>& cpu,
                          const std::optional<Expectation>& majority) {
  PairsPhase p;
  Result& r = p.result;
  r.key = "pairs";
  r.kind = Kind::kPairs;
  const int n = run.nodes.nodeCount();
  r.params = Json{{"engine", engine},
                  {"size_bytes", opts.bwBytes},
                  {"bw_iters", opts.bwIters},
                  {"bw_trials", opts.bwTrials},
                  {"lat_bytes", opts.latBytes},
                  {"lat_iters", opts.latIters},
                  {"max_seconds_per_direction", opts.maxSecondsPerDirection},
                  {"thresholds", limits.toJson()}};
  r.metrics = Json{
      {"nodes", n},
      {"pairs", run.rows.size()},
      {"rounds", tournamentRounds(n).size()},
      {"confirmation_rounds", run.roundSeconds.size() - std::min(run.roundSeconds.size(), tournamentRounds(n).size())},
      {"seconds", run.seconds},
      {"max_round_seconds",
       run.roundSeconds.empty() ? 0.0 : *std::max_element(run.roundSeconds.begin(), run.roundSeconds.end())}};
  if (n < 2) {
    r.status = Status::kSkipped;
    r.message = fmt::format("one node ({}): a pair test needs ranks on at least two nodes",
                            run.nodes.hosts.empty() ? hostName() : run.nodes.hosts[0]);
    return p;
  }
  std::optional<double> topo = expectFromLinks(links, portsUsed);
  std::string topoSource;
  if (topo) {
    std::vector<std::string> parts;
    for (const NodeLinks& l : links)
      parts.push_back(fmt::format("{} {} Gbit/s", l.host, fmt::join(l.portRatesGbit, "+")));
    topoSource = fmt::format("{} port(s) per node of the slowest node ({})", portsUsed, fmt::join(parts, ", "));
  }
  p.analysis = analyzePairsByRail(run.rows, run.nodes, limits.pairs, topo, topoSource, majority);
  attributeContention(p.analysis, run.rows, cpu);
  p.cpu = cpu;
  const PairAnalysis& a = p.analysis;
  r.status = a.status;
  r.metrics["expected_gbps"] = a.expected.bwGbps ? Json(*a.expected.bwGbps) : Json(nullptr);
  r.metrics["expected_lat_us"] = a.expected.latUs ? Json(*a.expected.latUs) : Json(nullptr);
  r.metrics["median_bw_gbps"] = a.medianBwGbps;
  r.metrics["mad_bw_gbps"] = a.madBwGbps;
  r.metrics["median_lat_us"] = a.medianLatUs;
  r.metrics["mad_lat_us"] = a.madLatUs;
  r.evidence.push_back({"expected bandwidth from", a.expected.source, "", "pair analysis"});
  for (int i = 0; i < n; ++i) {
    const std::string node = "node " + run.nodes.hosts[static_cast<size_t>(i)];
    r.evidence.push_back({"median bandwidth of its pairs", a.nodeMedianBwGbps[static_cast<size_t>(i)], "GB/s", node});
    r.evidence.push_back({"robust z-score of that median", a.nodeRobustZ[static_cast<size_t>(i)], "", node});
  }
  for (const CpuLoad& c : cpu)
    r.evidence.push_back({"CPU load during the pair test", c.describe(), "", "node " + c.host});
  if (!cpu.empty()) {
    Json loads = Json::array();
    for (const CpuLoad& c : cpu) loads.push_back(toJson(c));
    r.metrics["cpu_load"] = loads;
  }
  size_t bad = 0;
  for (const PairRow& row : run.rows) {
    r.rows.push_back(toJson(row));
    if (row.status != Status::kPass) ++bad;
  }
  std::vector<std::string> named;
  for (const Finding& f : a.findings) named.push_back(fmt::format("{} {}", f.check, fmt::join(f.hosts, "-")));
  // The rounds as the summary counts them: the tournament's, then any run again for suspects.
  const std::string rounds =
      pairRoundsText(r.metrics["rounds"].get<long long>(), r.metrics["confirmation_rounds"].get<long long>());
  // With several rails a pair has a row per rail: "6 pairs on 4 rails".
  std::set<int> rails;
  for (const PairRow& row : run.rows)
    if (row.rail >= 0) rails.insert(row.rail);
  const long long pairCount = static_cast<long long>(run.rows.size() / std::max<size_t>(1, rails.size()));
  const std::string pairsText = counted(pairCount, "pair") +
                                (rails.empty() ? "" : " on " + counted(static_cast<long long>(rails.size()), "rail"));
  if (!rails.empty()) r.metrics["rails"] = rails.size();
  r.message = bad == 0 ? fmt::format("{}, {} in {}: every pair within limits (median {:.3f} GB/s, {:.1f} us)",
                                     counted(n, "node"), pairsText, rounds, a.medianBwGbps, a.medianLatUs)
                       : fmt::format("{} of {} pairs outside limits: {}", bad, run.rows.size(), fmt::join(named, "; "));
  if (!a.findings.empty()) r.remedy = a.findings.front().remedy;
  p.rows = std::move(run.rows);
  return p;
}

namespace {

// Each node's CPU load over the phase: its leader rank samples procfs at both ends, and asks NVML which other
// processes hold the node's GPUs; every rank gets every node's figures, so all ranks analyse alike. The job's own ranks
// are left out of "other processes" by pid (every rank's, since ranks of several simulated nodes can share one kernel),
// with their parents.
class CpuWatch {
 public:
  CpuWatch(Bootstrap& boot, const std::vector<std::string>& hostOfRank, const std::string& procRoot)
      : boot_(boot), nodes_(groupByHost(hostOfRank)), root_(procRoot) {
    // The ranks and their parents (Open MPI's orted/prted, or mpirun) are the job, not contention.
    for (const std::string& pids : boot.allGather(fmt::format("{} {}", getpid(), getppid()))) {
      int self = 0, parent = 0;
      std::istringstream(pids) >> self >> parent;
      jobPids_.insert({self, parent});
    }
    leader_ = nodes_.leader[static_cast<size_t>(nodes_.nodeOfRank[static_cast<size_t>(boot.rank())])] == boot.rank();
    if (leader_) before_ = takeCpuSnapshot(root_);
  }

  std::vector<CpuLoad> finish() {
    std::string mine;
    if (leader_) {
      CpuLoad c = cpuLoadBetween(before_, takeCpuSnapshot(root_), jobPids_, static_cast<double>(sysconf(_SC_CLK_TCK)));
      c.host = hostName();
      if (!gpuAsked_) {  // once: initialising NVML can take a while on a node with many GPUs
        gpuAsked_ = true;
        std::string why;
        if (!listGpuProcesses(NvmlSession(), gpuProcesses_, why)) gpuWhy_ = "not asked: " + why;
      }
      addGpuProcesses(c, gpuProcesses_, jobPids_, root_);
      c.gpuQuery = gpuWhy_;
      mine = toJson(c).dump();
    }
    std::vector<CpuLoad> out(static_cast<size_t>(nodes_.nodeCount()));
    std::vector<std::string> all = boot_.allGather(mine);
    for (int n = 0; n < nodes_.nodeCount(); ++n) {
      out[static_cast<size_t>(n)] = cpuLoadFromJson(Json::parse(all[static_cast<size_t>(nodes_.leader[n])]));
      out[static_cast<size_t>(n)].host = nodes_.hosts[static_cast<size_t>(n)];  // the name the matrix uses
    }
    return out;
  }

 private:
  Bootstrap& boot_;
  NodeMap nodes_;
  std::string root_;
  std::set<int> jobPids_;
  bool leader_ = false;
  CpuSnapshot before_;
  bool gpuAsked_ = false;
  std::vector<GpuProcess> gpuProcesses_;
  std::string gpuWhy_;
};

// With several rails a pair has a row per rail: a pair is measured again (all its rails) once, in first-seen order.
std::vector<std::pair<int, int>> distinctPairs(const std::vector<std::pair<int, int>>& pairs) {
  std::vector<std::pair<int, int>> out;
  for (const auto& p : pairs)
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  return out;
}

// Every pair outside limits: the first confirmation pass.
std::vector<std::pair<int, int>> suspectPairs(const PairsPhase& p) {
  std::vector<std::pair<int, int>> out;
  for (const PairRow& r : p.rows)
    if (r.status == Status::kFail || r.status == Status::kWarn) out.emplace_back(r.node_a, r.node_b);
  return distinctPairs(out);
}

// The pairs that still stand as link findings: the later passes. A link verdict rests on one pair's figures, all
// taken within a second or so, so one stall that outlasts the first back-off (a CI run once saw a healthy link at
// 5x the median latency twice, 250 ms apart, on an otherwise quiet simulated cluster) blames a cable. A node's
// verdict rests on all its pairs, measured one after another over seconds: those are not measured again.
std::vector<std::pair<int, int>> suspectLinks(const PairsPhase& p) {
  std::vector<std::pair<int, int>> out;
  for (const Finding& f : p.analysis.findings) {
    if (f.check != "pairs.link" || f.hosts.size() != 2) continue;
    for (const PairRow& r : p.rows)
      if (r.status != Status::kPass &&
          ((r.host_a == f.hosts[0] && r.host_b == f.hosts[1]) || (r.host_a == f.hosts[1] && r.host_b == f.hosts[0])))
        out.emplace_back(r.node_a, r.node_b);
  }
  return distinctPairs(out);
}

// Measures `suspects` again and keeps each pair's best figures in `run`. Each suspect pair is measured alone: with
// no other pair running, it shares no CPU, switch port or NIC with another pair, so what it shows is its own.
// After a back-off, so a burst that slowed the earlier measurement has a chance to pass. Beyond kAlone suspects
// the run is broadly slow (contention, the fabric): the rest share rounds, so confirmation stays bounded.
void confirm(PairEngine& engine, Bootstrap& boot, PairRun& run, const std::vector<std::pair<int, int>>& suspects,
             const PairOptions& opts, int backoffMs) {
  constexpr size_t kAlone = 16;
  std::vector<Round> rounds;
  for (size_t i = 0; i < suspects.size() && i < kAlone; ++i) rounds.push_back(Round{suspects[i]});
  if (suspects.size() > kAlone)
    for (Round& r : disjointRounds({suspects.begin() + kAlone, suspects.end()})) rounds.push_back(std::move(r));
  std::this_thread::sleep_for(std::chrono::milliseconds(backoffMs));
  boot.idleBarrier();
  PairRun again = runRounds(engine, boot, run.nodes, rounds, opts);
  for (const PairRow& a : again.rows)
    for (PairRow& r : run.rows)
      if (r.node_a == a.node_a && r.node_b == a.node_b && r.rail == a.rail) {
        r.bw_a_to_b_gbps = std::max(r.bw_a_to_b_gbps, a.bw_a_to_b_gbps);
        r.bw_b_to_a_gbps = std::max(r.bw_b_to_a_gbps, a.bw_b_to_a_gbps);
        r.lat_us = std::min(r.lat_us, a.lat_us);
        r.seconds += a.seconds;
        ++r.measurements;
      }
  run.roundSeconds.insert(run.roundSeconds.end(), again.roundSeconds.begin(), again.roundSeconds.end());
  run.seconds += again.seconds;
}

}  // namespace

PairsPhase runPairsPhase(PairEngine& engine, Bootstrap& boot, const std::vector<std::string>& hostOfRank,
                         const PairOptions& opts, const Thresholds& limits, const std::vector<NodeLinks>& links,
                         int portsUsed, const std::function<void(int, int)>& onRound) {
  CpuWatch watch(boot, hostOfRank, opts.procRoot);
  PairRun run = runPairs(engine, boot, hostOfRank, opts, onRound);
  // The expectation comes from the first pass, where every pair was measured alike (beside the other pairs of
  // its round), and stays fixed. A pair measured again alone does better than in a shared round (8-15 us
  // against 30-50 us on the simulated cluster): letting its new figures into the majority moved the
  // expectation, and a pair that had passed and was never measured again then failed against it (a healthy
  // link at 117 us, measured once, against a limit that had fallen to 115 us; one 8-node run in sixteen). With
  // the expectation fixed, measuring again only ever clears a pair: whatever fails in the end was a suspect and
  // was measured again.
  const Expectation firstPass =
      expectFromMajority(run.rows, run.nodes.nodeCount(), limits.pairs.bwFailFraction, limits.pairs.latFailFactor);
  PairsPhase phase = analyzePairRun(run, opts, engine.key(), limits, links, portsUsed, watch.finish(), firstPass);
  // Confirmation: pairs outside limits (fail or warn) are measured again, alone, and the best of a pair's
  // measurements counts. A transient (another process on a shared host, a scheduler stall, a burst of someone
  // else's traffic) does not repeat; a slow NIC, cable or port does. Every rank holds the same rows and the analysis
  // is deterministic, so all ranks agree on which pairs to retest without talking.
  int backoffMs = opts.confirmBackoffMs;
  for (int pass = 0; pass < opts.confirmPasses; ++pass) {
    std::vector<std::pair<int, int>> suspects = pass == 0 ? suspectPairs(phase) : suspectLinks(phase);
    if (suspects.empty()) break;
    confirm(engine, boot, run, suspects, opts, backoffMs);
    backoffMs *= 4;  // a stall that outlasted one back-off is given a longer one
    phase = analyzePairRun(run, opts, engine.key(), limits, links, portsUsed, watch.finish(), firstPass);
  }
  return phase;
}

}  // namespace pf::check
