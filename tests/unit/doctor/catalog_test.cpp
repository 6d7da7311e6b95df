// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "fact_names.hpp"
#include "pf/error.hpp"
#include "rule_catalog.hpp"

namespace pf::doctor {
namespace {

TEST(DoctorCatalog, OneFilePerCategoryEmbeddedAndOnDisk) {
  std::set<std::string> embedded;
  for (const auto& [name, text] : embeddedRuleFiles()) embedded.insert(std::string(name));
  for (const auto& c : categories()) {
    EXPECT_TRUE(embedded.count(c + ".json")) << c;
    EXPECT_TRUE(std::filesystem::exists(std::string(PF_DOCTOR_RULES) + "/" + c + ".json")) << c;
  }
  EXPECT_EQ(embedded.size(), categories().size());
  EXPECT_EQ(loadCatalogDir(PF_DOCTOR_RULES).rules.size(), builtinCatalog().rules.size());
}

TEST(DoctorCatalog, EveryRuleIsComplete) {
  std::set<std::string> seenCategories;
  for (const auto& r : builtinCatalog().rules) {
    seenCategories.insert(r.category);
    EXPECT_FALSE(r.explanation.empty()) << r.id;
    EXPECT_FALSE(r.fix.empty()) << r.id;
    EXPECT_FALSE(r.links.empty()) << r.id << " needs a public thread";
    EXPECT_GT(r.confidence, 0) << r.id;
  }
  EXPECT_EQ(seenCategories.size(), categories().size()) << "every category has at least one rule";
}

TEST(DoctorCatalog, RejectsMalformedRulesWithTheirName) {
  auto bad = [](const std::string& rule) { return std::string(R"({"category": "shm", "rules": [)") + rule + "]}"; };
  const std::string ok = R"({"id": "shm.x", "title": "t", "explanation": "e", "fix": "f", "confidence": 0.5,
                              "match": [["a long literal"]]})";
  EXPECT_EQ(parseRulesFile("shm.json", bad(ok)).size(), 1u);
  EXPECT_THROW(parseRulesFile("other.json", bad(ok)), UsageError);  // category must match the file name
  EXPECT_THROW(parseRulesFile("shm.json", "{not json"), UsageError);
  EXPECT_THROW(parseRulesFile("shm.json", bad(R"({"id": "shm.y", "title": "t", "explanation": "e", "fix": "f",
                                                  "confidence": 0.5, "match": [["short"]]})")),
               UsageError);
  EXPECT_THROW(parseRulesFile("shm.json", bad(R"({"id": "shm.y", "title": "t", "explanation": "e", "fix": "f",
                                                  "confidence": 1.5, "match": [["a long literal"]]})")),
               UsageError);
  // Wrong JSON types are a UsageError, never nlohmann's type_error (fuzz_rules found "fallback": [...]).
  for (const char* field : {R"("fallback": [1])", R"("fallback": "yes")", R"("captures": [{"name": 1, "after": "x"}])"})
    EXPECT_THROW(parseRulesFile("shm.json", bad(std::string(R"({"id": "shm.w", "title": "t", "explanation": "e",
                                                 "fix": "f", "confidence": 0.5, "match": [["a long literal"]], )") +
                                                field + "}")),
                 UsageError)
        << field;
  EXPECT_THROW(parseRulesFile("shm.json", bad(R"({"id": 7, "title": "t"})")), UsageError);
  EXPECT_THROW(parseRulesFile("shm.json", bad(R"({"id": "cuda.y", "title": "t", "explanation": "e", "fix": "f",
                                                  "confidence": 0.5, "match": [["a long literal"]]})")),
               UsageError);
  try {
    parseRulesFile("shm.json", bad(R"({"id": "shm.z", "title": "t", "explanation": "e", "fix": "f",
                                       "confidence": 0.5, "match": [["a long literal"]], "typo": 1})"));
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("shm.z"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("typo"), std::string::npos) << e.what();
  }
}

// A rule may name only a fact the doctor derives: a misspelt one would load and never match.
TEST(DoctorCatalog, AFactNobodyDerivesFailsWhenTheRulesLoad) {
  auto file = [](const std::string& factName) {
    return R"({"category": "shm", "rules": [{"id": "shm.f", "title": "t", "explanation": "e", "fix": "f",
               "confidence": 0.5, "match": [[{"fact": ")" +
           factName + R"("}]]}]})";
  };
  for (std::string_view f : fact::kAll) EXPECT_EQ(parseRulesFile("shm.json", file(std::string(f))).size(), 1u) << f;
  EXPECT_EQ(parseRulesFile("shm.json", file("nccl_in 2.7.3 2.18.1")).size(), 1u);
  try {
    parseRulesFile("shm.json", file("gdr_disabeld"));
    FAIL() << "a misspelt fact loaded";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("shm.json"), std::string::npos) << what;
    EXPECT_NE(what.find("shm.f"), std::string::npos) << what;
    EXPECT_NE(what.find("'gdr_disabeld'"), std::string::npos) << what;
    EXPECT_NE(what.find("gdr_disabled"), std::string::npos) << what << ": the known names are listed";
  }
  // "nccl_init" is not a range; it is an unknown name like any other.
  EXPECT_THROW(parseRulesFile("shm.json", file("nccl_init")), UsageError);
}

// The scan looks for a pattern's anchor and then for its other literals in the anchor's line: the anchor is the
// longest literal no healthy NCCL start-up line holds, so that lines every rank prints do not each cost a search.
TEST(DoctorCatalog, AnchorsAvoidPhrasesOfHealthyStartupLines) {
  LinePattern p;
  p.all = {"libnccl.so", "cannot open shared object"};
  EXPECT_EQ(p.anchor(), "libnccl.so");
  p.all = {"/dev/shm/nccl-", "No such file or directory"};
  EXPECT_EQ(p.anchor(), "/dev/shm/nccl-");
  p.all = {"NET/Socket : Using", "]veth"};  // the other literal is too short to be searched for
  EXPECT_EQ(p.anchor(), "NET/Socket : Using");
  p.all = {"NET/Plugin", "NCCL INFO"};  // both healthy: the longest
  EXPECT_EQ(p.anchor(), "NET/Plugin");
  p.all = {"Got completion from peer", "error 12,"};
  EXPECT_EQ(p.anchor(), "Got completion from peer");
}

}  // namespace
}  // namespace pf::doctor
