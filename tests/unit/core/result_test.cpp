// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "pf/error.hpp"
#include "pf/result.hpp"
#include "pf/sweep_row.hpp"

namespace pf {
namespace {

RunReport sample() {
  RunReport r;
  r.context.version = "0.1.0";
  r.context.command = "sweep";
  r.context.argv = {"preflight", "sweep", "all_reduce"};
  r.context.world_size = 4;
  Result res;
  res.key = "sweep.all_reduce";
  res.kind = "sweep";
  res.status = Status::kFail;
  res.message = "1 wrong";
  res.remedy = "rerun";
  SweepRow row;
  row.collective = "all_reduce";
  row.size_bytes = 500000;
  row.count = 125000;
  row.dtype = "float";
  row.op = "sum";
  row.placement = "out";
  row.time_us = 188.69;
  row.wrong = 0;
  row.iter_p50_us = 187.5;
  res.rows.push_back(toJson(row));
  r.results.push_back(res);
  r.phases.push_back({"sweep", 1.5});
  r.verdict = Status::kFail;
  r.exit_code = 1;
  return r;
}

TEST(Result, RoundTripsThroughJson) {
  RunReport r = sample();
  Json j = toJson(r);
  EXPECT_EQ(j["schema_version"], kSchemaVersion);
  RunReport back = reportFromJson(Json::parse(j.dump()));
  EXPECT_EQ(toJson(back), j);
  SweepRow row = sweepRowFromJson(back.results[0].rows[0]);
  EXPECT_EQ(row.count, 125000u);
  EXPECT_EQ(*row.wrong, 0);
  EXPECT_FALSE(row.rank_skew.has_value());
  EXPECT_TRUE(j["results"][0]["rows"][0]["rank_skew"].is_null());  // null means not measured
}

TEST(Result, StatusOrderAndNames) {
  EXPECT_EQ(worst(Status::kPass, Status::kWarn), Status::kWarn);
  EXPECT_EQ(worst(Status::kError, Status::kFail), Status::kError);
  EXPECT_EQ(statusFromString("absent"), Status::kAbsent);
  EXPECT_THROW(statusFromString("great"), UsageError);
}

TEST(Result, RejectsDocumentsThatDoNotFit) {
  EXPECT_THROW(reportFromJson(Json::array()), UsageError);
  EXPECT_THROW(reportFromJson(Json{{"results", Json::array()}}), UsageError);  // no schema_version
  Json future = toJson(sample());
  future["schema_version"] = kSchemaVersion + 1;
  EXPECT_THROW(reportFromJson(future), UsageError);
  Json badStatus = toJson(sample());
  badStatus["results"][0]["status"] = "okay";
  EXPECT_THROW(reportFromJson(badStatus), UsageError);
  Json badType = toJson(sample());
  badType["results"][0]["key"] = 5;
  try {
    reportFromJson(badType);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'key'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pf
