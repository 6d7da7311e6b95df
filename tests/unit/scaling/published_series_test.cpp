// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The two-level model against public scaling series (tests/fixtures/scaling-series, cited in its README):
// each ring series is fitted from its two smallest node counts and its larger ones are predicted; series whose
// 2-node figure is Tree/NVLS/CollNet are flagged and not extrapolated. The per-point table is printed; run
//   build/tests/unit/scaling/pf_scaling_series_test
// to see it. A model change that moves the median error above the recorded figure fails here.
#include "published_series.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

using namespace pf::scaling::series;

namespace {

const std::filesystem::path kDir = std::filesystem::path(PF_SOURCE_DIR) / "tests/fixtures/scaling-series";

// The median |error| of predicted busbw at each checked series' largest node count, as the model achieves it
// (docs/scale.md states it). Raise it only with a reason; the issue's bound is 15%.
constexpr double kRecordedMedianError = 0.039;
static_assert(kRecordedMedianError <= 0.15);

const Series& byId(const std::vector<Series>& all, const std::string& id) {
  for (const Series& s : all)
    if (s.id == id) return s;
  throw std::runtime_error("no series " + id);
}

}  // namespace

TEST(PublishedSeries, EveryFixtureLoadsWithItsCitation) {
  const std::vector<Series> all = loadAll(kDir);
  ASSERT_EQ(all.size(), 14u);
  for (const Series& s : all) {
    EXPECT_EQ(s.url.rfind("https://", 0), 0u) << s.id;
    EXPECT_FALSE(s.title.empty()) << s.id;
    EXPECT_GT(s.nicGbpsPerNode, 0) << s.id;
  }
}

TEST(PublishedSeries, TwoNodeTreeAndNvlsAreFlaggedFromTheSourceOrTheShape) {
  const std::vector<Series> all = loadAll(kDir);
  std::map<std::string, std::string> reasons;
  for (const Series& s : all) {
    const Flag f = multiNodeFlag(s);
    reasons[s.id] = f.flagged ? f.reason : "";
  }
  // p4dn: the source names no algorithm; 57.17 GB/s at 2 nodes is above 4 x 100 Gb/s of EFA.
  EXPECT_EQ(reasons["aws-p4dn-efa-nccl527"], "shape: 57.17 GB/s busbw at 2 nodes above the NICs' 50.0 GB/s");
  EXPECT_EQ(reasons["h100-roce-nvls-nccl1221"],
            "source: nvls at 2 nodes; shape: 430.00 GB/s busbw at 2 nodes above the NICs' 400.0 GB/s");
  EXPECT_EQ(reasons["aws-p3dn-efa-nccl235"], "source: tree at 2 nodes");
  EXPECT_EQ(reasons["a100-roce-nccltests169"], "source: tree at 2 nodes");
  // The issue's example (together-nccl-tests reports): NVLS and CollNet/SHARP above the rails, Tree named.
  EXPECT_EQ(reasons["b200-ib-nvls-use3a-20260502"],
            "source: nvls at 2 nodes; shape: 717.20 GB/s busbw at 2 nodes above the NICs' 400.0 GB/s");
  EXPECT_EQ(reasons["b200-ib-sharp-use3a-20260502"],
            "source: collnet at 2 nodes; shape: 533.00 GB/s busbw at 2 nodes above the NICs' 400.0 GB/s");
  EXPECT_EQ(reasons["b200-ib-tree-together-20260509"], "source: tree at 2 nodes");
  // A thread that names no algorithm: 470 GB/s on 2 nodes of eight 400 Gb/s NICs is not a ring's.
  EXPECT_EQ(reasons["h100-ib-nccltests309"], "shape: 470.00 GB/s busbw at 2 nodes above the NICs' 400.0 GB/s");
  for (const char* ring :
       {"aws-p3dn-efa-2019", "h100-roce-nonvls-nccl1221", "b200-ib-ring-together-20260509",
        "b200-ib-ring-together-20260512", "b200-ib-ring-use3a-20260502", "polaris-a100-slingshot-nccl221"})
    EXPECT_EQ(reasons[ring], "") << ring;

  // The flag follows the data: with twice the NICs the p4dn figure is one a ring can reach.
  Series wider = byId(all, "aws-p4dn-efa-nccl527");
  wider.nicGbpsPerNode = 800;
  EXPECT_FALSE(multiNodeFlag(wider).flagged);
  Series named = byId(all, "aws-p3dn-efa-2019");
  named.algorithmAt2 = "collnet";
  EXPECT_EQ(multiNodeFlag(named).reason, "source: collnet at 2 nodes");
}

TEST(PublishedSeries, RingSeriesPredictTheirLargestNodeCountWithinTheRecordedError) {
  const std::vector<Series> all = loadAll(kDir);
  std::vector<double> atLargest;
  std::printf("\n%-31s %-22s %5s %11s %10s %10s %8s %10s\n", "series", "fitted from", "nodes", "bytes", "busbw",
              "predicted", "error", "as tuned");
  for (const Series& s : all) {
    if (!isChecked(s)) {
      const Flag f = multiNodeFlag(s);
      std::printf("%-31s not checked: %s\n", s.id.c_str(),
                  f.flagged ? ("flagged, not extrapolated (" + f.reason + ")").c_str()
                            : ("health '" + s.health + "', quantity " + s.quantity).c_str());
      continue;
    }
    const SeriesCheck ring = checkSeries(s, true), tuned = checkSeries(s, false);
    ASSERT_EQ(ring.points.size(), tuned.points.size());
    for (std::size_t i = 0; i < ring.points.size(); ++i) {
      const Prediction& p = ring.points[i];
      EXPECT_EQ(p.algorithm, "ring");
      std::printf("%-31s %-22s %5d %11.0f %10.4g %10.4g %+7.1f%% %+6.1f%% %s\n", s.id.c_str(), ring.fittedFrom.c_str(),
                  p.nodes, p.bytes, p.measuredBusbw, p.predictedBusbw, 100 * p.error, 100 * tuned.points[i].error,
                  tuned.points[i].algorithm.c_str());
    }
    std::printf("%-31s error at the largest node count: %+.1f%%\n", s.id.c_str(), 100 * ring.errorAtLargest);
    atLargest.push_back(ring.errorAtLargest);
  }
  ASSERT_EQ(atLargest.size(), 6u);
  const double median = medianAbs(atLargest);
  double worst = 0;
  for (double e : atLargest) worst = std::max(worst, std::abs(e));
  std::printf(
      "median |error| at the largest node count over %zu ring series: %.1f%% (recorded %.1f%%), largest %.1f%%\n",
      atLargest.size(), 100 * median, 100 * kRecordedMedianError, 100 * worst);
  EXPECT_LE(median, kRecordedMedianError);
}

TEST(PublishedSeries, FlaggedSeriesAreNotExtrapolatedButShowWhatRingExtrapolationWouldDo) {
  const std::vector<Series> all = loadAll(kDir);
  // What a planner that read p4dn's 2-node Tree figure as a ring would predict: about 2x the 4-node busbw.
  const Series& p4dn = byId(all, "aws-p4dn-efa-nccl527");
  ASSERT_TRUE(multiNodeFlag(p4dn).flagged);
  EXPECT_FALSE(isChecked(p4dn));
  const SeriesCheck naive = checkSeries(p4dn, true);
  EXPECT_EQ(naive.fittedFrom, "intra 1 node, inter 2 nodes");
  EXPECT_NEAR(naive.errorAtLargest, 57.17 / 29.61 - 1, 1e-3);  // the ring's busbw is flat across nodes
  const Series& nvls = byId(all, "h100-roce-nvls-nccl1221");
  EXPECT_FALSE(isChecked(nvls));
  EXPECT_NEAR(checkSeries(nvls, true).errorAtLargest, 430.0 / 320 - 1, 1e-3);
  // The issue's example (together-nccl-tests, B200 over 8 x 400 Gb/s InfiniBand): the 2-node NVLS and Tree
  // figures read as a ring overstate 46 and 60 nodes by 2.5x and 1.7x; the same clusters' rings stay within 20%.
  const Series& nvlsB200 = byId(all, "b200-ib-nvls-use3a-20260502");
  EXPECT_FALSE(isChecked(nvlsB200));
  EXPECT_NEAR(checkSeries(nvlsB200, true).errorAtLargest, 717.2 / 291.4 - 1, 1e-3);
  const Series& treeB200 = byId(all, "b200-ib-tree-together-20260509");
  EXPECT_FALSE(isChecked(treeB200));
  EXPECT_NEAR(checkSeries(treeB200, true).errorAtLargest, 338.63 / 195.36 - 1, 1e-3);
  EXPECT_NEAR(checkSeries(byId(all, "h100-ib-nccltests309"), true).errorAtLargest, 470 / 365.84 - 1, 1e-3);
  // CollNet/SHARP stays flat from 2 to 46 nodes (533 -> 544.8 GB/s): flagged all the same, since it is not the
  // ring a job without SHARP gets; read as a ring from 2+4 nodes it lands within 5% (-1.8%).
  EXPECT_LT(std::abs(checkSeries(byId(all, "b200-ib-sharp-use3a-20260502"), true).errorAtLargest), 0.05);
  // An unnamed bandwidth column cannot be converted: the check refuses rather than guess.
  EXPECT_THROW(checkSeries(byId(all, "a100-roce-nccltests169"), true), std::runtime_error);
}

TEST(PublishedSeries, BadFixturesAreRefusedNamingTheFileAndField) {
  const auto dir = std::filesystem::temp_directory_path() / "pf-series-bad";
  std::filesystem::create_directories(dir);
  const auto file = dir / "broken.json";
  std::ofstream(file) << R"({"id": "x", "title": "t", "url": "https://e", "quantity": "time_us"})";
  try {
    loadSeries(file);
    FAIL() << "accepted a series without algorithm_at_2_nodes";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json: missing field 'algorithm_at_2_nodes'"), std::string::npos)
        << e.what();
  }
  std::ofstream(file) << "{ not json";
  EXPECT_THROW(loadSeries(file), std::runtime_error);
  std::filesystem::remove_all(dir);
}
