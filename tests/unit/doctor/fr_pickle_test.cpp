// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Flight Recorder pickle reader and dump model: real dumps written by torch (both forms, read to the same
// model), and crafted inputs it must refuse with a typed error naming the input, the offset and the opcode.
#include <gtest/gtest.h>

#include <string>

#include "flight_recorder/dump.hpp"
#include "flight_recorder/pickle_reader.hpp"
#include "pf/report_io.hpp"

namespace pf::doctor::fr {
namespace {

using namespace std::string_literals;

std::string fixture(const std::string& rel) { return std::string(PF_FR_FIXTURES) + "/" + rel; }

// The opcodes of a small protocol 2 pickle, by hand: PROTO 2, EMPTY_DICT, BINPUT 0, MARK, then `body`, then
// SETITEMS and STOP.
std::string pickled(const std::string& body) { return "\x80\x02}q\x00("s + body + "u."; }

TEST(FrPickle, ReadsRealDumpAndItsJsonFormToTheSameModel) {
  const Dump p = readDump(fixture("skip_allreduce/rank_0"));
  const Dump j = readDump(fixture("skip_allreduce/rank_0.json"));
  EXPECT_EQ(p.form, "pickle");
  EXPECT_EQ(j.form, "json");
  EXPECT_EQ(p.rank, 0);
  EXPECT_EQ(p.version, "2.10");
  ASSERT_EQ(p.entries.size(), 3u);
  ASSERT_EQ(j.entries.size(), p.entries.size());
  for (std::size_t i = 0; i < p.entries.size(); ++i) {
    EXPECT_EQ(p.entries[i].collectiveSeqId, j.entries[i].collectiveSeqId);
    EXPECT_EQ(p.entries[i].profilingName, j.entries[i].profilingName);
    EXPECT_EQ(p.entries[i].inputSizes, j.entries[i].inputSizes);
    EXPECT_EQ(p.entries[i].timeCreatedNs, j.entries[i].timeCreatedNs);
    EXPECT_EQ(p.entries[i].timeStartedNs, j.entries[i].timeStartedNs);  // None in one, 0 in the other
  }
  const Entry& e = p.entries[2];
  EXPECT_EQ(e.profilingName, "gloo:all_reduce");
  EXPECT_EQ(e.op(), "all_reduce");
  EXPECT_EQ(e.pgName, "0");
  EXPECT_EQ(e.pgDesc, "default_pg");
  EXPECT_EQ(e.inputSizes, (std::vector<std::vector<std::int64_t>>{{1024}}));
  EXPECT_EQ(e.inputDtypes, std::vector<std::string>{"Float"});
  EXPECT_GT(*e.timeCreatedNs, 1'700'000'000'000'000'000);  // LONG1: a 64-bit time in ns
  ASSERT_FALSE(e.frames.empty());                          // only the pickle carries frames
  EXPECT_EQ(e.frames[0].name, "all_reduce");
  EXPECT_TRUE(j.entries[2].frames.empty());
  ASSERT_NE(p.groupStatus("0"), nullptr);
  ASSERT_NE(j.groupStatus("0"), nullptr);
  // The third collective hung until gloo's timeout failed it; each rank dumps as that exception unwinds, so
  // whether the recorder had already counted it (gloo counts a failed collective as completed) depends on the
  // run. The pickle and its entry agree either way, and the JSON form (written after it) is no earlier.
  EXPECT_EQ(p.groupStatus("0")->lastEnqueued, 3);
  EXPECT_EQ(e.retired, p.groupStatus("0")->lastCompleted == 3);
  EXPECT_GE(j.groupStatus("0")->lastCompleted, p.groupStatus("0")->lastCompleted);  // "3" as text in JSON
  EXPECT_EQ(j.groupStatus("0")->lastStarted, -1);
}

TEST(FrPickle, LooksLikeDumpTellsDumpsFromOtherFiles) {
  EXPECT_TRUE(looksLikeDump(readTextFile(fixture("straggler/rank_1")).substr(0, 64)));
  EXPECT_TRUE(looksLikeDump(readTextFile(fixture("straggler/rank_1.json")).substr(0, 4096)));
  EXPECT_FALSE(looksLikeDump("NCCL INFO Bootstrap : Using eth0\n"));
  EXPECT_FALSE(looksLikeDump("{\"message\": {\"message\": \"RuntimeError\"}}"));  // a torchelastic error file
  EXPECT_FALSE(looksLikeDump("\x80\x02]q\x00."s));                                // a pickled list
}

TEST(FrPickle, RankComesFromTheFileName) {
  EXPECT_EQ(rankFromFileName("/x/nccl_trace_rank_12"), 12);
  EXPECT_EQ(rankFromFileName("rank_3.json"), 3);
  EXPECT_EQ(rankFromFileName("dump.pkl"), -1);
  EXPECT_THROW(readDump(fixture("README.md")), UsageError);
}

TEST(FrPickle, ReadsTheSubsetWithSharedReferences) {
  // {"a": [1, -2, 3.5, None, True], "b": <the same list, via BINGET 1>, "c": ("x", 300)}
  const std::string body =
      "X\x01\x00\x00\x00"
      "a"
      "]q\x01(K\x01J\xfe\xff\xff\xff"s +
      "G\x40\x0c\x00\x00\x00\x00\x00\x00N\x88"
      "e"s +
      "X\x01\x00\x00\x00"
      "b"
      "h\x01"s +
      "X\x01\x00\x00\x00"
      "c"
      "\x8c\x01x"
      "M\x2c\x01\x86"s;
  const Json j = readPickle(pickled(body), "t");
  EXPECT_EQ(j.dump(), R"({"a":[1,-2,3.5,null,true],"b":[1,-2,3.5,null,true],"c":["x",300]})");
}

// Each refusal: the right error type, the opcode, its offset, and the input's name in the message.
void expectRefused(const std::string& bytes, const std::string& opcode, std::size_t offset, const std::string& why) {
  try {
    readPickle(bytes, "crafted.pkl");
    FAIL() << "accepted " << opcode;
  } catch (const PickleError& e) {
    EXPECT_EQ(e.opcode(), opcode);
    EXPECT_EQ(e.offset(), offset);
    EXPECT_EQ(e.input(), "crafted.pkl");
    EXPECT_NE(std::string(e.what()).find("crafted.pkl"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    EXPECT_EQ(e.code(), ExitCode::kUsage);
  }
}

TEST(FrPickle, RefusesAnythingThatWouldImportOrCall) {
  // The classic: GLOBAL 'os system', then REDUCE.
  expectRefused(pickled("cos\nsystem\n"), "GLOBAL", 6, "import or call");
  expectRefused("\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00\x8c\x02os\x93"s, "STACK_GLOBAL", 15, "import or call");
  expectRefused(pickled("NN\x85R"), "REDUCE", 9, "import or call");
  expectRefused(pickled("}b"), "BUILD", 7, "import or call");
  expectRefused(pickled("Q"), "BINPERSID", 6, "import or call");
  expectRefused(pickled("I01\n"), "INT", 6, "does not write it");
  expectRefused("\x80\x01}."s, "PROTO", 0, "protocol 1");
}

TEST(FrPickle, RefusesTruncatedInput) {
  const std::string real = readTextFile(fixture("skip_allreduce/rank_0"));
  for (std::size_t cut : {std::size_t{1}, std::size_t{40}, real.size() / 2, real.size() - 1}) {
    try {
      readPickle(real.substr(0, cut), "cut.pkl");
      FAIL() << "accepted a dump cut at " << cut;
    } catch (const PickleError& e) {
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
  }
}

TEST(FrPickle, RefusesDeepNestingSelfReferenceAndMemoMisuse) {
  std::string deep = "\x80\x02";
  for (int i = 0; i < 100000; ++i) deep += "]";  // 100000 empty lists...
  for (int i = 0; i < 99999; ++i) deep += "a";   // ...each appended to the one before
  deep += ".";
  expectRefused(deep, "", deep.size(), "nested deeper than 128");
  // A list appended to itself through the memo.
  expectRefused(
      "\x80\x02]q\x00h\x00"
      "a."s,
      "", 9, "contains itself");
  expectRefused(pickled("h\x07"), "BINGET", 6, "memo index 7 was never stored");
  // A list of 200 references to one list of 200 references to one list of 4000 ints: 160 million values from
  // a few KB.
  std::string bomb = "\x80\x02](";
  for (int i = 0; i < 4000; ++i) bomb += "K\x01";
  bomb +=
      "eq\x01"
      "0](";  // APPENDS, BINPUT 1, POP: the list stays only in the memo
  for (int i = 0; i < 200; ++i) bomb += "h\x01";
  bomb +=
      "eq\x02"
      "0](";
  for (int i = 0; i < 200; ++i) bomb += "h\x02";
  bomb += "e.";
  expectRefused(bomb, "", bomb.size(), "64 times the input");
}

}  // namespace
}  // namespace pf::doctor::fr
