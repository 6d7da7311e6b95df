// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// nccl-tests / rccl-tests text output → RunReport. A line-by-line state machine: a "preamble" (version,
// "Collective test starting", the "# nThread" line, the "# Using devices" block, a pasted *_perf command)
// describes the next table; a table opens at its column header (or its units line, or a first row when the
// header was not pasted) and closes at its footer, at the next preamble, or at the end of the input.
// Lines are read as people post them: launcher prefixes are stripped, '#' may be missing (Markdown eats it),
// NCCL INFO/WARN lines and failure lines may come between rows. Anything inside a table that is not a row
// and not a known kind of line is a warning with its line number, never a silent skip.
#include <fmt/format.h>

#include <algorithm>

#include "pf/import.hpp"
#include "text_lines.hpp"

namespace pf::import {
namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

class TextImporter {
 public:
  explicit TextImporter(const std::string& name) {
    doc_.name = name;
    doc_.format = "text";
  }

  RunReport parse(const std::string& text) {
    int no = 0;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      line(++no, std::string_view(text).substr(pos, end - pos));
      pos = end + 1;
    }
    closeTable();
    // A failure after the last table (or with no table after it) belongs to the run that printed it last.
    if (!pendingFailures_.empty()) {
      auto& into = doc_.runs.empty() ? doc_.failures : doc_.runs.back().failures;
      into.insert(into.end(), pendingFailures_.begin(), pendingFailures_.end());
    }
    return buildReport(std::move(doc_));
  }

 private:
  void line(int no, std::string_view raw) {
    std::string_view s = stripLauncherPrefix(raw);
    if (s.empty()) return;
    if (isNcclLogLine(s)) return infoLine(s);
    if (isFailureLine(s)) {
      Evidence e{"failure line", cleanText(s), "", fmt::format("{}:{}", doc_.name, no)};
      (open_ ? open_->failures : pendingFailures_).push_back(std::move(e));
      return;
    }
    const bool hashed = s.front() == '#';
    std::string_view body = s;
    while (!body.empty() && (body.front() == '#' || body.front() == ' ' || body.front() == '\t')) body.remove_prefix(1);
    if (body.empty()) return;
    if (preambleLine(body)) return;
    std::vector<std::string> words = tokens(body);
    if (footerLine(no, body)) return;
    if (auto layout = layoutFromHeader(words)) {
      closeTable();
      openTable(no, layout);
      return;
    }
    if (body.find("(B)") != std::string_view::npos && body.find("(elements)") != std::string_view::npos) {
      // The units line: it opens a table only when the column header was not pasted.
      if (!open_ || !open_->rows.empty()) {
        closeTable();
        openTable(no, std::nullopt);
      }
      return;
    }
    if (body.find("out-of-place") != std::string_view::npos || hashed) return;  // titles and other comments
    if (!words.empty() && parseUnsigned(words[0])) return rowLine(no, raw, words);
    for (const std::string& w : words)  // a pasted command names the collective of the table that follows
      if (std::string c = collectiveFromProgram(w); !c.empty()) {
        pendingCollective_ = c;
        pendingFrom_ = fmt::format("command at line {}", no);
        return;
      }
    if (open_) warn(no, raw, "not a table row");
  }

  // Version, collective, run header and devices: what describes the next table.
  bool preambleLine(std::string_view body) {
    std::vector<std::string> w = tokens(body);
    if (startsWith(body, "nccl-tests version")) {
      if (w.size() > 2) doc_.version = cleanText(w[2], 32);
      for (const std::string& t : w) {
        // "nccl-headers=23005 nccl-library=23005": the NCCL version codes it was built with and ran with.
        if (startsWith(t, "nccl-headers="))
          if (auto n = parseUnsigned(t.substr(13))) doc_.toolInfo["nccl_headers"] = *n;
        if (startsWith(t, "nccl-library="))
          if (auto n = parseUnsigned(t.substr(13))) doc_.toolInfo["nccl_library"] = *n;
      }
      return true;
    }
    if (startsWith(body, "rccl-tests")) {
      doc_.tool = "rccl-tests";
      doc_.toolInfo["version_line"] = cleanText(body, 80);
      return true;
    }
    if (startsWith(body, "Collective test starting:")) {
      closeTable();
      if (!w.empty()) pendingCollective_ = collectiveFromProgram(w.back());
      pendingFrom_ = "'Collective test starting' line";
      return true;
    }
    if (startsWith(body, "Collective test concluded:")) {
      closeTable();
      return true;
    }
    if (startsWith(body, "nThread")) {
      closeTable();
      pendingHeader_ = parseRunHeader(body);
      if (startsWith(body, "nThreads:")) doc_.tool = "rccl-tests";  // rccl-tests' own header format
      return true;
    }
    if (startsWith(body, "Using devices")) {
      closeTable();
      pendingDevices_.clear();
      return true;
    }
    if (startsWith(body, "Rank ")) {
      if (auto d = parseDeviceLine(body)) pendingDevices_.push_back(*d);
      return true;
    }
    return false;
  }

  bool footerLine(int no, std::string_view body) {
    const bool oob = startsWith(body, "Out of bounds values"), avg = startsWith(body, "Avg bus bandwidth");
    if (!oob && !avg) return false;
    std::vector<std::string> w =
        tokens(body.substr(body.find(':') == std::string_view::npos ? body.size() : body.find(':') + 1));
    if (!open_) return true;  // a footer without a table (quoted from elsewhere) describes nothing here
    open_->footerSeen = true;
    if (oob && !w.empty())
      if (auto n = parseUnsigned(w[0]); n && *n < (1ull << 62)) open_->footerOutOfBounds = static_cast<int64_t>(*n);
    if (avg) {
      if (auto v = w.empty() ? std::nullopt : parseNumber(w[0]))
        open_->footerAvgBusbw = *v;
      else
        warn(no, body, "unreadable average bus bandwidth");
      closeTable();
    }
    return true;
  }

  void rowLine(int no, std::string_view s, const std::vector<std::string>& words) {
    std::string error;
    const bool implicit = !open_;
    if (implicit) openTable(no, std::nullopt);
    auto rows = parseRow(words, layoutKnown_ ? &layout_ : nullptr, error);
    if (rows) {
      open_->perIter = open_->perIter || (layoutKnown_ && layout_.halfCols == 8);
      for (SweepRow& r : *rows) {
        open_->perIter = open_->perIter || r.iter_min_us || r.iter_max_us || r.iter_p99_us;
        open_->rows.push_back(std::move(r));
      }
      return;
    }
    if (implicit) {
      open_.reset();  // a number-led line outside any table is prose, not a row
      return;
    }
    warn(no, s, error);
  }

  void infoLine(std::string_view s) {
    // "host:pid:tid [dev] NCCL INFO comm 0x.. rank 3 nranks 16 ...": hosts and the rank count, for outputs
    // pasted without their "# Using devices" block.
    size_t colon = s.find(':');
    if (colon != std::string_view::npos && colon > 0 && colon < 128 && s.find(' ') > colon) {
      std::string host = cleanText(s.substr(0, colon), 128);
      if (std::find(doc_.infoHosts.begin(), doc_.infoHosts.end(), host) == doc_.infoHosts.end() &&
          doc_.infoHosts.size() < 4096)
        doc_.infoHosts.push_back(host);
    }
    std::vector<std::string> w = tokens(s);
    for (size_t i = 0; i + 1 < w.size(); ++i)
      if (w[i] == "nranks")
        if (auto n = parseUnsigned(w[i + 1]); n && *n < 10000000)
          doc_.infoRanks = std::max(doc_.infoRanks, static_cast<int>(*n));
  }

  void openTable(int no, std::optional<Layout> layout) {
    open_ = Run{};
    open_->line = no;
    open_->collective = pendingCollective_;
    open_->collectiveFrom = pendingCollective_.empty() ? "" : pendingFrom_;
    open_->header = pendingHeader_;
    open_->devices = pendingDevices_;
    open_->failures.swap(pendingFailures_);
    layoutKnown_ = layout.has_value();
    if (layout) layout_ = *layout;
  }

  void closeTable() {
    if (!open_) return;
    if (open_->rows.empty()) {
      pendingFailures_.insert(pendingFailures_.end(), open_->failures.begin(), open_->failures.end());
    } else {
      if (!open_->footerSeen) {
        Warning w{open_->line, "",
                  "no footer ('# Out of bounds values', '# Avg bus bandwidth'): the output may be cut short", false};
        open_->notes.push_back(w);
        doc_.warnings.push_back(w);
      }
      doc_.runs.push_back(std::move(*open_));
      pendingCollective_.clear();
    }
    open_.reset();
  }

  void warn(int no, std::string_view text, const std::string& reason) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    Warning w{no, cleanText(text), reason, true};
    doc_.warnings.push_back(w);
    if (open_) {
      ++open_->unreadable;
      open_->notes.push_back(std::move(w));
    }
  }

  Doc doc_;
  std::optional<Run> open_;
  Layout layout_;
  bool layoutKnown_ = false;
  Json pendingHeader_ = Json::object();
  std::vector<Device> pendingDevices_;
  std::string pendingCollective_, pendingFrom_;
  std::vector<Evidence> pendingFailures_;
};

}  // namespace
}  // namespace pf::import

namespace pf {
RunReport importNcclTestsText(const std::string& text, const std::string& name) {
  return import::TextImporter(name).parse(text);
}
}  // namespace pf
