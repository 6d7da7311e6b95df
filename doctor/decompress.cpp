// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Streaming gzip (zlib) and zstd decompression for the doctor's inputs (log_source.hpp).
#include "decompress.hpp"

#include <fmt/format.h>
#include <zlib.h>
#include <zstd.h>

#include <vector>

#include "pf/error.hpp"

namespace pf::doctor {
namespace {

constexpr std::size_t kInChunk = std::size_t{1} << 18;

class GzipSource final : public ByteSource {
 public:
  GzipSource(std::unique_ptr<ByteSource> raw, std::string name) : raw_(std::move(raw)), name_(std::move(name)) {
    // 15 + 32: a 32 KiB window and automatic gzip/zlib header detection.
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw UsageError(fmt::format("'{}': cannot start zlib", name_));
  }
  ~GzipSource() override { inflateEnd(&z_); }

  std::size_t read(char* buf, std::size_t n) override {
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    while (z_.avail_out > 0) {
      if (z_.avail_in == 0 && !eof_) refill();
      if (z_.avail_in == 0 && eof_) {
        // The stream ended: fine between gzip members, truncated inside one.
        if (inMember_) throw UsageError(fmt::format("'{}': truncated gzip data (the file ends mid-stream)", name_));
        break;
      }
      if (!inMember_) inMember_ = true;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        // `cat a.gz b.gz` is a valid gzip file: go on with the next member.
        inMember_ = false;
        inflateReset(&z_);
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR)
        throw UsageError(fmt::format("'{}': corrupt gzip data ({}); check the file or decompress it by hand", name_,
                                     z_.msg ? z_.msg : zError(rc)));
    }
    return n - z_.avail_out;
  }

 private:
  void refill() {
    in_.resize(kInChunk);
    const std::size_t got = raw_->read(in_.data(), in_.size());
    if (got == 0) eof_ = true;
    z_.next_in = reinterpret_cast<Bytef*>(in_.data());
    z_.avail_in = static_cast<uInt>(got);
  }

  std::unique_ptr<ByteSource> raw_;
  std::string name_;
  z_stream z_{};
  std::vector<char> in_;
  bool eof_ = false, inMember_ = false;
};

class ZstdSource final : public ByteSource {
 public:
  ZstdSource(std::unique_ptr<ByteSource> raw, std::string name)
      : raw_(std::move(raw)), name_(std::move(name)), ctx_(ZSTD_createDStream()) {
    if (!ctx_) throw UsageError(fmt::format("'{}': cannot start zstd", name_));
    ZSTD_initDStream(ctx_);
    in_.resize(ZSTD_DStreamInSize());
  }
  ~ZstdSource() override { ZSTD_freeDStream(ctx_); }

  std::size_t read(char* buf, std::size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos < out.size) {
      if (inBuf_.pos == inBuf_.size && !eof_) {
        inBuf_ = {in_.data(), raw_->read(in_.data(), in_.size()), 0};
        if (inBuf_.size == 0) eof_ = true;
      }
      if (inBuf_.pos == inBuf_.size && eof_) {
        // A frame still open (or output still buffered) at the end of the input: the file was cut short.
        if (pending_ != 0) throw UsageError(fmt::format("'{}': truncated zstd data (the file ends mid-frame)", name_));
        break;
      }
      const std::size_t before = out.pos;
      pending_ = ZSTD_decompressStream(ctx_, &out, &inBuf_);
      if (ZSTD_isError(pending_))
        throw UsageError(fmt::format("'{}': corrupt zstd data ({}); check the file or decompress it by hand", name_,
                                     ZSTD_getErrorName(pending_)));
      if (out.pos == before && inBuf_.pos == inBuf_.size && eof_ && pending_ == 0) break;
    }
    return out.pos;
  }

 private:
  std::unique_ptr<ByteSource> raw_;
  std::string name_;
  ZSTD_DStream* ctx_;
  std::vector<char> in_;
  ZSTD_inBuffer inBuf_{nullptr, 0, 0};
  std::size_t pending_ = 0;
  bool eof_ = false;
};

}  // namespace

Compression detectCompression(std::string_view head) {
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
    return Compression::kGzip;
  if (head.size() >= 4 && head.substr(0, 4) == std::string_view("\x28\xb5\x2f\xfd", 4)) return Compression::kZstd;
  return Compression::kNone;
}

std::unique_ptr<ByteSource> decompressing(std::unique_ptr<ByteSource> raw, Compression c, const std::string& name) {
  switch (c) {
    case Compression::kGzip: return std::make_unique<GzipSource>(std::move(raw), name);
    case Compression::kZstd: return std::make_unique<ZstdSource>(std::move(raw), name);
    case Compression::kNone: break;
  }
  return raw;
}

}  // namespace pf::doctor
