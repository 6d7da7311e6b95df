// SPDX-License-Identifier: Apache-2.0
// The sweep driver on one in-process rank: row contents, formulas, the planted error, option validation.
#include <gtest/gtest.h>

#include "loopback_backend.hpp"
#include "pf/error.hpp"
#include "pf/sweep_row.hpp"
#include "sweep.hpp"

namespace pf::collectives {
namespace {

using testing::LoopbackBackend;

SweepOptions small() {
  SweepOptions o;
  o.minBytes = 8;
  o.maxBytes = 4096;
  o.stepFactor = 4;
  o.iters = 3;
  o.warmup = 1;
  return o;
}

TEST(Sweep, SizesFollowNcclTestsLoop) {
  SweepOptions o = small();
  EXPECT_EQ(sweepSizes(o), (std::vector<uint64_t>{8, 32, 128, 512, 2048}));
  o.stepFactor = 1;
  o.minBytes = 100;
  o.maxBytes = 400;
  o.stepBytes = 100;
  EXPECT_EQ(sweepSizes(o), (std::vector<uint64_t>{100, 200, 300, 400}));
}

TEST(Sweep, EveryCollectiveTypeAndOpIsCorrectOnOneRank) {
  auto boot = makeLocalBootstrap();
  SweepOptions o = small();
  o.dtypes = parseDataTypes("all");
  o.ops = parseRedOps("all");
  for (const std::string& name : Registry<Collective>::instance().keys()) {
    LoopbackBackend be;
    auto coll = Registry<Collective>::instance().create(name);
    Result r = runSweep(be, *boot, *coll, o);
    EXPECT_EQ(r.status, Status::kPass) << name << ": " << r.message;
    size_t combos = coll->reduces() ? 10 * 5 : 10;
    ASSERT_EQ(r.rows.size(), combos * 5 * 2) << name;
    for (const Json& j : r.rows) {
      SweepRow row = sweepRowFromJson(j);
      EXPECT_EQ(*row.wrong, 0) << name;
      EXPECT_EQ(row.collective, name);
      EXPECT_TRUE(row.iter_p50_us.has_value());
      EXPECT_EQ(*row.rank_skew, 1.0);
      EXPECT_EQ(row.busbw_gbps, row.algbw_gbps * coll->busFactor(1));
    }
  }
}

TEST(Sweep, HugePagesReachTheBackendAndTheDocument) {
  auto boot = makeLocalBootstrap();
  auto coll = Registry<Collective>::instance().create("all_reduce");
  SweepOptions o = small();
  LoopbackBackend plain;
  EXPECT_EQ(runSweep(plain, *boot, *coll, o).params["huge_pages"], false);
  EXPECT_EQ(plain.hugeAllocations, 0);
  o.hugePages = true;
  LoopbackBackend huge;
  EXPECT_EQ(runSweep(huge, *boot, *coll, o).params["huge_pages"], true);
  EXPECT_EQ(huge.hugeAllocations, 2);  // the send and the receive buffer
}

TEST(Sweep, PlantedErrorIsCountedAndFails) {
  auto boot = makeLocalBootstrap();
  LoopbackBackend be(/*corrupt=*/true);
  auto coll = Registry<Collective>::instance().create("all_reduce");
  SweepOptions o = small();
  Result r = runSweep(be, *boot, *coll, o);
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.metrics["out_of_bounds"], 10);  // every size, both placements
  for (const Json& j : r.rows) EXPECT_EQ(sweepRowFromJson(j).wrong, 1);
  EXPECT_FALSE(r.remedy.empty());
}

TEST(Sweep, CheckOffReportsNullWrongAndPassesCorruptData) {
  auto boot = makeLocalBootstrap();
  LoopbackBackend be(true);
  auto coll = Registry<Collective>::instance().create("all_reduce");
  SweepOptions o = small();
  o.checkIters = 0;
  o.perIterTiming = false;
  Result r = runSweep(be, *boot, *coll, o);
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_TRUE(r.rows[0]["wrong"].is_null());
  EXPECT_TRUE(r.rows[0]["iter_p50_us"].is_null());
  EXPECT_TRUE(r.metrics["wrong_total"].is_null());
}

TEST(Sweep, TimedLoopLaunchesExactlyItersPlusWarmup) {
  auto boot = makeLocalBootstrap();
  LoopbackBackend be;
  auto coll = Registry<Collective>::instance().create("all_reduce");
  SweepOptions o = small();
  o.maxBytes = 8;
  o.iters = 7;
  o.warmup = 2;
  o.checkIters = 0;
  o.perIterTiming = false;
  runSweep(be, *boot, *coll, o);
  EXPECT_EQ(be.launches, 2 * (7 + 2));  // out-of-place and in-place
}

TEST(Sweep, CyclesMeasureEverySizeAgainAfterTheWholePass) {
  auto boot = makeLocalBootstrap();
  LoopbackBackend be;
  auto coll = Registry<Collective>::instance().create("all_reduce");
  SweepOptions o = small();
  o.cycles = 3;
  o.iters = 2;
  o.warmup = 0;
  o.checkIters = 0;
  o.perIterTiming = false;
  Result r = runSweep(be, *boot, *coll, o);
  EXPECT_EQ(be.launches, 3 * 5 * 2 * 2);  // cycles x sizes x placements x iters
  EXPECT_EQ(r.params["cycles"], 3);
  ASSERT_EQ(r.rows.size(), 3u * 5 * 2);
  // Pass-major order: all sizes of pass 1, then all of pass 2, ...
  for (size_t i = 0; i < r.rows.size(); ++i) {
    SweepRow row = sweepRowFromJson(r.rows[i]);
    ASSERT_TRUE(row.cycle.has_value());
    EXPECT_EQ(*row.cycle, static_cast<int>(i / 10) + 1);
    EXPECT_EQ(row.size_bytes, sweepSizes(o)[(i % 10) / 2]);
  }
  // One pass: rows carry no cycle, so one-pass documents read as before.
  o.cycles = 1;
  EXPECT_FALSE(r.rows.empty());
  Result one = runSweep(be, *boot, *coll, o);
  EXPECT_FALSE(one.rows[0].contains("cycle"));
  o.cycles = 0;
  EXPECT_THROW(runSweep(be, *boot, *coll, o), UsageError);
}

// A collective no backend has a call for: made outside the registry, so the call tables stay complete.
class Gather final : public Collective {
 public:
  Gather() : Collective("gather") {}
  Layout layout(size_t count, int, size_t) const override { return {count, count, count, 0, 0}; }
  double algBytes(const Layout& l, int, size_t es) const override { return double(l.paramCount) * es; }
  double busFactor(int) const override { return 1.0; }
  bool expected(void*, const Layout&, const CollArgs&) const override { return false; }
};

TEST(Sweep, CollectiveWithoutABackendCallIsAUsageErrorBeforeAnyLaunch) {
  auto boot = makeLocalBootstrap();
  LoopbackBackend be;
  try {
    runSweep(be, *boot, Gather(), small());
    FAIL() << "a sweep ran a collective the backend has no call for";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'gather' is not implemented by the loopback backend"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(be.launches, 0);
}

TEST(Sweep, RowsAndParamsCarryTheRegistryKeys) {
  auto boot = makeLocalBootstrap();
  LoopbackBackend be;
  auto coll = Registry<Collective>::instance().create("reduce_scatter");
  Result r = runSweep(be, *boot, *coll, small());
  EXPECT_EQ(r.key, "sweep.reduce_scatter");
  EXPECT_EQ(r.params["collective"], "reduce_scatter");
  EXPECT_EQ(r.params["backend"], "loopback");
  EXPECT_EQ(sweepRowFromJson(r.rows[0]).collective, "reduce_scatter");
}

TEST(Sweep, ValidationSaysWhatToChange) {
  auto ar = Registry<Collective>::instance().create("all_reduce");
  auto bc = Registry<Collective>::instance().create("broadcast");
  SweepOptions o = small();
  o.minBytes = 1 << 20;
  o.maxBytes = 1024;
  EXPECT_THROW(validateOptions(o, *ar, 2), UsageError);
  o = small();
  o.minBytes = 6;  // not a whole number of floats
  try {
    validateOptions(o, *ar, 2);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("-b 8"), std::string::npos) << e.what();
  }
  o = small();
  o.root = 5;
  EXPECT_THROW(validateOptions(o, *bc, 4), UsageError);
  EXPECT_NO_THROW(validateOptions(o, *ar, 4));  // root is irrelevant to all_reduce
  o = small();
  o.iters = 0;
  EXPECT_THROW(validateOptions(o, *ar, 1), UsageError);
  o = small();
  o.stepFactor = 1;
  o.stepBytes = 0;
  EXPECT_THROW(validateOptions(o, *ar, 1), UsageError);
}

TEST(Sweep, ParsesTypeAndOpNames) {
  EXPECT_EQ(parseDataTypes("all").size(), 10u);
  EXPECT_EQ(parseDataTypes("bf16")[0], DataType::kBfloat16);
  EXPECT_THROW(parseDataTypes("float8"), UsageError);
  EXPECT_EQ(parseRedOps("all").size(), 5u);
  EXPECT_THROW(parseRedOps("mulsum"), UsageError);
}

}  // namespace
}  // namespace pf::collectives
