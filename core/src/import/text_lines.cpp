// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "text_lines.hpp"

#include <cctype>

#include "pf/utf8.hpp"

namespace pf::import {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

}  // namespace

std::string cleanText(std::string_view s, size_t max) {
  std::string out;
  for (size_t i = 0; i < s.size() && out.size() < max;) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
      ++i;
      continue;
    }
    // A well-formed multi-byte sequence is kept whole; anything else becomes '?', so the document's JSON
    // can always be written.
    const size_t len = utf8SequenceLength(s, i);
    if (len > 0) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

std::vector<std::string> tokens(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isBlank(s[i])) ++i;
    size_t start = i;
    while (i < s.size() && !isBlank(s[i])) ++i;
    if (i > start) out.emplace_back(s.substr(start, i - start));
  }
  return out;
}

bool isNcclLogLine(std::string_view s) {
  return contains(s, "NCCL INFO") || contains(s, "NCCL WARN") || contains(s, "NCCL TRACE") ||
         contains(s, "NCCL ABORT") || s.substr(0, 13) == "NCCL version " || s.substr(0, 13) == "RCCL version ";
}

bool isFailureLine(std::string_view s) {
  return contains(s, "Test NCCL failure") || contains(s, "Test CUDA failure") || contains(s, "Test HIP failure") ||
         contains(s, ": Test failure") || contains(s, "Test timeout") || s.substr(0, 13) == "NCCL failure ";
}

Json parseRunHeader(std::string_view body) {
  // Colons are dropped first so that nccl-tests' "step: 2(factor)" and rccl-tests' "nGpus: 4" read alike.
  std::string flat(body);
  for (char& c : flat)
    if (c == ':') c = ' ';
  std::vector<std::string> w = tokens(flat);
  Json h = Json::object();
  auto number = [&](size_t i) { return i < w.size() ? parseUnsigned(w[i]) : std::nullopt; };
  for (size_t i = 0; i < w.size(); ++i) {
    const std::string& k = w[i];
    const char* key = nullptr;
    size_t at = i + 1;
    if (k == "nThread" || k == "nThreads") key = "nthreads";
    if (k == "nGpus") key = "ngpus";
    if (k == "nRanks") key = "nranks";
    if (k == "minBytes") key = "min_bytes";
    if (k == "maxBytes") key = "max_bytes";
    if (k == "validation") key = "check_iters";
    if (k == "graph") key = "graph";
    if (k == "warmupIters") key = "warmup_iters";
    if (k == "iters")
      key = (i > 0 && w[i - 1] == "warmup") ? "warmup_iters" : (i > 0 && w[i - 1] == "agg") ? "agg_iters" : "iters";
    if (k == "step" && i + 1 < w.size()) {
      // "2(factor)" or "100000(bytes)"
      const std::string& v = w[i + 1];
      size_t paren = v.find('(');
      if (auto n = parseUnsigned(v.substr(0, paren)); n && paren != std::string::npos)
        h[v.find("factor") != std::string::npos ? "step_factor" : "step_bytes"] = *n;
      continue;
    }
    if (key)
      if (auto n = number(at)) h[key] = *n;
  }
  return h;
}

std::optional<Device> parseDeviceLine(std::string_view body) {
  std::vector<std::string> w = tokens(body);
  if (w.size() < 5 || w[0] != "Rank") return std::nullopt;
  Device d;
  auto rank = parseUnsigned(w[1]);
  if (!rank || *rank > 10000000) return std::nullopt;
  d.rank = static_cast<int>(*rank);
  size_t i = 2;
  if (i + 1 < w.size() && w[i] == "Group") i += 2;
  if (i + 1 < w.size() && w[i] == "Pid") {
    if (auto pid = parseUnsigned(w[i + 1]); pid && *pid < (1u << 31)) d.pid = static_cast<int>(*pid);
    i += 2;
  }
  if (i + 1 >= w.size() || w[i] != "on") return std::nullopt;
  d.host = cleanText(w[i + 1], 128);
  i += 2;
  if (i + 1 >= w.size() || w[i] != "device") return std::nullopt;
  d.device = cleanText(w[i + 1], 16);
  i += 2;
  if (i < w.size() && w[i].front() == '[') {
    std::string bus = w[i];
    // The bus id is one token ("[0000:61:00]", "[0x1a]"); strip the brackets.
    bus.erase(0, 1);
    if (!bus.empty() && bus.back() == ']') bus.pop_back();
    d.busId = cleanText(bus, 32);
    ++i;
  }
  std::string name;
  for (; i < w.size(); ++i) name += (name.empty() ? "" : " ") + w[i];
  d.name = cleanText(name, 128);
  return d;
}

}  // namespace pf::import
