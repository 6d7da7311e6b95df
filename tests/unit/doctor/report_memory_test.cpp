// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's memory of reported failures (report_memory.hpp) and the similar-reports tier it feeds
// (similar_reports.hpp). The memories here are small synthetic corpora; one test reads the real parts to check
// that the built-in memory holds the development part only.
#include "report_memory.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "pf/error.hpp"
#include "pf/result.hpp"
#include "similar_reports.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

std::string caseLine(const std::string& id, const std::string& category, const std::string& log) {
  return Json{{"id", id},
              {"category", category},
              {"log_excerpt", log},
              {"root_cause", "cause of " + id},
              {"fix", "fix of " + id},
              {"thread", "https://example.invalid/" + id}}
      .dump();
}

// Two threads per category, so each category's words are in the vocabulary; "zebra" is in one thread only.
std::shared_ptr<const ReportMemory> smallMemory() {
  std::string lines;
  lines += caseLine("s1", "shm", "Error: failed to extend /dev/shm segment, No space left on device") + "\n";
  lines += caseLine("s2", "shm", "posix_fallocate failed: No space left on device in shm segment zebra") + "\n";
  // Words no rule knows, so that the rules leave room for the memory in the analysis tests.
  lines += caseLine("r1", "rendezvous", "TCPStore client timed out connecting to MASTER_ADDR, kestrel heron") + "\n";
  lines += caseLine("r2", "rendezvous", "RuntimeError: connect() to MASTER_ADDR timed out (TCPStore) kestrel") + "\n";
  lines += caseLine("c1", "cuda", "CUDA error: an illegal memory access was encountered") + "\n";
  lines += caseLine("c2", "cuda", "RuntimeError: CUDA error: illegal memory access, device-side assert") + "\n";
  return ReportMemory::fromJsonLines({{"small.jsonl", lines}});
}

std::vector<std::uint32_t> idsOf(const ReportMemory& m, const std::string& text) {
  WordSample s(&m);
  s.add(text);
  return s.ids();
}

TEST(DoctorReportMemory, WordsAreThreeOrMoreCharactersLowerCased) {
  std::vector<std::string> got;
  std::string buf;
  forEachWord("NCCL WARN NET/IB : ibv_reg_mr failed 12abc ab _x9 9", buf,
              [&](std::string_view w) { got.emplace_back(w); });
  // An identifier's parts of three or more letters count as words too ("mr" is too short).
  EXPECT_EQ(got, (std::vector<std::string>{"nccl", "warn", "net", "ibv_reg_mr", "ibv", "reg", "failed", "abc", "_x9"}));
}

TEST(DoctorReportMemory, NcclErrorTracesAreTheFileAndLineOfACallThatFailed) {
  EXPECT_TRUE(WordSample::isNcclErrorTrace("node2:242431:242475 [1] NCCL INFO init.cc:1277 -> 1"));
  EXPECT_TRUE(WordSample::isNcclErrorTrace("n:1:1 [2] NCCL INFO group.cc:75 -> 1 [Async thread]"));
  EXPECT_TRUE(WordSample::isNcclErrorTrace("[1,0]<stdout>:n:1:1 [0] NCCL INFO transport/nvls.cc:330 -> 5\r"));
  // Success, a ring or a channel, a tree, and a WARN line are not traces of an error.
  EXPECT_FALSE(WordSample::isNcclErrorTrace("n:1:1 [0] NCCL INFO init.cc:1277 -> 0"));
  EXPECT_FALSE(WordSample::isNcclErrorTrace("n:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"));
  EXPECT_FALSE(WordSample::isNcclErrorTrace("n:1:1 [0] NCCL INFO Ring 00 : 3 -> 0 [receive] via NET/IB/0"));
  EXPECT_FALSE(WordSample::isNcclErrorTrace("n:1:1 [0] NCCL INFO Ring 00 : 0 -> 1 -> 2 -> 3"));
  EXPECT_FALSE(WordSample::isNcclErrorTrace("n:1:1 [0] NCCL INFO Trees [0] -1/-1/-1->0->1"));
  EXPECT_FALSE(WordSample::isNcclErrorTrace("n:1:1 [0] NCCL WARN init.cc:1277 -> 1"));
}

TEST(DoctorReportMemory, IdentifierPartsBringALogNearItsReports) {
  // No whole word of the log is in two threads; the parts of its identifiers ("mlx5", "ibv") are.
  std::string lines;
  lines += caseLine("i1", "ib-verbs", "mlx5_0: ibv_modify_qp") + "\n";
  lines += caseLine("i2", "ib-verbs", "mlx5_1: ibv_create_cq") + "\n";
  lines += caseLine("s1", "shm", "Error: failed to extend /dev/shm segment") + "\n";
  lines += caseLine("s2", "shm", "posix_fallocate failed: /dev/shm segment") + "\n";
  auto m = ReportMemory::fromJsonLines({{"small.jsonl", lines}});
  EXPECT_EQ(m->wordId("mlx5_0"), -1);
  EXPECT_GE(m->wordId("mlx5"), 0);
  EXPECT_GE(m->wordId("ibv"), 0);
  auto votes = m->vote(idsOf(*m, "mlx5_2: ibv_create_qp went away"));
  ASSERT_FALSE(votes.empty());
  EXPECT_EQ(votes.front().category, "ib-verbs");
  EXPECT_DOUBLE_EQ(votes.front().share, 1.0);
}

TEST(DoctorReportMemory, OnlyWordsOfTwoThreadsCountAndTheNearestCategoryWins) {
  auto m = smallMemory();
  EXPECT_EQ(m->size(), 6u);
  EXPECT_GE(m->wordId("tcpstore"), 0);
  EXPECT_EQ(m->wordId("zebra"), -1);  // one thread only: says nothing
  auto votes = m->vote(idsOf(*m, "client timed out: TCPStore at MASTER_ADDR never answered"), 9, 0);
  ASSERT_FALSE(votes.empty());
  EXPECT_EQ(votes.front().category, "rendezvous");
  EXPECT_GT(votes.front().share, 0.5);
  EXPECT_EQ(votes.front().reports.size(), 2u);
  EXPECT_GE(votes.front().reports[0].similarity, votes.front().reports[1].similarity);
  // Words the memory does not know give no vote at all.
  EXPECT_TRUE(m->vote(idsOf(*m, "zebra quagga okapi"), 9, 0).empty());
}

TEST(DoctorReportMemory, ForgettingAThreadRemovesItsReportsAndItsWords) {
  auto m = smallMemory()->without("https://example.invalid/s2");
  EXPECT_EQ(m->size(), 5u);
  // "space", "left", "device" were in two shm threads; with one left they no longer count.
  EXPECT_EQ(m->wordId("space"), -1);
  for (const auto& r : m->reports()) EXPECT_NE(r.id, "s2");
}

TEST(DoctorReportMemory, RulesMessagesAreRememberedToo) {
  // Two rules' literals say "peer mapping" in their own words; a log that says it in a third way comes near them,
  // though it holds neither literal. A weak-evidence rule's generic words are left out.
  auto rule = [](std::string id, std::string category, std::string literal) {
    Rule r;
    r.id = std::move(id);
    r.category = std::move(category);
    r.title = "title of " + r.id;
    LinePattern p;
    p.all = {std::move(literal)};
    r.groups = {{p}};
    return r;
  };
  const std::vector<Rule> rules = {rule("p2p.a", "p2p", "peer mapping table exhausted on device"),
                                   rule("p2p.b", "p2p", "failed to add a peer mapping for device"),
                                   rule("p2p.weak-evidence", "p2p", "RuntimeError peer")};
  auto m = ReportMemory::fromJsonLines({{"small.jsonl", caseLine("c1", "cuda", "RuntimeError: CUDA error") + "\n" +
                                                            caseLine("c2", "cuda", "RuntimeError: CUDA failure")}},
                                       rules);
  EXPECT_EQ(m->size(), 4u);
  EXPECT_EQ(m->cases(), 2u);
  auto votes = m->vote(idsOf(*m, "RuntimeError: no room for one more peer mapping on this device"), 9, 0);
  ASSERT_FALSE(votes.empty());
  EXPECT_EQ(votes.front().category, "p2p");
  EXPECT_TRUE(votes.front().reports.front().report->rule);
  EXPECT_EQ(votes.front().reports.front().report->thread.rfind("rule:p2p.", 0), 0u);
}

TEST(DoctorReportMemory, AMalformedCaseNamesTheFileAndLine) {
  try {
    ReportMemory::fromJsonLines({{"cases.jsonl", caseLine("a", "shm", "x") + "\n{\"id\": \"b\"}\n"}});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cases.jsonl:2"), std::string::npos) << e.what();
  }
}

TEST(DoctorReportMemory, TheBuiltInMemoryIsTheDevelopmentPartOnly) {
  auto m = test::catalog().reports;
  std::set<std::string> threads;
  for (const auto& r : m->reports())
    if (!r.rule) threads.insert(r.thread);
  std::size_t dev = 0;
  for (const char* part : {"development.jsonl", "validation.jsonl"}) {
    std::ifstream in(std::string(PF_DOCTOR_CORPUS) + "/" + part);
    ASSERT_TRUE(in) << part;
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      const std::string thread = Json::parse(line).at("thread").get<std::string>();
      if (std::string(part) == "development.jsonl") {
        ++dev;
        EXPECT_TRUE(threads.count(thread)) << thread;
      } else {
        EXPECT_FALSE(threads.count(thread)) << "a validation thread is in the memory: " << thread;
      }
    }
  }
  EXPECT_EQ(m->cases(), dev + 30);  // and the 30 first cases (data/error_cases_dev.jsonl)
  // The rest are the catalog's rules, every one but the weak-evidence tier.
  std::size_t rules = 0;
  for (const auto& r : test::catalog().rules) rules += r.id != r.category + ".weak-evidence";
  EXPECT_EQ(m->size() - m->cases(), rules);
}

// The tier in the analysis: the built-in rules with the small memory (the catalog outlives the analyses, which
// point at its rules).
const Catalog& smallCatalog();

Analysis analyzeWithSmallMemory(const std::string& log) { return analyze(smallCatalog(), {Source{"log", log}}); }

// The catalog of analyzeWithSmallMemory, for analyses with another block size.
const Catalog& smallCatalog() {
  static const Catalog c = [] {
    Catalog x = test::catalog();
    x.reports = smallMemory();
    return x;
  }();
  return c;
}

std::size_t similarCount(const Analysis& a) {
  std::size_t n = 0;
  for (const auto& d : a.diagnoses) n += d.rule->id.find(".similar-reports") != std::string::npos;
  return n;
}

TEST(DoctorSimilarReports, AFailureNoRuleNamesGetsTheNearestReportsCategoryAtLowConfidence) {
  auto a = analyzeWithSmallMemory(
      "n1:1:1 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n"
      "Traceback (most recent call last):\n"
      "RuntimeError: the kestrel heron went away\n");
  // No rule names a cause (the words are the memory's own). r2 has two words in common with the log; r1
  // ("kestrel") and c2 ("RuntimeError") one each, which is a coincidence, not a resemblance.
  ASSERT_EQ(a.diagnoses.size(), 1u);
  const Diagnosis& first = a.diagnoses.front();
  EXPECT_EQ(first.rule->id, "rendezvous.similar-reports");
  EXPECT_DOUBLE_EQ(first.rule->confidence, 0.2);  // the whole vote
  EXPECT_EQ(first.evidence.size(), 2u);           // the traceback and its error line
  ASSERT_EQ(first.similar.size(), 1u);
  EXPECT_EQ(first.similar[0].report->id, "r2");
  EXPECT_EQ(first.rule->links, std::vector<std::string>{"https://example.invalid/r2"});
  // Streamed in 7-byte blocks the answer is the same (lines split across blocks are sampled whole).
  auto b = analyze(smallCatalog(),
                   {Source{"log",
                           "n1:1:1 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\nTraceback (most recent call last):\n"
                           "RuntimeError: the kestrel heron went away\n"}},
                   7);
  ASSERT_EQ(b.diagnoses.size(), 1u);
  EXPECT_EQ(b.diagnoses[0].rule->id, first.rule->id);
  EXPECT_EQ(b.diagnoses[0].rule->confidence, first.rule->confidence);
}

TEST(DoctorSimilarReports, NoFailureOrOnlyNcclWarningsMeansNoGuess) {
  // The words of a rendezvous failure, but nothing failed.
  EXPECT_EQ(similarCount(analyzeWithSmallMemory("export MASTER_ADDR=node7 TCPStore port 29500\n")), 0u);
  // NCCL warns on healthy nodes without InfiniBand; only NCCL's warnings never make a guess from words (the
  // rules' own weak-evidence tier may still answer from them).
  EXPECT_EQ(similarCount(
                analyzeWithSmallMemory("n1:1:1 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
                                       "n1:1:1 [0] NCCL WARN Failed to connect to MASTER_ADDR TCPStore: timed out\n")),
            0u);
  EXPECT_EQ(similarCount(analyzeWithSmallMemory("n1:1:1 [0] NCCL WARN Failed to find the kestrel heron\n")), 0u);
  // NCCL's trace of a call that returned an error is NCCL saying it failed: then its warning is evidence enough.
  // (Two words in common with r2, "RuntimeError" and "kestrel", as the first test's log has.)
  const std::string warn = "n1:1:1 [0] NCCL WARN RuntimeError: the kestrel heron went away\n";
  EXPECT_EQ(similarCount(analyzeWithSmallMemory(warn)), 0u);
  EXPECT_GE(similarCount(analyzeWithSmallMemory(warn + "n1:1:1 [0] NCCL INFO init.cc:1277 -> 1\n")), 1u);
  // A program that ended with exit code 0 says it succeeded; a non-zero code is a failure sign.
  const std::string nccl = "n1:1:1 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n";
  // (The words, lower case so that they are no failure sign themselves, are the two r2 has in common with it.)
  const std::string words = nccl + "runtimeerror kestrel heron\n";
  EXPECT_EQ(similarCount(analyzeWithSmallMemory(words + "Process finished with exit code 0\n")), 0u);
  EXPECT_GE(similarCount(analyzeWithSmallMemory(words + "Process finished with exit code 1\n")), 1u);
  // The same words said by the program itself are a failure, in a job that uses NCCL.
  EXPECT_GE(similarCount(analyzeWithSmallMemory("n1:1:1 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n"
                                                "RuntimeError: Failed to find the kestrel heron\n")),
            1u);
}

// Every remembered failure is a distributed one, so a plain Python error would read like the torch ones: without
// a line about the distributed stack (an NCCL line, or any rule's pattern but a failure sign) the tier is silent.
TEST(DoctorSimilarReports, APlainPythonErrorIsNotComparedWithDistributedFailures) {
  const std::string traceback =
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py\", line 1501, in _call_impl\n"
      "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)\n";
  EXPECT_EQ(similarCount(test::analyzeText(traceback)), 0u);
  // The memory's own words without a line about the stack: silent; with an NCCL line (above) or a word that
  // names the stack, compared.
  EXPECT_EQ(similarCount(analyzeWithSmallMemory("RuntimeError: Failed to find the kestrel heron\n")), 0u);
  EXPECT_GE(similarCount(analyzeWithSmallMemory("RuntimeError: horovod lost the kestrel\n")), 1u);
}

TEST(DoctorSimilarReports, NeverRepeatsOrOutranksTheRules) {
  // A rule names the shm cause; the memory's shm vote is not repeated, and nothing is listed before the rule.
  auto a = analyzeWithSmallMemory(
      "RuntimeError: NCCL error: unhandled system error\n"
      "NCCL WARN Error: failed to extend /dev/shm/nccl-x to 9637892 bytes, No space left on device\n");
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses.front().rule->category, "shm");
  EXPECT_EQ(a.diagnoses.front().rule->id.find("similar-reports"), std::string::npos);
  bool similarSeen = false;
  for (const auto& d : a.diagnoses) {
    const bool similar = d.rule->id.find("similar-reports") != std::string::npos;
    EXPECT_FALSE(similarSeen && !similar) << d.rule->id << " listed after a similar-reports diagnosis";
    similarSeen = similarSeen || similar;
    if (similar) {
      EXPECT_NE(d.rule->category, "shm");
    }
  }
}

TEST(DoctorSimilarReports, TwoRuleDiagnosesLeaveNoRoom) {
  Catalog c = test::catalog();
  c.reports = nullptr;
  const std::string log =
      "RuntimeError: CUDA error: an illegal memory access was encountered\n"
      "Error: failed to extend /dev/shm/nccl-x to 9637892 bytes, No space left on device\n";
  const std::size_t rulesOnly = analyze(c, {Source{"log", log}}).diagnoses.size();
  ASSERT_GE(rulesOnly, 2u);
  EXPECT_EQ(analyzeWithSmallMemory(log).diagnoses.size(), rulesOnly);
}

}  // namespace
}  // namespace pf::doctor

namespace pf::doctor {
namespace {

TEST(DoctorSimilarReports, AdviceToMoveToAnNcclTheJobAlreadyRunsIsDropped) {
  const std::vector<NcclVersion> running{{2, 20, 5}};
  std::string dropped;
  // The corpus's own wording (a-nccltests275-internal-error-nccl218-upgrade): the upgrade clause goes, the rest stays.
  EXPECT_EQ(
      withoutStaleNcclAdvice("Upgrade NCCL (reporter moved to 2.19.3 and the test passed); if it persists, rerun "
                             "with NCCL_DEBUG=WARN/INFO to see the real error instead of the 2.18 generic message.",
                             running, dropped),
      "if it persists, rerun with NCCL_DEBUG=WARN/INFO to see the real error instead of the 2.18 generic message.");
  EXPECT_EQ(dropped, "2.19.3");
  dropped.clear();
  EXPECT_EQ(withoutStaleNcclAdvice("Install a matching NCCL wheel (nvidia-nccl-cu12>=2.19.3), or use the cuda12_pip "
                                   "install which brings it in.",
                                   running, dropped),
            "");
  // The same release counts as reached; a newer one is still advice worth giving.
  dropped.clear();
  EXPECT_EQ(withoutStaleNcclAdvice("Upgrade NCCL to 2.20.5.", running, dropped), "");
  const std::string newer = "Upgrade NCCL to 2.21.5 or later, which fixed it.";
  dropped.clear();
  EXPECT_EQ(withoutStaleNcclAdvice(newer, running, dropped), newer);
  EXPECT_EQ(dropped, "");
  // No NCCL in the clause (a PyTorch 2.x.y upgrade), or no version in the log: left as it is.
  EXPECT_EQ(withoutStaleNcclAdvice("Upgrade PyTorch to 2.1.2.", running, dropped), "Upgrade PyTorch to 2.1.2.");
  EXPECT_EQ(withoutStaleNcclAdvice("Upgrade NCCL to 2.19.3.", {}, dropped), "Upgrade NCCL to 2.19.3.");
}

}  // namespace
}  // namespace pf::doctor
