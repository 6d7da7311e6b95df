// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Public all-reduce scaling series (tests/fixtures/scaling-series/*.json, cited in its README) and the check of
// the two-level model (scaling/fabric_model.hpp) against them: fit from a series' two smallest node counts,
// predict the larger ones, compare bus bandwidths. Test code: the fixtures are the only input.
//
// Bus bandwidth as nccl-tests reports it for all_reduce (its doc/PERFORMANCE.md): algbw = S / t,
// busbw = algbw * 2(n-1)/n with n the total rank count; GB/s are 1e9 bytes per second.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fabric_model.hpp"

namespace pf::scaling::series {

struct Point {
  int nodes = 0;
  double bytes = 0;
  double value = 0;  ///< in the series' quantity, as the source prints it
};

struct Series {
  std::string id, title, url;
  std::string quantity;      ///< "time_us", "busbw_gbs" or "bandwidth_gbs_unnamed"
  std::string algorithmAt2;  ///< "ring", "tree", "nvls", "nvls_tree", "collnet", "sharp" or "unknown"
  std::string health;        ///< "healthy", "not judged", "questioned" or "degraded"
  int ranksPerNode = 0;
  double nicGbpsPerNode = 0;  ///< the NICs' summed line rate, Gb/s
  bool approximate = false;
  std::vector<Point> points;
};

/// Reads one series. @throws std::runtime_error naming the file and the missing or malformed field.
Series loadSeries(const std::filesystem::path& file);
/// Every *.json in `dir`, ordered by id.
std::vector<Series> loadAll(const std::filesystem::path& dir);

double busbwGBs(double bytes, double timeUs, int ranks);
double timeUsFromBusbw(double bytes, double busbwGBs, int ranks);
/// The point's bus bandwidth (busbw as printed, or from its time); nullopt for an unnamed bandwidth.
std::optional<double> measuredBusbw(const Series& s, const Point& p);

/// Whether the smallest multi-node count reflects Tree/NVLS/CollNet rather than the ring: from the source's
/// algorithm field, or from the data's shape (a bus bandwidth above the NICs' line rate, which a ring whose
/// every step crosses the network cannot reach). `reason` says which; empty when not flagged.
struct Flag {
  bool flagged = false;
  std::string reason;
};
Flag multiNodeFlag(const Series& s);

/// Ring series on a fabric the source does not call faulty, with a bus bandwidth and 3+ node counts.
bool isChecked(const Series& s);

/// One predicted point.
struct Prediction {
  int nodes = 0;
  double bytes = 0;
  double measuredBusbw = 0, predictedBusbw = 0;
  double error = 0;  ///< predicted / measured - 1
  std::string algorithm;
};

struct SeriesCheck {
  std::string fittedFrom;  ///< e.g. "intra 1 node, inter 2 nodes"
  std::vector<Prediction> points;
  /// The error at the largest node count, at the largest size recorded there.
  double errorAtLargest = 0;
};

/// Fits levels from the two smallest node counts and predicts every larger one. With a 1-node count, the
/// intra-node level comes from it and the inter-node level from the next count; with two multi-node counts,
/// one inter-node level is fitted to both: each time t at n ranks is one ring step, t / (2(n-1)) =
/// alpha + (S/n) beta, a line in S/n across sizes and node counts. One point gives beta alone (alpha 0).
/// `ringOnly` restricts the model to the ring (the check); false lets it choose as NCCL's tuner would.
/// @throws std::runtime_error when the series has no bus bandwidth or fewer than 3 node counts.
SeriesCheck checkSeries(const Series& s, bool ringOnly);

/// Median of |v|; 0 when empty.
double medianAbs(std::vector<double> v);

}  // namespace pf::scaling::series
