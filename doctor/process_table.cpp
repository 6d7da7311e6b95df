// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "process_table.hpp"

#include <charconv>
#include <functional>

namespace pf::doctor {
namespace {

// NormView::who() into a reused buffer (no formatting library call per line).
void nameInto(std::string_view host, long pid, int launcherRank, std::string& out) {
  out.clear();
  char num[24];
  if (!host.empty()) {
    out.append(host).append(1, ':');
    out.append(num, std::to_chars(num, num + sizeof num, pid).ptr);
  } else if (launcherRank >= 0) {
    out.append("rank ").append(num, std::to_chars(num, num + sizeof num, launcherRank).ptr);
  }
}

}  // namespace

ProcessTable::Entry* ProcessTable::byHostPid(std::string_view host, long pid) {
  const std::size_t hash =
      std::hash<std::string_view>{}(host) ^ (static_cast<std::size_t>(pid) * 0x9E3779B97F4A7C15ull);
  std::size_t mask = slots_.size() - 1, i = hash & mask;
  for (; slots_[i].entry; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.hash == hash && s.pid == pid && s.sameHost(host)) return s.entry;
  }
  nameInto(host, pid, -1, nameBuf_);
  Entry* entry = &*procs_.try_emplace(nameBuf_).first;
  // A file named like "host:pid" may have created the entry for bare lines: it now has this host.
  if (entry->second.host.empty()) entry->second.host = std::string(host);
  if (entry->second.host != host) return entry;  // a host:pid the table cannot tell apart: not cached
  Slot& slot = slots_[i];
  slot = {hash, pid, entry, 0, {}};
  if (host.size() <= kInlineHost) {
    slot.hostLen = static_cast<std::uint8_t>(host.size());
    std::memcpy(slot.host, host.data(), host.size());
  }
  if (++used_ * 2 > slots_.size()) {  // at most half full, so probe runs stay short
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.entry) continue;
      std::size_t j = s.hash & mask;
      while (slots_[j].entry) j = (j + 1) & mask;
      slots_[j] = s;
    }
  }
  return entry;
}

ProcessInfo& ProcessTable::of(const NormView& l, const std::string& file) {
  if (last_ && !l.host.empty() && l.pid == lastPid_ && l.host == lastHost_) return *last_;
  Entry* entry = nullptr;
  if (!l.host.empty()) {
    entry = byHostPid(l.host, l.pid);
  } else {
    nameInto(l.host, l.pid, l.launcherRank, nameBuf_);
    if (nameBuf_.empty()) nameBuf_ = lastNamed_ ? *lastNamed_ : file;
    entry = &*procs_.try_emplace(nameBuf_).first;
  }
  // The owner of later bare lines ("NCCL version" printed by nccl-tests): the last named process.
  if (!l.host.empty() || l.launcherRank >= 0) lastNamed_ = &entry->first;
  ProcessInfo& p = entry->second;
  last_ = l.host.empty() ? nullptr : &p;
  lastHost_ = l.host;
  lastPid_ = l.pid;
  return p;
}

}  // namespace pf::doctor
