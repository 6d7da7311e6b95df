// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The built-in node profiles: each parses, names itself as its file does and cites a source for every value;
// --profile NAME/auto resolve; auto picks the right one on the captured trees (or says none fits); and the keys
// only a live node can answer (NVLinks, the CUDA driver) warn on a captured tree rather than pass or fail.
#include "profile/profile_catalog.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "pf/error.hpp"
#include "profile/node_profile.hpp"

namespace pf::probes {
namespace {

using ::testing::HasSubstr;

NodeFacts factsOf(const std::string& tree) {
  return readNodeFacts(SystemView(std::string(PF_FIXTURES) + "/" + tree, Environment()));
}

TEST(BuiltinProfiles, TheIssuesSkusAreThere) {
  std::set<std::string> names;
  for (const auto& b : builtinProfileTexts()) names.insert(b.name);
  for (const char* want :
       {"azure-nd-h100-v5", "azure-nd-h200-v5", "azure-nd-a100-v4", "aws-p4d.24xlarge", "aws-p5.48xlarge",
        "aws-p5en.48xlarge", "gcp-a3-highgpu-8g", "gcp-a3-megagpu-8g", "gcp-a3-ultragpu-8g", "dgx-h100", "dgx-h200"})
    EXPECT_TRUE(names.count(want)) << want;
}

// Every value line outside [profile] ends in a comment citing a [tag] that [profile].sources lists.
TEST(BuiltinProfiles, EachParsesAndCitesASourceForEveryValue) {
  const std::regex valueLine(R"(^\s*([a-z_]+)\s*=\s*[^#]+#.*)"), anyValue(R"(^\s*[a-z_]+\s*=.*)");
  const std::regex table(R"(^\s*\[([a-z_]+)\].*)"), tag(R"(\[([a-z0-9-]+)\])");
  for (const auto& b : builtinProfileTexts()) {
    SCOPED_TRACE(b.name);
    NodeProfile p = parseNodeProfile(b.text, b.name);
    EXPECT_EQ(p.meta.name, b.name);
    EXPECT_FALSE(p.meta.description.empty());
    ASSERT_FALSE(p.meta.sources.empty());
    std::set<std::string> tags;
    for (const auto& s : p.meta.sources) {
      std::smatch m;
      ASSERT_TRUE(std::regex_search(s, m, tag) && m.position(0) == 0) << "a source starts with its [tag]: " << s;
      tags.insert(m[1]);
    }
    std::istringstream in(b.text);
    std::string line, section;
    int values = 0;
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_match(line, m, table)) section = m[1];
      if (section == "profile" || !std::regex_match(line, anyValue)) continue;
      ++values;
      ASSERT_TRUE(std::regex_match(line, valueLine)) << "no source comment: " << line;
      const std::string comment = line.substr(line.find('#'));
      ASSERT_TRUE(std::regex_search(comment, m, tag)) << "no [tag] in: " << line;
      EXPECT_TRUE(tags.count(m[1])) << "[" << m[1] << "] is not in [profile].sources: " << line;
    }
    EXPECT_GT(values, 0);
  }
}

TEST(BuiltinProfiles, ResolveTakesAFileANameOrAuto) {
  EXPECT_EQ(resolveProfile("dgx-h100").origin, "built-in dgx-h100");
  EXPECT_TRUE(resolveProfile("auto").autoPick);
  try {
    resolveProfile("dgx-h1000");
    FAIL() << "an unknown name must be refused";
  } catch (const UsageError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'dgx-h1000' is neither a file nor a built-in profile"));
    EXPECT_THAT(e.what(), HasSubstr("azure-nd-a100-v4, azure-nd-h100-v5"));
  }
}

TEST(AutoProfile, PicksTheSkuTheCapturedTreeShows) {
  NodeProfile azure = pickBuiltinProfile(factsOf("azure-ndv4"));
  EXPECT_EQ(azure.meta.name, "azure-nd-a100-v4");
  EXPECT_THAT(azure.pickedBy, HasSubstr("a Hyper-V VMBus, 8 GPUs, 8 InfiniBand devices, InfiniBand ports at 200"));
  NodeProfile aws = pickBuiltinProfile(factsOf("aws-p4d-efa"));
  EXPECT_EQ(aws.meta.name, "aws-p4d.24xlarge");
  EXPECT_THAT(aws.pickedBy, HasSubstr("DMI product_name 'p4d.24xlarge'"));
  // A DGX-like tree without DMI: no built-in may claim it.
  NodeProfile none = pickBuiltinProfile(factsOf("ib-ndr-8hca"));
  EXPECT_TRUE(none.meta.name.empty());
  EXPECT_EQ(none.noneFits,
            "DMI '?' / '?', GPUs: 8 x NVIDIA H100 80GB HBM3, 8 InfiniBand device(s) (1 at 200 Gb/s, 7 at 400 Gb/s), "
            "4 RoCE, 0 EFA");
}

TEST(AutoProfile, NoneFitsIsAWarningThatJudgesNothing) {
  NodeProfile p = resolveProfile("auto");
  Result r = judgeNodeProfile(factsOf("ib-ndr-8hca"), p);
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_THAT(r.message, HasSubstr("no built-in profile fits: DMI '?' / '?', GPUs: 8 x NVIDIA H100"));
  EXPECT_TRUE(r.rows.empty());
  Result picked = judgeNodeProfile(factsOf("azure-ndv4"), p);
  EXPECT_EQ(picked.status, Status::kPass) << picked.message;
  EXPECT_THAT(picked.message, HasSubstr("--profile auto picked azure-nd-a100-v4"));
  EXPECT_THAT(picked.params["picked_by"].get<std::string>(), HasSubstr("azure-nd-a100-v4"));
}

TEST(ProfileKeys, LiveOnlyKeysWarnOnACapturedTree) {
  NodeProfile p = parseNodeProfile("[gpu]\nnvlink_links = 18\n[cuda]\ndriver_min = \"12.4\"\n", "t.toml");
  Result r = judgeNodeProfile(factsOf("ib-ndr-8hca"), p);
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_THAT(r.message, HasSubstr("active NVLinks cannot be read here (no NVML), the profile wants at least 18"));
  EXPECT_THAT(r.message, HasSubstr("CUDA driver API: version cannot be read here (no CUDA)"));
}

TEST(ProfileKeys, LiveValuesAreJudged) {
  NodeFacts f = factsOf("ib-ndr-8hca");
  f.cudaDriver = "12.2";
  for (auto& g : f.gpus) g.nvlinkActive = 18;
  f.gpus[3].nvlinkActive = 17;
  NodeProfile p = parseNodeProfile("[gpu]\nnvlink_links = 18\n[cuda]\ndriver_min = \"12.4\"\n", "t.toml");
  Result r = judgeNodeProfile(f, p);
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_THAT(r.message, HasSubstr("GPU " + f.gpus[3].bdf + ": active NVLinks 17, the profile wants at least 18"));
  EXPECT_THAT(r.message, HasSubstr("CUDA driver API: version 12.2, the profile wants 12.4 or later"));
}

TEST(ProfileKeys, ExpectAndMatchAreChecked) {
  NodeProfile p = parseNodeProfile("[expect]\nallreduce_busbw_gbs = 40.5\npair_busbw_gbs = 45\n", "t.toml");
  EXPECT_DOUBLE_EQ(*p.expect.allreduceBusbwGbs, 40.5);
  EXPECT_DOUBLE_EQ(*p.expect.pairBusbwGbs, 45);
  EXPECT_TRUE(parseNodeProfile("[expect]\nderive = true\n", "t.toml").expect.derive);
  EXPECT_THROW(parseNodeProfile("[expect]\nderive = true\npair_busbw_gbs = 45\n", "t.toml"), UsageError);
  EXPECT_THROW(parseNodeProfile("[placement]\ngpu_nic_numa = 1\n", "t.toml"), UsageError);
  EXPECT_THROW(parseNodeProfile("[match]\nsku = \"x\"\n", "t.toml"), UsageError);
}

}  // namespace
}  // namespace pf::probes
