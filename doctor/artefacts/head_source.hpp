// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A ByteSource whose first bytes can be looked at before they are read: recognition by content without opening a
// file twice, so stdin and pipes are recognised the same way as files.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "log_source.hpp"

namespace pf::doctor {

class HeadSource final : public ByteSource {
 public:
  /// Reads up to `n` bytes ahead (fewer only at the end of the stream); read() replays them first.
  HeadSource(std::unique_ptr<ByteSource> src, std::size_t n) : src_(std::move(src)) {
    head_.resize(n);
    std::size_t have = 0;
    while (have < n) {
      const std::size_t got = src_->read(head_.data() + have, n - have);
      if (got == 0) break;
      have += got;
    }
    head_.resize(have);
  }
  std::string_view head() const { return head_; }
  std::size_t read(char* buf, std::size_t n) override {
    if (pos_ < head_.size()) {
      const std::size_t k = std::min(n, head_.size() - pos_);
      std::memcpy(buf, head_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return src_->read(buf, n);
  }

 private:
  std::unique_ptr<ByteSource> src_;
  std::string head_;
  std::size_t pos_ = 0;
};

}  // namespace pf::doctor
