// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "published_series.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "perf_model.hpp"

namespace pf::scaling::series {

namespace {

using nlohmann::json;

template <typename T>
T seriesField(const json& j, const char* key, const std::filesystem::path& file) {
  if (!j.contains(key)) throw std::runtime_error(fmt::format("{}: missing field '{}'", file.string(), key));
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(fmt::format("{}: field '{}' has the wrong type", file.string(), key));
  }
}

const std::set<std::string> kQuantities{"time_us", "busbw_gbs", "bandwidth_gbs_unnamed"};
const std::set<std::string> kNotRing{"tree", "nvls", "nvls_tree", "collnet", "sharp"};

std::vector<int> nodeCounts(const Series& s) {
  std::set<int> c;
  for (const Point& p : s.points) c.insert(p.nodes);
  return {c.begin(), c.end()};
}

std::vector<Point> pointsAt(const Series& s, int nodes) {
  std::vector<Point> v;
  for (const Point& p : s.points)
    if (p.nodes == nodes) v.push_back(p);
  return v;
}

// One level from (size, time) points taken at one or more node counts of `ranksPerNode` ranks: each time is
// 2(n-1) ring steps of alpha + (S/n) beta, so per-step time against S/n is a line (fitLine clamps a negative
// alpha to 0). A single distinct S/n leaves alpha unknown: it is taken as 0 and beta carries the whole step.
LevelFit levelFromPoints(const Series& s, const std::vector<Point>& pts, int nodesLabel) {
  std::vector<double> x, y;
  for (const Point& p : pts) {
    const int n = p.nodes * s.ranksPerNode;
    const double t = s.quantity == "time_us" ? p.value : timeUsFromBusbw(p.bytes, p.value, n);
    x.push_back(p.bytes / n);
    y.push_back(t / (2.0 * (n - 1)));
  }
  AlphaBeta ab;
  if (std::set<double>(x.begin(), x.end()).size() >= 2) {
    const LineFit f = fitLine(x, y);
    ab = {f.intercept, f.slope, 0, f.maxRelError};
  } else {
    ab = {0, y.front() / x.front(), 0, 0};
  }
  LevelFit l;
  l.fit.small = l.fit.large = ab;
  l.fit.splitBytes = 0;  // one fit for every size
  l.nodes = nodesLabel;
  l.ranks = nodesLabel * s.ranksPerNode;
  l.source = s.id;
  return l;
}

}  // namespace

Series loadSeries(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot be read", file.string()));
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON ({})", file.string(), e.what()));
  }
  Series s;
  s.id = seriesField<std::string>(j, "id", file);
  s.title = seriesField<std::string>(j, "title", file);
  s.url = seriesField<std::string>(j, "url", file);
  s.quantity = seriesField<std::string>(j, "quantity", file);
  if (!kQuantities.count(s.quantity))
    throw std::runtime_error(
        fmt::format("{}: quantity '{}' is not time_us, busbw_gbs or bandwidth_gbs_unnamed", file.string(), s.quantity));
  s.algorithmAt2 = seriesField<std::string>(j, "algorithm_at_2_nodes", file);
  s.health = seriesField<std::string>(j, "health", file);
  s.ranksPerNode = seriesField<int>(j, "ranks_per_node", file);
  s.nicGbpsPerNode = seriesField<double>(j, "nic_line_rate_gbps_per_node", file);
  s.approximate = seriesField<bool>(j, "approximate", file);
  for (const json& p : seriesField<json>(j, "points", file)) {
    Point pt{seriesField<int>(p, "nodes", file), seriesField<double>(p, "bytes", file),
             seriesField<double>(p, "value", file)};
    if (pt.nodes < 1 || pt.bytes <= 0 || pt.value <= 0)
      throw std::runtime_error(fmt::format("{}: a point needs nodes >= 1, bytes > 0 and value > 0", file.string()));
    s.points.push_back(pt);
  }
  if (s.ranksPerNode < 1 || s.points.empty())
    throw std::runtime_error(fmt::format("{}: needs ranks_per_node >= 1 and at least one point", file.string()));
  return s;
}

std::vector<Series> loadAll(const std::filesystem::path& dir) {
  std::vector<Series> all;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json") all.push_back(loadSeries(e.path()));
  std::sort(all.begin(), all.end(), [](const Series& a, const Series& b) { return a.id < b.id; });
  return all;
}

double busbwGBs(double bytes, double timeUs, int ranks) { return bytes / timeUs / 1e3 * (2.0 * (ranks - 1) / ranks); }

double timeUsFromBusbw(double bytes, double busbw, int ranks) {
  return bytes / (busbw / (2.0 * (ranks - 1) / ranks)) / 1e3;
}

std::optional<double> measuredBusbw(const Series& s, const Point& p) {
  if (s.quantity == "busbw_gbs") return p.value;
  if (s.quantity == "time_us") return busbwGBs(p.bytes, p.value, p.nodes * s.ranksPerNode);
  return std::nullopt;
}

Flag multiNodeFlag(const Series& s) {
  Flag f;
  const std::vector<int> counts = nodeCounts(s);
  const auto multi = std::find_if(counts.begin(), counts.end(), [](int c) { return c > 1; });
  if (multi == counts.end()) return f;
  if (kNotRing.count(s.algorithmAt2)) {
    f.flagged = true;
    f.reason = fmt::format("source: {} at {} nodes", s.algorithmAt2, *multi);
  }
  // A ring's every step crosses the network: its bus bandwidth cannot pass the NICs' line rate.
  const double lineGBs = s.nicGbpsPerNode / 8.0;
  double best = 0;
  for (const Point& p : pointsAt(s, *multi))
    if (const auto b = measuredBusbw(s, p)) best = std::max(best, *b);
  if (lineGBs > 0 && best > lineGBs) {
    f.flagged = true;
    f.reason += fmt::format("{}shape: {:.2f} GB/s busbw at {} nodes above the NICs' {:.1f} GB/s",
                            f.reason.empty() ? "" : "; ", best, *multi, lineGBs);
  }
  return f;
}

bool isChecked(const Series& s) {
  return !multiNodeFlag(s).flagged && (s.health == "healthy" || s.health == "not judged") &&
         s.quantity != "bandwidth_gbs_unnamed" && nodeCounts(s).size() >= 3;
}

SeriesCheck checkSeries(const Series& s, bool ringOnly) {
  const std::vector<int> counts = nodeCounts(s);
  if (s.quantity == "bandwidth_gbs_unnamed" || counts.size() < 3)
    throw std::runtime_error(s.id + ": needs a bus bandwidth or time at 3 or more node counts");
  SeriesCheck c;
  std::vector<LevelFit> levels;
  if (counts[0] == 1) {
    levels.push_back(levelFromPoints(s, pointsAt(s, 1), 1));
    levels.push_back(levelFromPoints(s, pointsAt(s, counts[1]), counts[1]));
    c.fittedFrom = fmt::format("intra 1 node, inter {} nodes", counts[1]);
  } else {
    std::vector<Point> both = pointsAt(s, counts[0]);
    for (const Point& p : pointsAt(s, counts[1])) both.push_back(p);
    levels.push_back(levelFromPoints(s, both, counts[0]));
    c.fittedFrom = fmt::format("inter {}+{} nodes", counts[0], counts[1]);
  }
  FabricModel m = fabricModelFromLevels(std::move(levels));
  m.ringOnly = ringOnly;
  for (std::size_t i = 2; i < counts.size(); ++i)
    for (const Point& p : pointsAt(s, counts[i])) {
      const Allocation a{p.nodes, s.ranksPerNode};
      const AllReduceCost cost = m.allReduce(p.bytes, a);
      Prediction pr;
      pr.nodes = p.nodes;
      pr.bytes = p.bytes;
      pr.measuredBusbw = *measuredBusbw(s, p);
      pr.predictedBusbw = busbwGBs(p.bytes, cost.us, a.ranks());
      pr.error = pr.predictedBusbw / pr.measuredBusbw - 1.0;
      pr.algorithm = cost.algorithm;
      c.points.push_back(pr);
    }
  double largestBytes = -1;
  for (const Prediction& p : c.points)
    if (p.nodes == counts.back() && p.bytes > largestBytes) largestBytes = p.bytes, c.errorAtLargest = p.error;
  return c;
}

double medianAbs(std::vector<double> v) {
  for (double& x : v) x = std::abs(x);
  return quantile(std::move(v), 0.5);
}

}  // namespace pf::scaling::series
