// SPDX-License-Identifier: Apache-2.0
#include "pf/result.hpp"

#include <gtest/gtest.h>

#include "pf/error.hpp"
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
  res.kind = Kind::kSweep;
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
    EXPECT_NE(std::string(e.what()).find("results[0].key: "), std::string::npos) << e.what();
  }
}

TEST(Result, EvidenceHasOneShape) {
  RunReport r = sample();
  r.results[0].evidence.push_back({"busbw at 1 MiB", 7.8, "GB/s", "sweep.all_reduce"});
  r.results[0].evidence.push_back({"log line", "NCCL WARN x", "", "job.out:12"});
  Json j = toJson(r);
  EXPECT_EQ(j["results"][0]["evidence"][0],
            (Json{{"what", "busbw at 1 MiB"}, {"value", 7.8}, {"unit", "GB/s"}, {"source", "sweep.all_reduce"}}));
  EXPECT_FALSE(j["results"][0]["evidence"][1].contains("unit"));  // empty unit: left out
  RunReport back = reportFromJson(j);
  ASSERT_EQ(back.results[0].evidence.size(), 2u);
  EXPECT_EQ(back.results[0].evidence[1].source, "job.out:12");
  Json noWhat = j;
  noWhat["results"][0]["evidence"][0].erase("what");
  EXPECT_THROW(reportFromJson(noWhat), UsageError);
  Json unknownKind = j;
  unknownKind["results"][0]["kind"] = "benchmark";
  EXPECT_THROW(reportFromJson(unknownKind), UsageError);
}

TEST(Result, ReadsVersionOneEvidence) {
  // Version 1 allowed plain strings, objects with "what", and free objects of measurements.
  Json v1 = toJson(sample());
  v1["schema_version"] = 1;
  v1["results"][0]["evidence"] = Json::array({"expected bandwidth from the majority",
                                              Json{{"what", "link rate"}, {"value", 400}, {"source", "/sys/x"}},
                                              Json{{"majority_gbps", 1.5}, {"topology_gbps", 50}}});
  RunReport r = reportFromJson(v1);
  EXPECT_EQ(r.schema_version, kSchemaVersion);  // upgraded on reading
  const auto& ev = r.results[0].evidence;
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].what, "expected bandwidth from the majority");
  EXPECT_TRUE(ev[0].value.is_null());
  EXPECT_EQ(ev[1].what, "link rate");
  EXPECT_EQ(ev[1].value, 400);
  EXPECT_EQ(ev[1].source, "/sys/x");
  EXPECT_EQ(ev[2].what, "majority_gbps");
  EXPECT_EQ(ev[3].value, 50);
  // The same shapes in a version 2 document are an error: only {what, value, unit, source} is allowed.
  v1["schema_version"] = 2;
  EXPECT_THROW(reportFromJson(v1), UsageError);
}

TEST(Result, KindNamesRoundTrip) {
  for (Kind k : {Kind::kSweep, Kind::kProbe, Kind::kPairs, Kind::kCheck, Kind::kDiagnosis, Kind::kDoctor, Kind::kScale,
                 Kind::kEnv})
    EXPECT_EQ(kindFromString(toString(k)), k);
  EXPECT_EQ(statusFromString("timeout"), Status::kTimeout);
  EXPECT_EQ(worst(Status::kFail, Status::kTimeout), Status::kTimeout);
}

TEST(Result, NoStringOfTheDocumentCarriesANul) {
  // A C buffer copied with its terminator (MPI_Get_library_version's length counts it in some MPIs) must not
  // reach the document as "\u0000", wherever the string sits.
  using namespace std::string_literals;
  RunReport r;
  r.context.extra["engine"] = Json{{"library", "Open MPI v4.1.4\0"s}, {"list", Json::array({"a\0b"s})}};
  r.context.argv = {"preflight\0"s};
  Result res;
  res.key = "k";
  res.message = "done\0"s;
  r.results.push_back(res);
  const Json j = toJson(r);
  EXPECT_EQ(j.dump().find("\\u0000"), std::string::npos) << j.dump();
  EXPECT_EQ(j["context"]["extra"]["engine"]["library"], "Open MPI v4.1.4");
  EXPECT_EQ(j["context"]["extra"]["engine"]["list"][0], "ab");
  EXPECT_EQ(j["context"]["argv"][0], "preflight");
  EXPECT_EQ(j["results"][0]["message"], "done");
}

}  // namespace
}  // namespace pf
