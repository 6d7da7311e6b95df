// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gather.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "consistency.hpp"

namespace pf::probes {
namespace {

/// Two ranks' results are the same document when everything but rank, host and the node's moving gauges is
/// equal (the transfer dedupe). Free memory and free /dev/shm change between two reads a millisecond apart; two
/// ranks of one node that differ only there send one copy, and the later rank shows the earlier one's reading.
std::string fingerprint(const RankResults& rr) {
  Json j = Json::array();
  for (const auto& r : rr.results) {
    Json one = toJson(r);
    one.erase("rank");
    one.erase("host");
    if (r.key == "probe.host" && one["metrics"].is_object())
      for (const char* gauge : {"mem_available_bytes", "shm_free_bytes"}) one["metrics"].erase(gauge);
    j.push_back(std::move(one));
  }
  return j.dump();
}

/// What makes two ranks "the same" in the summary: per probe its status (and, for a problem, its message),
/// plus the facts nodes are expected to share. Addresses and MACs differ on every node and must not split
/// the groups.
std::string summaryKey(const RankResults& rr) {
  Json j = Json::array();
  for (const auto& r : rr.results) {
    const bool problem = r.status == Status::kWarn || r.status == Status::kFail || r.status == Status::kError;
    j.push_back(Json::array({r.key, toString(r.status), problem ? r.message : ""}));
  }
  for (const auto& f : extractFacts(rr.results)) j.push_back(Json::array({f.name, f.value}));
  return j.dump();
}

}  // namespace

std::vector<RankResults> gatherResults(Bootstrap& boot, const std::string& host, const std::vector<Result>& local) {
  // Ranks on one node usually probe the same things and get the same answers. Exchange a small digest first;
  // a rank whose results equal those of a lower rank on its host sends nothing but that rank's number, so the
  // full documents cross the network once per distinct node rather than once per rank.
  Json mine = Json::array();
  for (const auto& r : local) mine.push_back(toJson(r));
  RankResults self{boot.rank(), host, local};
  const std::string digest = std::to_string(std::hash<std::string>{}(fingerprint(self)));
  std::vector<std::string> digests = boot.allGather(Json{{"host", host}, {"digest", digest}}.dump());
  int sameAs = -1;
  for (int i = 0; i < boot.rank() && sameAs < 0; ++i) {
    Json d = Json::parse(digests[i]);
    if (d["host"] == host && d["digest"] == digest) sameAs = i;
  }
  std::vector<std::string> all = boot.allGather(sameAs >= 0 ? Json{{"same_as", sameAs}}.dump() : mine.dump());
  std::vector<RankResults> out;
  if (boot.rank() != 0) return out;
  for (size_t i = 0; i < all.size(); ++i) {
    Json j = Json::parse(all[i]);
    RankResults rr;
    rr.rank = static_cast<int>(i);
    rr.host = Json::parse(digests[i]).at("host").get<std::string>();
    if (j.is_object() && j.contains("same_as")) {
      rr.results = out.at(j["same_as"].get<size_t>()).results;
    } else {
      for (const auto& rj : j) rr.results.push_back(resultFromJson(rj));
    }
    for (auto& r : rr.results) {
      r.rank = rr.rank;
      if (r.host.empty() || j.is_object()) r.host = rr.host;
    }
    out.push_back(std::move(rr));
  }
  return out;
}

std::vector<Result> flatten(const std::vector<RankResults>& ranks) {
  std::vector<Result> out;
  for (const auto& rr : ranks) out.insert(out.end(), rr.results.begin(), rr.results.end());
  return out;
}

std::string memberLabel(const std::vector<RankResults>& ranks, size_t index) {
  const std::string& host = ranks[index].host;
  size_t sameHost = std::count_if(ranks.begin(), ranks.end(), [&](const RankResults& r) { return r.host == host; });
  if (sameHost <= 1) return host;
  return fmt::format("{} (rank {})", host, ranks[index].rank);
}

std::vector<std::vector<size_t>> groupIdentical(const std::vector<RankResults>& ranks) {
  std::map<std::string, std::vector<size_t>> byPrint;
  std::vector<std::string> order;  // first appearance, so equal-sized groups keep rank order
  for (size_t i = 0; i < ranks.size(); ++i) {
    std::string fp = summaryKey(ranks[i]);
    if (!byPrint.count(fp)) order.push_back(fp);
    byPrint[fp].push_back(i);
  }
  std::vector<std::vector<size_t>> groups;
  for (const auto& fp : order) groups.push_back(byPrint[fp]);
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return groups;
}

}  // namespace pf::probes
