// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "history_queries.hpp"

#include <algorithm>
#include <map>

namespace pf::history {

namespace {

char verdictLetter(Status s) {
  switch (s) {
    case Status::kWarn: return 'W';
    case Status::kFail: return 'F';
    case Status::kTimeout: return 'T';
    case Status::kError: return 'E';
    default: return 'P';
  }
}

// One figure's values over the runs, oldest first, and who it belongs to.
struct Track {
  std::string host, peer, figure;
  std::vector<std::pair<const RunRecord*, double>> values;
};

// Appends (run, value) to the track named by (host, peer, figure), creating it in first-named order.
void record(std::vector<Track>& tracks, std::map<std::string, size_t>& index, const std::string& host,
            const std::string& peer, const std::string& figure, const RunRecord& run, double value) {
  const std::string key = host + "\n" + peer + "\n" + figure;
  auto it = index.find(key);
  if (it == index.end()) {
    it = index.emplace(key, tracks.size()).first;
    tracks.push_back({host, peer, figure, {}});
  }
  tracks[it->second].values.emplace_back(&run, value);
}

}  // namespace

std::vector<FlappingNode> flappingNodes(const std::vector<RunRecord>& runs, int k, int n) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<int64_t, Status>>> checks;
  for (const RunRecord& run : runs)
    for (const NodeRecord& node : run.nodes) {
      auto& list = checks[node.host];
      if (list.empty()) order.push_back(node.host);
      list.emplace_back(run.id, node.verdict);
    }
  std::vector<FlappingNode> out;
  for (const std::string& host : order) {
    const auto& list = checks[host];
    FlappingNode f;
    f.host = host;
    for (size_t i = list.size() > static_cast<size_t>(n) ? list.size() - n : 0; i < list.size(); ++i) {
      ++f.checks;
      f.pattern += verdictLetter(list[i].second);
      if (failedCheck(list[i].second)) {
        ++f.failed;
        f.failedRuns.push_back(list[i].first);
      }
    }
    if (f.failed >= k) out.push_back(std::move(f));
  }
  return out;
}

std::vector<Regression> regressions(const std::vector<RunRecord>& runs, double percent, int minEarlier) {
  std::vector<Track> nodes, pairs;
  std::map<std::string, size_t> nodeIndex, pairIndex;
  for (const RunRecord& run : runs) {
    for (const NodeRecord& n : run.nodes) {
      if (n.pairMedianGbps) record(nodes, nodeIndex, n.host, "", "pair median bandwidth", run, *n.pairMedianGbps);
      if (n.allReduceBusbwGbps) record(nodes, nodeIndex, n.host, "", "all-reduce busbw", run, *n.allReduceBusbwGbps);
    }
    for (const PairRecord& p : run.pairs) {
      // One track per unordered pair, named in sorted order, so a-b and b-a in different runs are one pair.
      const bool swap = p.hostB < p.hostA;
      record(pairs, pairIndex, swap ? p.hostB : p.hostA, swap ? p.hostA : p.hostB, "pair bandwidth", run, p.bwGbps());
    }
  }
  std::vector<Regression> out;
  for (const std::vector<Track>* tracks : {&nodes, &pairs})
    for (const Track& t : *tracks) {
      // Kept sorted as it grows: a median per run without sorting the whole past again (a fleet's history has
      // thousands of pairs over thousands of runs).
      std::vector<double> earlier;
      for (const auto& [run, value] : t.values) {
        if (static_cast<int>(earlier.size()) >= minEarlier) {
          const size_t n = earlier.size();
          const double med = n % 2 ? earlier[n / 2] : (earlier[n / 2 - 1] + earlier[n / 2]) / 2;
          const double limit = med * (1.0 - percent / 100.0);
          if (value < limit) {
            Regression r{t.host,
                         t.peer,
                         t.figure,
                         value,
                         med,
                         100.0 * (1.0 - value / med),
                         run->id,
                         run->started,
                         static_cast<int>(earlier.size()),
                         t.values.back().second,
                         t.values.back().second < limit};
            out.push_back(std::move(r));
            break;
          }
        }
        earlier.insert(std::upper_bound(earlier.begin(), earlier.end(), value), value);
      }
    }
  return out;
}

std::vector<NodePoint> nodeSeries(const std::vector<RunRecord>& runs, const std::string& host) {
  std::vector<NodePoint> out;
  for (const RunRecord& run : runs)
    for (const NodeRecord& n : run.nodes)
      if (host.empty() || n.host == host)
        out.push_back({run.id, run.started, n.host, n.verdict, n.pairMedianGbps, n.allReduceBusbwGbps});
  return out;
}

}  // namespace pf::history
