// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "log_source.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "decompress.hpp"
#include "pf/error.hpp"

namespace pf::doctor {
namespace {

// A file descriptor read with read(2); the first bytes (read ahead to recognise compression) are replayed.
class FdSource final : public ByteSource {
 public:
  FdSource(int fd, std::string name, bool owned) : fd_(fd), name_(std::move(name)), owned_(owned) {}
  ~FdSource() override {
    if (owned_) ::close(fd_);
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  std::size_t read(char* buf, std::size_t n) override {
    if (headPos_ < head_.size()) {
      const std::size_t k = std::min(n, head_.size() - headPos_);
      std::memcpy(buf, head_.data() + headPos_, k);
      headPos_ += k;
      return k;
    }
    for (;;) {
      const ssize_t got = ::read(fd_, buf, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR) throw UsageError(fmt::format("cannot read '{}': {}", name_, std::strerror(errno)));
    }
  }

  // Reads up to 4 bytes ahead (fewer only at the end of the stream) so the caller can look at the magic.
  std::string_view peek() {
    char b[4];
    std::size_t have = 0;
    while (have < sizeof b) {
      const std::size_t got = read(b + have, sizeof b - have);
      if (got == 0) break;
      have += got;
    }
    head_.assign(b, have);
    headPos_ = 0;
    return head_;
  }

 private:
  int fd_;
  std::string name_;
  bool owned_;
  std::string head_;
  std::size_t headPos_ = 0;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view text) : text_(text) {}
  std::size_t read(char* buf, std::size_t n) override {
    const std::size_t k = std::min(n, text_.size() - pos_);
    std::memcpy(buf, text_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

std::unique_ptr<ByteSource> detected(std::unique_ptr<FdSource> fd, const std::string& name) {
  const Compression c = detectCompression(fd->peek());
  return decompressing(std::move(fd), c, name);
}

}  // namespace

std::unique_ptr<ByteSource> openLog(const std::string& path) {
  if (path == "-") return detected(std::make_unique<FdSource>(STDIN_FILENO, "stdin", false), "stdin");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw UsageError(fmt::format("cannot read '{}': {} (give a log file, a directory of logs, or - for stdin)", path,
                                 std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("'{}' is a directory; give it as an input of its own", path));
  }
  // The kernel's read-ahead does the rest: the doctor reads each input once, front to back.
  (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return detected(std::make_unique<FdSource>(fd, path, true), path);
}

std::unique_ptr<ByteSource> memorySource(std::string_view text, std::string name) {
  (void)name;  // memory cannot fail to read; the name is kept in the signature for symmetry with openLog
  return std::make_unique<MemorySource>(text);
}

std::vector<std::string> expandInputs(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    struct stat st {};
    if (a == "-" || ::stat(a.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      out.push_back(a);  // a file, stdin, or a missing path that openLog reports
      continue;
    }
    DIR* d = ::opendir(a.c_str());
    if (!d) throw UsageError(fmt::format("cannot list directory '{}': {}", a, std::strerror(errno)));
    std::vector<std::string> files;
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      const std::string path = a + (a.back() == '/' ? "" : "/") + name;
      struct stat fs {};
      if (::stat(path.c_str(), &fs) == 0 && S_ISREG(fs.st_mode)) files.push_back(path);
    }
    ::closedir(d);
    if (files.empty())
      throw UsageError(fmt::format("directory '{}' holds no regular files; give the directory of the job's logs", a));
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

LineBlockReader::LineBlockReader(ByteSource& src, std::size_t blockSize, std::size_t maxLine)
    : src_(src),
      buf_(std::max<std::size_t>(blockSize, 1)),
      maxLine_(std::max(maxLine ? maxLine : std::max(4 * buf_.size(), kMinLineCap), buf_.size())) {}

bool LineBlockReader::next(std::string_view& block) {
  // Move the partial line left over from the previous block to the front, then fill the rest.
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  for (;;) {
    while (!eof_ && end_ < buf_.size()) {
      const std::size_t got = src_.read(buf_.data() + end_, buf_.size() - end_);
      if (got == 0) eof_ = true;
      end_ += got;
    }
    if (end_ == 0) return false;
    if (eof_) {
      block = std::string_view(buf_.data(), end_);
      begin_ = end_;
      return true;
    }
    const void* nl = memrchr(buf_.data(), '\n', end_);
    if (nl) {
      const std::size_t cut = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data()) + 1;
      block = std::string_view(buf_.data(), cut);
      begin_ = cut;
      return true;
    }
    if (buf_.size() >= maxLine_) {  // a line longer than any real one: cut it here rather than grow without bound
      block = std::string_view(buf_.data(), end_);
      begin_ = end_;
      return true;
    }
    buf_.resize(std::min(buf_.size() * 2, maxLine_));  // one line longer than the buffer: grow until it fits
  }
}

bool LineBlockReader::next(std::string_view& block, std::vector<char>& spare) {
  if (!next(block)) return false;
  // Only the partial line after the block (a line at most) is copied, into the front of the reader's new buffer.
  spare.resize(buf_.size());
  std::memcpy(spare.data(), buf_.data() + begin_, end_ - begin_);
  spare.swap(buf_);
  end_ -= begin_;
  begin_ = 0;
  return true;
}

}  // namespace pf::doctor
