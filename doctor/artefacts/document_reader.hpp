// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A reader for kinds that need the whole document (JSON, a RAS report): it gathers the blocks, up to a bound far
// above any real such file, and hands the text over once. A larger file is refused with a message naming it.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

#include "artefact.hpp"
#include "pf/error.hpp"

namespace pf::doctor {

class DocumentReader : public ArtefactReader {
 public:
  explicit DocumentReader(std::string file) : file_(std::move(file)) {}
  void block(std::string_view text) final {
    if (text_.size() + text.size() > kMaxDocument)
      throw UsageError(
          fmt::format("'{}' is larger than {} MiB, more than any {} holds; give the file itself, not a "
                      "concatenation",
                      file_, kMaxDocument >> 20, what()));
    text_.append(text);
  }
  void finish(ArtefactOut& out) final { read(text_, out); }

 protected:
  /// What the document is, for the size error.
  virtual const char* what() const = 0;
  virtual void read(const std::string& text, ArtefactOut& out) = 0;
  const std::string& file() const { return file_; }

 private:
  static constexpr std::size_t kMaxDocument = std::size_t{64} << 20;
  std::string file_;
  std::string text_;
};

}  // namespace pf::doctor
