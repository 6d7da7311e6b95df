// SPDX-License-Identifier: Apache-2.0
#include "pf/report_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "pf/error.hpp"

namespace pf {
namespace {

namespace fs = std::filesystem;

class ReportIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pf_io_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ReportIo, WritesAtomicallyAndReadsBack) {
  RunReport r;
  r.context.command = "sweep";
  std::string path = (dir_ / "r.json").string();
  writeReport(r, path);
  EXPECT_EQ(readReport(path).context.command, "sweep");
  // Only the document itself: the temporary file was renamed away.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1);
}

// `--json /dev/null` as root once turned /dev/null into a plain file: the temporary was renamed over the device.
// A FIFO stands in for it here (a test must not risk the machine's /dev/null): it stays a FIFO, through a symlink
// too (as /dev/stdout is one), and its reader gets the document.
TEST_F(ReportIo, ASpecialFileIsWrittenInPlaceNotReplaced) {
  const fs::path fifo = dir_ / "collector.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, dir_ / "link");
  for (const fs::path& target : {fifo, dir_ / "link"}) {
    std::string got;
    std::thread reader([&] {
      std::ifstream in(fifo);
      got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    });
    checkWritable(target.string());
    writeFileAtomic(target.string(), "{}\n");
    reader.join();
    EXPECT_EQ(got, "{}\n") << target;
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo))) << target;
  }
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "link")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 2);  // no temporary left
}

TEST_F(ReportIo, MissingDirectoriesAreCreated) {
  // `--output cmp/report.md`: checked before the run (the folders are made then), written after.
  const std::string path = (dir_ / "cmp" / "sub" / "r.md").string();
  checkWritable(path);
  EXPECT_TRUE(fs::is_directory(dir_ / "cmp" / "sub"));
  fs::remove_all(dir_ / "cmp");
  writeFileAtomic(path, "# report\n");
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "# report");
}

TEST_F(ReportIo, AParentThatIsAFileIsAUsageErrorAndLeavesNothing) {
  std::ofstream(dir_ / "plain") << "x";
  const std::string path = (dir_ / "plain" / "sub" / "r.json").string();
  try {
    checkWritable(path);
    FAIL() << "no error for " << path;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create directory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_THROW(writeFileAtomic(path, "{}"), UsageError);
  EXPECT_FALSE(fs::exists(dir_ / "plain" / "sub"));
}

TEST_F(ReportIo, BadInputNamesTheFile) {
  std::string bad = (dir_ / "bad.json").string();
  std::ofstream(bad) << "{ not json";
  try {
    readReport(bad);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos);
  }
  EXPECT_THROW(readReport((dir_ / "missing.json").string()), UsageError);
  EXPECT_THROW(readReport(dir_.string()), UsageError);  // a directory
  std::string trunc = (dir_ / "trunc.json").string();
  std::ofstream(trunc) << "{\"schema_version\": 1, \"results\": [{\"key\": \"x\"}]}";
  EXPECT_THROW(readReport(trunc), UsageError);
  // Found by tests/fuzz/readers (fuzz_report): a number too large for a double is nlohmann's out_of_range,
  // not a parse_error, and went past the catch.
  std::string huge = (dir_ / "huge.json").string();
  std::ofstream(huge) << "{\"schema_version\": 2, \"context\": {\"world_size\": -25.5e9310344827}}";
  EXPECT_THROW(readReport(huge), UsageError);
}

}  // namespace
}  // namespace pf
