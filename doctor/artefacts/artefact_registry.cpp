// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "artefact.hpp"
#include "line_normalizer.hpp"

namespace pf::doctor {

void ArtefactOut::cover(const std::string& what, int rank) {
  if (rank < 0) return;
  for (auto& [w, ranks] : coverage)
    if (w == what) {
      ranks.insert(rank);
      return;
    }
  coverage.push_back({what, {rank}});
}

void ArtefactOut::coverHost(const std::string& what, const std::string& host) {
  if (host.empty()) return;
  for (auto& [w, hosts] : hostCoverage)
    if (w == what) {
      hosts.insert(host);
      return;
    }
  hostCoverage.push_back({what, {host}});
}

void ArtefactOut::nameProcessRank(const std::string& host, long pid, int rank, int commSize) {
  if (host.empty() || pid <= 0 || rank < 0 || commSize < processRanksCommSize) return;
  if (commSize > processRanksCommSize) {
    processRanks.clear();
    processRanksCommSize = commSize;
  }
  processRanks[{host, pid}] = rank;
}

std::vector<const ArtefactKind*> artefactKinds() {
  // One object per kind for the whole process: kinds hold no state, only their recognisers and factories.
  static const std::vector<std::unique_ptr<ArtefactKind>> kinds = [] {
    std::vector<std::unique_ptr<ArtefactKind>> v;
    auto& reg = Registry<ArtefactKind>::instance();
    for (const auto& k : reg.keys()) v.push_back(reg.create(k));
    return v;
  }();
  std::vector<const ArtefactKind*> out;
  for (const auto& k : kinds) out.push_back(k.get());
  return out;
}

bool looksLikeText(std::string_view head) {
  std::size_t control = 0;
  for (unsigned char c : head) {
    if (c == 0) return false;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != 0x1b && c != '\f') ++control;
  }
  return control * 100 <= head.size();
}

namespace {

// Accepts every value; remembers where parsing failed, to tell a cut-off document from text that only starts with
// a bracket ("[rank0]:", "[2026-04-22 10:42:37]").
struct JsonPrefixCheck : nlohmann::json_sax<Json> {
  std::size_t errorAt = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception&) override {
    errorAt = pos;
    return false;
  }
};

}  // namespace

bool looksLikeJsonDocument(std::string_view head) {
  std::size_t i = 0;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) ++i;
  if (i == head.size() || (head[i] != '{' && head[i] != '[')) return false;
  // JSON lines: the first line closes its object and the next line opens another one.
  if (const std::size_t nl = head.find('\n', i); nl != std::string_view::npos) {
    std::string_view first = head.substr(i, nl - i);
    while (!first.empty() && (first.back() == '\r' || first.back() == ' ')) first.remove_suffix(1);
    std::size_t j = nl + 1;
    while (j < head.size() && (head[j] == ' ' || head[j] == '\r' || head[j] == '\n')) ++j;
    if (first.size() > 1 && first.back() == '}' && j < head.size() && head[j] == '{') return false;
  }
  // A whole JSON value, or one cut off by the end of the head (a larger file, or a truncated one). Strict: text
  // after the value makes it a log that starts like JSON, as NCCL's lines do without a host prefix ("[0] misc/...").
  JsonPrefixCheck check;
  if (Json::sax_parse(head.substr(i), &check, nlohmann::detail::input_format_t::json, true)) return true;
  return check.errorAt >= head.size() - i;
}

bool looksLikeMarkdown(std::string_view head) {
  if (!head.starts_with("# ") || head.size() < 3 || head[2] == ' ') return false;
  return head.find("\n|---") != std::string_view::npos || head.find("\n| ---") != std::string_view::npos ||
         head.find("\n```") != std::string_view::npos;
}

const ArtefactKind* recogniseArtefact(std::string_view head, std::string& why) {
  // Notes kept beside a job's files quote its lines (a README citing them): not one more log of the job.
  if (looksLikeMarkdown(head)) {
    why = "a Markdown document (notes beside the artefacts, not a log)";
    return nullptr;
  }
  const ArtefactKind* best = nullptr;
  int bestScore = 0;
  for (const ArtefactKind* k : artefactKinds()) {
    const int s = k->recognise(head);
    if (s > bestScore) {
      best = k;
      bestScore = s;
    }
  }
  if (best) return best;
  // Nothing took it: say what it looks like, so the user knows whether something was missed.
  const auto b0 = head.empty() ? 0 : static_cast<unsigned char>(head[0]);
  const auto b1 = head.size() > 1 ? static_cast<unsigned char>(head[1]) : 0;
  if (b0 == 0x80 && b1 >= 2 && b1 <= 5)
    why = fmt::format("a Python pickle (protocol {}) that no reader of this build takes", b1);
  else if (looksLikeJsonDocument(head))
    why = "a JSON document of no known shape (not RAS, torchelastic, nccl-tests or Flight Recorder JSON)";
  else if (!looksLikeText(head))
    why = "binary data (not a log or a known document)";
  else
    why = "not recognised";
  return nullptr;
}

std::string eventText(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  return utf8Prefix(validUtf8(line.substr(0, 404)), 400);
}

}  // namespace pf::doctor
