// SPDX-License-Identifier: Apache-2.0
// Hostile inputs to the whole-file readers (issue 48): each is refused with a UsageError naming the input,
// without a crash, without blocking and in bounded memory. Big inputs are made here, not committed.
#include "pf/input_limits.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "pf/error.hpp"
#include "pf/report_io.hpp"

namespace pf {
namespace {

namespace fs = std::filesystem;

class InputLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pf_limits_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  // The message of the UsageError readReport throws for `path` ("" when it reads without one).
  static std::string errorOf(const std::string& path) {
    try {
      (void)readReport(path);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

Json document() {
  return Json{{"schema_version", kSchemaVersion}, {"verdict", "pass"}, {"exit_code", 0}, {"results", Json::array()}};
}

// 52,000 levels inside a document overflowed the stack when the parsed document was copied (SIGSEGV).
TEST_F(InputLimits, DeepNestingIsRefusedWithTheFileAndTheDepth) {
  std::string text = R"({"schema_version": 2, "context": {"extra": )";
  text += std::string(52000, '[') + std::string(52000, ']') + "}}";
  const std::string p = write("deep.json", text);
  const std::string e = errorOf(p);
  EXPECT_NE(e.find("deep.json"), std::string::npos) << e;
  EXPECT_NE(e.find("more than 256 levels"), std::string::npos) << e;
  // Brackets inside strings are text, not nesting; 200 real levels are fine.
  Json ok = document();
  ok["context"]["extra"] = {{"note", std::string(1000, '[')}};
  std::string nested = ok.dump();
  nested.insert(nested.size() - 1, R"(, "deep": )" + std::string(200, '[') + std::string(200, ']'));
  EXPECT_EQ(errorOf(write("ok.json", nested)), "");
}

TEST_F(InputLimits, FifosAndDevicesAreRefusedWithoutBlocking) {
  const std::string fifo = (dir_ / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const std::string e = errorOf(fifo);  // no writer: a blocking open would wait forever
  EXPECT_NE(e.find("pipe' is not a regular file"), std::string::npos) << e;
  EXPECT_NE(errorOf("/dev/zero").find("'/dev/zero' is not a regular file"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST_F(InputLimits, AFileOverTheLimitIsRefusedBeforeItIsRead) {
  const std::string p = (dir_ / "big.json").string();
  std::ofstream(p) << "{";
  fs::resize_file(p, kMaxInputBytes + 1);  // sparse: no disk used, nothing read
  const std::string e = errorOf(p);
  EXPECT_NE(e.find("big.json' is larger than 256 MiB"), std::string::npos) << e;
}

TEST_F(InputLimits, ExitCodesOutsidePreflightsAreRefused) {
  for (long long code : {139LL, 256LL, 1LL << 40, -1LL}) {
    Json d = document();
    d["exit_code"] = code;
    const std::string e = errorOf(write("code.json", d.dump()));
    EXPECT_NE(e.find("code.json': exit_code: "), std::string::npos) << code << ": " << e;
  }
  for (int code : {0, 1, 2, 3, 4, 129, 130, 143}) {
    Json d = document();
    d["exit_code"] = code;
    EXPECT_EQ(errorOf(write("code.json", d.dump())), "") << code;
  }
}

TEST_F(InputLimits, NumbersMustBeExact) {
  for (const char* version : {"2.5", "true", "\"2\"", "1e308"}) {
    const std::string e = errorOf(write("v.json", std::string(R"({"schema_version": )") + version + "}"));
    EXPECT_NE(e.find("v.json': schema_version: "), std::string::npos) << version << ": " << e;
  }
  Json d = document();
  d["context"] = {{"world_size", 1e308}};
  const std::string e = errorOf(write("w.json", d.dump()));
  EXPECT_NE(e.find("context.world_size: 1e+308 is out of range"), std::string::npos) << e;
  EXPECT_EQ(e.find("-2147483648 "), std::string::npos) << e;
}

TEST_F(InputLimits, AHugeValueIsNotEchoedWhole) {
  const std::string digits(5u << 20, '7');
  const std::string e = errorOf(write("n.json", R"({"schema_version": 2, "verdict": ")" + digits + "\"}"));
  EXPECT_NE(e.find("n.json"), std::string::npos);
  EXPECT_LT(e.size(), 1000u) << e.substr(0, 300);
  const std::string bad = errorOf(write("m.json", R"({"schema_version": 2, "x": 1)" + digits + "x}"));
  EXPECT_NE(bad.find("m.json' is not valid JSON"), std::string::npos);
  EXPECT_LT(bad.size(), 1000u) << bad.substr(0, 300);
}

TEST_F(InputLimits, ABadRowIsNamedByItsPath) {
  Json d = document();
  Json row = {{"collective", "all_reduce"}, {"count", 2},     {"dtype", "float"},  {"op", "sum"},
              {"placement", "out"},         {"time_us", 1.0}, {"algbw_gbps", 1.0}, {"busbw_gbps", 1.0}};
  Json good = row;
  good["size_bytes"] = 8;
  d["results"] = {{{"key", "sweep.all_reduce"}, {"kind", "sweep"}, {"status", "pass"}, {"rows", {good, row}}}};
  const std::string e = errorOf(write("a.json", d.dump()));
  EXPECT_NE(e.find("'" + (dir_ / "a.json").string() + "': results[0].rows[1]: size_bytes: missing"), std::string::npos)
      << e;
}

TEST(ClipForMessage, CutsLongValuesAndSaysHowLong) {
  EXPECT_EQ(clipForMessage("short"), "short");
  EXPECT_EQ(clipForMessage(std::string(100, 'x'), 10), "xxxxxxxxxx... (100 bytes)");
  EXPECT_EQ(clipForMessage("ab\xC3\xA9", 3), "ab... (4 bytes)");  // never half of a UTF-8 character
}

}  // namespace
}  // namespace pf
