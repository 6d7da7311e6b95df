// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Where the doctor's bytes come from: a file, stdin, or a gzip / zstd stream decompressed on the fly, read in
// large blocks so that memory stays bounded whatever the log's size. The compression is recognised by the
// stream's first bytes (gzip 1f 8b, zstd 28 b5 2f fd), so `zcat`-less pipes and misnamed files work too.
// Directories given as inputs expand to every regular file in them, sorted by name (per-rank logs).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pf::doctor {

/// A stream of (decompressed) log bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `n` bytes into `buf`; 0 only at the end of the stream.
  /// @throws UsageError naming the input on a read error or corrupt / truncated compressed data.
  virtual std::size_t read(char* buf, std::size_t n) = 0;
};

/// Opens `path` ("-" = stdin), decompressing gzip and zstd streams.
/// @throws UsageError naming the path when it is missing, unreadable or a directory.
std::unique_ptr<ByteSource> openLog(const std::string& path);

/// A source over bytes already in memory (tests, fuzzing); `text` must outlive it. `name` appears in errors.
std::unique_ptr<ByteSource> memorySource(std::string_view text, std::string name = "<memory>");

/// The inputs to read for the command-line arguments: files as given, directories replaced by the regular
/// files in them (sorted by name, not recursive). @throws UsageError for a missing path or an empty directory.
std::vector<std::string> expandInputs(const std::vector<std::string>& args);

/// Splits a ByteSource into blocks of whole lines: each block ends with a newline except, possibly, the last
/// of the stream. A line longer than the block size grows the buffer to hold it, up to `maxLine` bytes (by
/// default four blocks, at least kMinLineCap); a longer one (a log with no newlines, progress bars redrawn with '\r'
/// for hours) is cut there and handed on in pieces, so memory stays bounded whatever the input. Every byte is still
/// scanned and the pieces keep the line's number; only a pattern that straddles a cut can be missed.
class LineBlockReader {
 public:
  LineBlockReader(ByteSource& src, std::size_t blockSize, std::size_t maxLine = 0);
  /// The next block; false at the end of the stream.
  bool next(std::string_view& block);
  /// The same, handing the block over in `spare`: the block is in `spare`'s storage, which the reader keeps its
  /// hands off, and the reader reads on into what `spare` held (no copy of the block for a caller that keeps it).
  bool next(std::string_view& block, std::vector<char>& spare);

 private:
  ByteSource& src_;
  std::vector<char> buf_;
  std::size_t maxLine_;
  std::size_t begin_ = 0, end_ = 0;  // unread bytes carried over: [begin_, end_)
  bool eof_ = false;
};

/// The least length at which a line is cut by default: far beyond any real log line, so a small block size (the
/// tests, the fuzzers) never cuts one.
inline constexpr std::size_t kMinLineCap = std::size_t{1} << 20;

/// The block size the command uses (4 MiB: large enough for the scanner, small next to the 300 MB budget).
inline constexpr std::size_t kDefaultBlockSize = std::size_t{4} << 20;

}  // namespace pf::doctor
