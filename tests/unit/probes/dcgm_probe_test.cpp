// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The dcgm probe with a stand-in `dcgmi` on PATH (a shell script printing JSON in the layout of DCGM 4's
// testing/python3/dcgm_diag_schema.json), and the JSON reader on DCGM 3's older layout. DCGM itself is not run
// here (no GPU): not run on a GPU node yet.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "gpu/dcgm_diag.hpp"
#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using test::TempTree;

// A passing level-1 run: software and memory tests on two GPUs.
const char* kPassJson = R"({"DCGM Diagnostic": {"test_categories": [
 {"category": "Deployment", "tests": [{"name": "software", "test_summary": {"status": "Pass"},
   "results": [{"entity_group": "GPU", "entity_group_id": 1, "entity_id": 0, "status": "Pass"},
               {"entity_group": "GPU", "entity_group_id": 1, "entity_id": 1, "status": "Pass"}]}]},
 {"category": "Hardware", "tests": [{"name": "memory", "test_summary": {"status": "Pass"},
   "results": [{"entity_group": "GPU", "entity_group_id": 1, "entity_id": 0, "status": "Pass"},
               {"entity_group": "GPU", "entity_group_id": 1, "entity_id": 1, "status": "Skip"}]}]}]},
 "metadata": {"version": "4.2.3", "Driver Version Detected": "570.124.06"}})";

// GPU 1 has a pending row remap (DCGM_FR_PENDING_ROW_REMAP, severity RESET) and GPU 0 a persistence-mode warning
// (DCGM_FR_PERSISTENCE_MODE, severity MONITOR).
const char* kFailJson = R"({"DCGM Diagnostic": {"test_categories": [
 {"category": "Deployment", "tests": [{"name": "software", "test_summary": {"status": "Fail"},
   "results": [{"entity_group": "GPU", "entity_group_id": 1, "entity_id": 0, "status": "Warn",
                "warnings": [{"warning": "Persistence mode for GPU 0 is disabled.", "error_id": 29,
                              "error_category": 3, "error_severity": 1}]},
               {"entity_group": "GPU", "entity_group_id": 1, "entity_id": 1, "status": "Fail",
                "warnings": [{"warning": "GPU 1 has uncorrectable memory errors and row remappings are pending.",
                              "error_id": 85, "error_category": 10, "error_severity": 6}]}]}]}]},
 "metadata": {"version": "4.2.3"}})";

void standInDcgmi(TempTree& t, const std::string& json, int exitCode) {
  t.file("/bin/dcgmi", "#!/bin/sh\n[ \"$1 $2 $4\" = \"diag -r -j\" ] || exit 9\ncat <<'PFEOF'\n" + json +
                           "\nPFEOF\nexit " + std::to_string(exitCode));
  ::chmod((t.root() / "bin/dcgmi").c_str(), 0755);
}

Result runDcgm(const TempTree& t, int level, bool withPath = true) {
  Environment env;
  env.set("PATH", withPath ? (t.root() / "bin").string() + ":/usr/bin:/bin" : "/nonexistent");
  ProbeOptions opt;
  opt.dcgmLevel = level;
  return Registry<Probe>::instance().create("dcgm")->run(SystemView(t.root(), env, true), opt);
}

TEST(DcgmProbe, APassingDiagnosticPassesWithItsCounts) {
  TempTree t;
  standInDcgmi(t, kPassJson, 0);
  Result r = runDcgm(t, 1);
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.message, "DCGM diagnostic level 1: 3 of 4 results passed, none failed");
  EXPECT_EQ(r.metrics.at("results"), 4);
}

TEST(DcgmProbe, FailedResultsBecomeFindingsWithTheirDcgmErrorAndRemedy) {
  TempTree t;
  standInDcgmi(t, kFailJson, 226);  // dcgmi exits non-zero when a test fails; the JSON still says which
  Result r = runDcgm(t, 2);
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[1].at("entity"), "GPU 1");
  EXPECT_EQ(r.rows[1].at("error"), "DCGM_FR_PENDING_ROW_REMAP");
  EXPECT_EQ(r.rows[1].at("status"), "fail");
  EXPECT_EQ(r.rows[0].at("error"), "DCGM_FR_PERSISTENCE_MODE");
  EXPECT_EQ(r.rows[0].at("status"), "warn");
  EXPECT_NE(r.message.find("GPU 1: Deployment test software: GPU 1 has uncorrectable memory errors and row "
                           "remappings are pending. (DCGM_FR_PENDING_ROW_REMAP)"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.remedy.find("so the pending retirement or remap takes effect"), std::string::npos) << r.remedy;
}

TEST(DcgmProbe, WithoutDcgmiItWarnsAndClaimsNoPass) {
  TempTree t;
  Result r = runDcgm(t, 1, false);
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_EQ(r.message, "dcgmi is not installed (not on PATH): DCGM's diagnostic was not run");
}

TEST(DcgmProbe, NotAskedOrNotJsonIsNeverAPass) {
  TempTree t;
  EXPECT_EQ(runDcgm(t, 0).status, Status::kSkipped);
  standInDcgmi(t, "Error: unable to connect to host engine", 1);
  Result r = runDcgm(t, 1);
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_NE(r.message.find("gave no diagnostic to read: no JSON object"), std::string::npos) << r.message;
}

TEST(DcgmDiag, ReadsDcgm3LayoutAndRuntimeErrors) {
  DcgmDiag d = parseDcgmDiag(R"({"DCGM GPU Diagnostic": {"version": "3.3.5", "test_categories": [
    {"category": "Hardware", "tests": [{"name": "GPU Memory", "results": [
      {"gpu_id": "0", "status": "Pass"},
      {"gpu_id": "3", "status": "Fail", "warnings": [{"warning": "Found 2 faulty memory elements on GPU 3.",
                                                    "error_id": 52}]}]}]}]}})");
  EXPECT_EQ(d.version, "3.3.5");
  EXPECT_EQ(d.results, 2);
  ASSERT_EQ(d.issues.size(), 1u);
  EXPECT_EQ(d.issues[0].entity, "GPU 3");
  EXPECT_EQ(d.issues[0].status, Status::kFail);  // no severity: the test's own "Fail"
  EXPECT_EQ(dcgmErrorName(*d.issues[0].errorId), "DCGM_FR_FAULTY_MEMORY");
  DcgmDiag e = parseDcgmDiag(R"({"DCGM Diagnostic": {"runtime_error": "Unable to connect to nv-hostengine"}})");
  EXPECT_EQ(e.runtimeError, "Unable to connect to nv-hostengine");
  EXPECT_THROW(parseDcgmDiag(R"({"something": 1})"), std::runtime_error);
  EXPECT_EQ(dcgmErrorName(4242), "DCGM error 4242");
}

TEST(DcgmDiag, ABoundedRunStopsAHangingCommand) {
  CommandRun run = runBounded({"sh", "-c", "echo started; sleep 30"}, 1);
  EXPECT_TRUE(run.timedOut);
  EXPECT_EQ(run.out, "started\n");
}

}  // namespace
}  // namespace pf::probes
