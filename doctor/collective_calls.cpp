// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "collective_calls.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "fact_names.hpp"
#include "line_words.hpp"

namespace pf::doctor {

void CollectiveCalls::feed(const NormView& l, LineEvidence& ev) {
  if (differ_) return;
  std::string_view w[40];
  const std::size_t n = splitWords(l.text, w);
  // The collective is the word before "opCount" ("Broadcast:"), wherever the prefixes left it.
  const std::size_t kept = std::min<std::size_t>(n, 40);  // splitWords fills at most 40
  std::size_t at = 0;
  while (at < kept && w[at] != "opCount") ++at;
  if (at == 0 || at + 1 >= kept || w[at - 1].size() < 2 || w[at - 1].back() != ':') return;
  const std::string_view coll = w[at - 1].substr(0, w[at - 1].size() - 1);
  if (coll == "Send" || coll == "Recv") return;
  std::string args, comm;
  int nranks = 0;
  for (std::size_t i = at + 2; i + 1 < kept; ++i) {
    const std::string_view k = w[i], v = w[i + 1];
    if (k == "count" || k == "datatype" || k == "op" || k == "root") {
      fmt::format_to(std::back_inserter(args), "{}{} {}", args.empty() ? "" : " ", k, v);
      ++i;
    } else if (k == "comm") {
      comm = std::string(v);
      ++i;
    }
  }
  for (std::size_t i = at; i < kept; ++i)
    if (w[i].starts_with("[nranks=")) nranks = atoiView(w[i].substr(8));
  if (args.empty() || nranks <= 1) return;
  if (!l.host.empty() && !comm.empty()) {
    const std::string process = fmt::format("{}:{}", l.host, l.pid);
    auto [it, added] = commOf_.try_emplace({process, nranks}, comm);
    if (!added && it->second != comm) ambiguous_.insert(nranks);
  }
  auto key = std::make_tuple(std::string(coll), std::string(w[at + 1]), nranks);
  auto it = calls_.find(key);
  if (it == calls_.end()) {
    if (calls_.size() < kMaxCalls) calls_.emplace(std::move(key), Call{std::move(args), ev.get()});
    return;
  }
  if (it->second.args == args) return;
  differ_ = true;
  differNranks_ = nranks;
  first_ = it->second.evidence;
  firstArgs_ = it->second.args;
  second_ = ev.get();
  secondArgs_ = args;
}

void CollectiveCalls::finish(Facts& facts, std::vector<Flag>& flags) const {
  if (!differ_ || ambiguous_.count(differNranks_)) return;
  facts[fact::kCollectiveArgsDiffer] = {first_, second_};
  flags.push_back({fact::kCollectiveArgsDiffer,
                   fmt::format("ranks called the same collective at the same opCount with different arguments ({} "
                               "at {}, {} at {})",
                               firstArgs_, first_.where(), secondArgs_, second_.where()),
                   second_});
}

}  // namespace pf::doctor
