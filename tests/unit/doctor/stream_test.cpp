// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The streaming pipeline: block boundaries (down to blocks shorter than a line) change nothing in the report,
// line numbers stay right across blocks, gzip/zstd inputs read like plain ones, directories expand sorted,
// corrupt or truncated compressed input is a UsageError naming the file, and reading ahead on a second thread
// hands on the same blocks in order, stopping cleanly on an error of either side.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "block_pipeline.hpp"
#include "log_source.hpp"
#include "pf/error.hpp"
#include "report.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

namespace fs = std::filesystem;

// The whole report as JSON text: diagnoses, evidence with file:line, INFO summary, rank analysis.
std::string reportOf(const Analysis& a) {
  std::string out;
  for (const auto& r : toResults(a)) out += toJson(r).dump() + "\n";
  return out;
}

std::string dataLogs() {
  // The development cases one after the other: many rules, INFO lines, watchdog lines, several ranks.
  std::istringstream in(test::readData("error_cases_dev.jsonl"));
  std::string all;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) all += Json::parse(line)["log_excerpt"].get<std::string>() + "\n";
  return all + test::readData("nccl_info_startup_examples.txt");
}

using test::TempDir;

std::string gzipOf(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // +16: a gzip header
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zstdOf(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

TEST(DoctorStream, BlockSizeChangesNothing) {
  const std::string log = dataLogs();
  const std::string whole = reportOf(analyze(test::catalog(), {Source{"all.log", log}}, log.size() + 1));
  ASSERT_NE(whole.find("\"matching_lines\""), std::string::npos);
  // 7 bytes splits nearly every line; 4096 puts a boundary every few dozen lines.
  for (std::size_t block : {std::size_t{7}, std::size_t{64}, std::size_t{4096}}) {
    EXPECT_EQ(reportOf(analyze(test::catalog(), {Source{"all.log", log}}, block)), whole) << "block " << block;
  }
}

TEST(DoctorStream, LineNumbersAcrossBlocks) {
  std::string log;
  for (int i = 1; i < 200; ++i) log += "[rank0]: iteration " + std::to_string(i) + " loss 2.0\n";
  log += "node7:11:12 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-X to 9637892 bytes\n";
  for (std::size_t block : {std::size_t{5}, std::size_t{33}, std::size_t{1} << 20}) {
    Analysis a = analyze(test::catalog(), {Source{"x.log", log}}, block);
    ASSERT_FALSE(a.diagnoses.empty()) << "block " << block;
    ASSERT_FALSE(a.diagnoses[0].evidence.empty());
    EXPECT_EQ(a.diagnoses[0].evidence[0].line, 200u) << "block " << block;
    EXPECT_EQ(a.lines, 200u);
    EXPECT_EQ(a.bytes, log.size());
  }
}

TEST(DoctorStream, LineBlockReaderKeepsWholeLines) {
  const std::string text = "a\nbbbbbbbbbbbbbbbbbbbb\ncc\nlast without newline";
  auto src = memorySource(text);
  LineBlockReader reader(*src, 4, 64);  // smaller than the long line: the buffer grows
  std::string joined;
  for (std::string_view b; reader.next(b);) {
    joined += b;
    if (joined.size() < text.size()) {
      EXPECT_EQ(b.back(), '\n');
    }
  }
  EXPECT_EQ(joined, text);
}

// Handing blocks over (the workers' read): the same blocks as next(block), each left intact in the buffer it was
// handed in while the reader reads on into the others, as three buffers taken in turn are in the pipeline.
TEST(DoctorStream, LineBlockReaderHandsItsBlocksOver) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += "line " + std::to_string(i) + std::string(i % 37, 'x') + "\n";
  text += "last without newline";
  for (std::size_t size : {std::size_t{16}, std::size_t{100}, std::size_t{4096}}) {
    auto plain = memorySource(text), handed = memorySource(text);
    LineBlockReader a(*plain, size), b(*handed, size);
    std::vector<char> buffers[3];
    std::vector<std::pair<std::string_view, std::string>> recent;  // the last two blocks handed over, and copies
    std::size_t k = 0;
    for (std::string_view x, y; a.next(x); ++k) {
      ASSERT_TRUE(b.next(y, buffers[k % 3])) << "block " << k;
      ASSERT_EQ(y, x) << "block " << k << ", size " << size;
      for (const auto& [view, copy] : recent) ASSERT_EQ(view, copy) << "an earlier block changed, size " << size;
      recent.emplace_back(y, std::string(y));
      if (recent.size() > 2) recent.erase(recent.begin());
    }
    std::string_view y;
    EXPECT_FALSE(b.next(y, buffers[k % 3]));
  }
}

TEST(DoctorStream, ALineLongerThanTheCapIsCutNotHeldWhole) {
  const std::string text = "a\n" + std::string(1000, 'x') + "\ncc\n";
  auto src = memorySource(text);
  LineBlockReader reader(*src, 4, 16);
  std::string joined;
  std::size_t largest = 0;
  for (std::string_view b; reader.next(b);) {
    joined += b;
    largest = std::max(largest, b.size());
  }
  EXPECT_EQ(joined, text);  // every byte handed on, once
  EXPECT_LE(largest, 16u);
}

TEST(DoctorStream, LinesAfterACutLineKeepTheirNumbers) {
  // A 2.5 MB line of progress-bar redraws with no newline (past kMinLineCap), then the failure on line 3.
  std::string bar;
  for (int i = 0; i < 50000; ++i) bar += "\r 12%|#####     | " + std::to_string(i) + "/50000 [00:01<00:09]";
  ASSERT_GT(bar.size(), 2 * kMinLineCap);
  const std::string log = "start\n" + bar + "\n" +
                          "node7:11:12 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-X to "
                          "9637892 bytes\n";
  Analysis a = analyze(test::catalog(), {Source{"x.log", log}}, 4096);  // the bar is cut in pieces of 1 MiB
  ASSERT_FALSE(a.diagnoses.empty());
  ASSERT_FALSE(a.diagnoses[0].evidence.empty());
  EXPECT_EQ(a.diagnoses[0].evidence[0].line, 3u);
  EXPECT_EQ(a.lines, 3u);
  EXPECT_EQ(a.bytes, log.size());
}

TEST(DoctorStream, CompressedInputsReadLikePlainOnes) {
  const std::string log = dataLogs();
  TempDir dir;
  const std::string plain = dir.file("job.log", log);
  const std::string gz = dir.file("job.log.gz", gzipOf(log));
  const std::string zst = dir.file("job.log.zst", zstdOf(log));
  // The same report, file names aside.
  auto report = [&](const std::string& path) {
    std::string r = reportOf(analyzeFiles(test::catalog(), {path}, 1000));
    for (std::size_t p; (p = r.find(path)) != std::string::npos;) r.replace(p, path.size(), "FILE");
    return r;
  };
  const std::string expected = report(plain);
  EXPECT_EQ(report(gz), expected);
  EXPECT_EQ(report(zst), expected);
  // Concatenated gzip members (`cat a.gz b.gz`) are one stream.
  const std::string twice = dir.file("twice.log.gz", gzipOf(log) + gzipOf(log));
  EXPECT_EQ(analyzeFiles(test::catalog(), {twice}).lines, 2 * analyzeFiles(test::catalog(), {plain}).lines);
}

TEST(DoctorStream, CorruptOrTruncatedInputNamesTheFile) {
  const std::string log = dataLogs();
  TempDir dir;
  const std::string gz = gzipOf(log), zst = zstdOf(log);
  const std::vector<std::string> bad = {
      dir.file("cut.log.gz", gz.substr(0, gz.size() / 2)),
      dir.file("cut.log.zst", zst.substr(0, zst.size() / 2)),
      dir.file("bad.log.gz", std::string("\x1f\x8b\x08\x00", 4) + std::string(200, 'x')),
      dir.file("bad.log.zst", std::string("\x28\xb5\x2f\xfd", 4) + std::string(200, 'x')),
      dir.path() + "/missing.log",
  };
  for (const auto& path : bad) {
    try {
      analyzeFiles(test::catalog(), {path});
      ADD_FAILURE() << path << ": no error";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

TEST(DoctorStream, DirectoriesExpandToTheirFilesSorted) {
  TempDir dir;
  dir.file("rank10.log", "b\n");
  dir.file("rank0.log.gz", gzipOf("a\n"));
  fs::create_directory(dir.path() + "/sub");  // not a regular file: left out
  const auto inputs = expandInputs({dir.path(), "-"});
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(inputs[0], dir.path() + "/rank0.log.gz");
  EXPECT_EQ(inputs[1], dir.path() + "/rank10.log");
  EXPECT_EQ(inputs[2], "-");
  TempDir empty;
  EXPECT_THROW(expandInputs({empty.path()}), UsageError);
}

// Reading ahead on worker threads (block_pipeline.hpp) hands the per-line work the same blocks in the same order:
// a file read by analyzeFiles gives the report that one thread gives the same text in memory, block size aside.
TEST(DoctorStream, ReadingAheadChangesNothing) {
  const std::string log = dataLogs();
  TempDir dir;
  const std::string path = dir.file("all.log", log);
  for (std::size_t block : {std::size_t{7}, std::size_t{4096}, kDefaultBlockSize}) {
    EXPECT_EQ(reportOf(analyzeFiles(test::catalog(), {path}, block)),
              reportOf(analyze(test::catalog(), {Source{path, log}}, block)))
        << "block " << block;
  }
}

// As many workers as this machine's CPUs give, none, one, and three (more threads than a 2-CPU machine has, so the
// blocks prepared by the calling thread and by several workers meet in one run).
const std::optional<std::size_t> kWorkerCounts[] = {std::nullopt, 0, 1, 3};

TEST(DoctorStream, ReadAheadBlocksComeInOrderWithTheirOwnScan) {
  const std::string log = dataLogs();
  LogScanner scan(test::catalog());
  for (const auto workers : kWorkerCounts) {
    auto src = memorySource(log);
    std::string joined;
    std::size_t blocks = 0;
    PreparedBlock own;
    readPrepared(
        *src, 64, scan,
        [&](std::string_view block, const PreparedBlock& prep) {
          joined += block;
          ++blocks;
          scan.prepare(block, own);  // what this thread finds in the same text, while others scan the next blocks
          ASSERT_EQ(prep.scan.events, own.scan.events) << "block " << blocks;
          EXPECT_EQ(prep.scan.markerLines, own.scan.markerLines);
          EXPECT_EQ(prep.plain, own.plain);
        },
        workers);
    EXPECT_EQ(joined, log) << "workers " << workers.value_or(99);
    EXPECT_GT(blocks, 10u);  // many blocks (a line longer than 64 bytes grows the buffer): every slot reused
  }
}

// Given one CPU (taskset, a one-core cpuset), a second thread would only take turns with the first: none is started.
TEST(DoctorStream, OneCpuReadsOnOneThread) {
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &all)) {
      CPU_SET(c, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const bool ahead = readsAhead();
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  EXPECT_FALSE(ahead);
  EXPECT_EQ(readsAhead(), CPU_COUNT(&all) > 1);
}

// A source whose read fails after `good` bytes, as a truncated gzip stream does.
class FailingSource final : public ByteSource {
 public:
  FailingSource(std::string text, std::size_t good) : text_(std::move(text)), good_(good) {}
  std::size_t read(char* buf, std::size_t n) override {
    if (pos_ >= good_) throw UsageError("cannot read 'cut.log.gz': truncated");
    const std::size_t k = std::min({n, good_ - pos_, text_.size() - pos_});
    std::copy_n(text_.data() + pos_, k, buf);
    pos_ += k;
    return k;
  }

 private:
  std::string text_;
  std::size_t good_, pos_ = 0;
};

TEST(DoctorStream, ReadErrorAfterTheBlocksReadBeforeIt) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "line " + std::to_string(i) + "\n";
  LogScanner scan(test::catalog());
  for (const auto workers : kWorkerCounts) {
    FailingSource src(text, text.size() / 2);
    std::string seen;
    try {
      readPrepared(
          src, 16, scan, [&](std::string_view block, const PreparedBlock&) { seen += block; }, workers);
      ADD_FAILURE() << "no error";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("cut.log.gz"), std::string::npos) << e.what();
    }
    // Every whole line read before the failure was handed on, in order.
    EXPECT_FALSE(seen.empty());
    EXPECT_EQ(text.compare(0, seen.size(), seen), 0);
    EXPECT_GE(seen.size() + 16, text.size() / 2) << "workers " << workers.value_or(99);
  }
}

TEST(DoctorStream, AConsumerErrorStopsTheReader) {
  const std::string log = dataLogs();
  LogScanner scan(test::catalog());
  for (const auto workers : kWorkerCounts) {
    auto src = memorySource(log);
    std::size_t calls = 0;
    EXPECT_THROW(readPrepared(
                     *src, 64, scan,
                     [&](std::string_view, const PreparedBlock&) {
                       if (++calls == 3) throw std::runtime_error("consumer failed");
                     },
                     workers),
                 std::runtime_error);
    EXPECT_EQ(calls, 3u);  // and the reading threads were joined: no more blocks, no crash at exit
  }
}

TEST(DoctorStream, TapIndexesMatchTheExtractorsUse) {
  // InfoExtractor::feed skips searches by tap index (hasTap); a reordered list would silently break it.
  const auto& t = InfoExtractor::taps();
  ASSERT_GE(t.size(), 28u);
  const std::vector<std::pair<std::size_t, std::string>> used = {{0, "NCCL version "},
                                                                 {1, "cudaDriverVersion"},
                                                                 {2, "NET/Plugin"},
                                                                 {3, "Using network "},
                                                                 {4, "Bootstrap : Using"},
                                                                 {5, "NET/Socket : Using"},
                                                                 {6, "NET/IB : Using"},
                                                                 {7, "NET/IB : No device"},
                                                                 {8, "Unable to open device"},
                                                                 {9, "ibv_open_device failed"},
                                                                 {10, "GPU Direct RDMA "},
                                                                 {11, "Channel "},
                                                                 {14, "Init START"},
                                                                 {15, "Init COMPLETE"},
                                                                 {26, "NVLS multicast"},
                                                                 {27, "CollNet "},
                                                                 {30, " opCount "}};
  for (const auto& [i, lit] : used) EXPECT_EQ(t[i], lit) << i;
}

}  // namespace
}  // namespace pf::doctor
