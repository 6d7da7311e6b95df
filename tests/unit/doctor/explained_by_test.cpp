// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A rule `explained_by` another: when the other's failure came first on the job's timeline, within the window, the
// diagnosis is ranked right after it as its consequence (ArtefactSession::alignDiagnoses); an older event, a later
// one or one with no comparable time changes nothing. The catalog refuses explanations that name no rule, the rule
// itself, or go round in a cycle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "artefacts/timeline.hpp"
#include "artefacts/walk.hpp"
#include "pf/error.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  TempDir() {
    char tmpl[] = "/tmp/pf_doctor_explained_XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
  void file(const std::string& name, const std::string& bytes) const {
    fs::create_directories(fs::path(path + "/" + name).parent_path());
    std::ofstream(path + "/" + name, std::ios::binary) << bytes;
  }
  std::string path;
};

// Rank 3's NCCL retry error at 10:42:37 and node3's kernel log with the NIC's link going down at `linkDownAt`.
struct Job {
  std::vector<std::string> ranked;  // rule ids, as the report lists them after the timeline's alignment
  std::vector<std::string> before;  // the same, before it
  std::map<std::string, std::string> consequenceOf;
};

Job diagnose(const std::string& linkDownAt) {
  TempDir d;
  d.file("rank3.log",
         "[2026-04-22 10:42:37] node3:2817:2901 [3] transport/net_ib.cc:2358 NCCL WARN NET/IB: Got completion from "
         "peer 10.0.0.4<47372> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.3 "
         "remoteGids::ffff:10.0.0.4 hca mlx5_3\n");
  d.file("node3/kern.log", "Apr 22 " + linkDownAt +
                               " node3 kernel: mlx5_core 0000:c1:00.0: mlx5_port_module_event:1146:(pid 0): Port "
                               "module event: module 0, Cable unplugged\n");
  const InputFiles in = collectInputs({d.path});
  ArtefactSession s;
  Analysis a = analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner());
  Job job;
  for (const auto& x : a.diagnoses) job.before.push_back(x.rule->id);
  (void)s.result(a, in.skipped);
  s.alignDiagnoses(a);
  for (const auto& x : a.diagnoses) {
    job.ranked.push_back(x.rule->id);
    if (x.consequenceOf) job.consequenceOf[x.rule->id] = x.consequenceOf->id;
  }
  return job;
}

constexpr const char* kKernel = "ib-verbs.nic-link-lost-kernel";
constexpr const char* kRetry = "ib-verbs.completion-error-12-retry";

TEST(ExplainedBy, TheKernelsLinkLossBeforeNcclsRetryErrorIsItsCause) {
  const Job job = diagnose("10:42:30");
  // By confidence alone NCCL's retry error (0.85) leads the kernel's event (0.70).
  ASSERT_GE(job.before.size(), 2u);
  EXPECT_EQ(job.before[0], kRetry);
  ASSERT_GE(job.ranked.size(), 2u);
  EXPECT_EQ(job.ranked[0], kKernel);
  EXPECT_EQ(job.ranked[1], kRetry);
  EXPECT_EQ(job.consequenceOf.at(kRetry), kKernel);
  EXPECT_FALSE(job.consequenceOf.count(kKernel));
}

TEST(ExplainedBy, StampsToTheSecondMayPutTheCauseUpToASecondAfter) {
  // syslog's stamp is cut to the second: a link lost at 10:42:37.9 prints as 10:42:37, NCCL's as it printed.
  EXPECT_EQ(diagnose("10:42:37").ranked[0], kKernel);
  EXPECT_EQ(diagnose("10:42:38").ranked[0], kKernel);
}

TEST(ExplainedBy, AnOlderOrALaterLinkEventExplainsNothing) {
  for (const char* at : {"10:30:00", "10:42:39", "10:50:00"}) {
    const Job job = diagnose(at);
    EXPECT_EQ(job.ranked, job.before) << at;
    EXPECT_FALSE(job.consequenceOf.count(kRetry)) << at;
  }
}

// Loads a copy of the built-in rules with `from` replaced by `to` in ib-verbs.json: a UsageError that says `message`.
void expectCatalogRefuses(const std::string& from, const std::string& to, const std::string& message) {
  TempDir d;
  for (const auto& e : fs::directory_iterator(PF_DOCTOR_RULES))
    fs::copy(e.path(), d.path + "/" + e.path().filename().string());
  const std::string path = d.path + "/ib-verbs.json";
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  std::ofstream(path, std::ios::trunc) << text;
  try {
    (void)loadCatalogDir(d.path);
    ADD_FAILURE() << "loaded: " << to;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(ExplainedBy, TheCatalogRefusesExplanationsThatNameNoRuleThemselvesOrACycle) {
  ASSERT_NO_THROW((void)loadCatalogDir(PF_DOCTOR_RULES));
  expectCatalogRefuses(R"("ib-verbs.nic-link-lost-kernel"
      ],)",
                       R"("ib-verbs.no-such-rule"
      ],)",
                       "names no rule 'ib-verbs.no-such-rule'");
  expectCatalogRefuses(R"("id": "ib-verbs.nic-link-lost-kernel",)",
                       R"("id": "ib-verbs.nic-link-lost-kernel", "explained_by": ["ib-verbs.nic-link-lost-kernel"],)",
                       "names the rule itself");
  expectCatalogRefuses(R"("id": "ib-verbs.nic-link-lost-kernel",)",
                       R"("id": "ib-verbs.nic-link-lost-kernel", "explained_by": ["ib-verbs.port-down"],)", "a cycle");
}

}  // namespace
}  // namespace pf::doctor
