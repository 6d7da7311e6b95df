// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "process_table.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "line_search.hpp"

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

// Doubles an open-addressing table once it is more than half full, so that probe runs stay short; `empty` and
// `hash` tell a slot's state and place.
template <class Slot, class Empty, class Hash>
void growIfHalfFull(std::vector<Slot>& slots, std::size_t used, Empty empty, Hash hash) {
  if (used * 2 <= slots.size()) return;
  std::vector<Slot> old(slots.size() * 2);
  old.swap(slots);
  const std::size_t mask = slots.size() - 1;
  for (const Slot& s : old) {
    if (empty(s)) continue;
    std::size_t j = hash(s) & mask;
    while (!empty(slots[j])) j = (j + 1) & mask;
    slots[j] = s;
  }
}

}  // namespace

// Host names are short: a word at a time, multiplied and folded, costs less than the library's hash call. The
// last word is read ending at the name's end (overlapping the one before) rather than copied with a run-time
// length, which compiled to a memcpy call per line.
std::uint64_t ProcessTable::hashHost(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  auto mix = [&h](std::uint64_t w) {
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  };
  auto word = [](const char* q) {
    std::uint64_t w;
    std::memcpy(&w, q, sizeof w);
    return w;
  };
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) mix(word(p + i));
    mix(word(p + n - 8));
  } else {
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < n; ++i) w |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    mix(w);
  }
  // MurmurHash3's 64-bit finaliser: host names differ in their last bytes, which the multiplications above
  // carry only into the high bits, and the table is indexed by the low ones.
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}

std::uint32_t ProcessTable::hostId(std::string_view host, std::uint64_t hash) {
  const std::size_t mask = hostSlots_.size() - 1;
  std::size_t i = hash & mask;
  for (; hostSlots_[i].id != UINT32_MAX; i = (i + 1) & mask) {
    const HostSlot& s = hostSlots_[i];
    if (s.hash == hash &&
        (s.len ? s.len == host.size() && sameBytes(s.host, host.data(), s.len) : hosts_[s.id] == host))
      return s.id;
  }
  const auto id = static_cast<std::uint32_t>(hosts_.size());
  hosts_.emplace_back(host);
  hostHashes_.push_back(hash);
  HostSlot& slot = hostSlots_[i];
  slot = {hash, id, 0, {}};
  if (!host.empty() && host.size() <= kInlineHost) {
    slot.len = static_cast<std::uint8_t>(host.size());
    std::memcpy(slot.host, host.data(), host.size());
  }
  growIfHalfFull(
      hostSlots_, hosts_.size(), [](const HostSlot& s) { return s.id == UINT32_MAX; },
      [](const HostSlot& s) { return s.hash; });
  return id;
}

std::uint32_t ProcessTable::byName(const std::string& name) {
  auto [it, inserted] = procs_.try_emplace(name);
  Entry* entry = &*it;
  if (!inserted) return index_.at(entry);
  const auto index = static_cast<std::uint32_t>(entries_.size());
  entries_.push_back(entry);
  index_.emplace(entry, index);
  return index;
}

// byName below the cap; past it, a name not yet listed is the scratch entry's.
std::uint32_t ProcessTable::listedOrUnlisted(const std::string& name) {
  if (entries_.size() < maxListed_) return byName(name);
  if (auto it = procs_.find(name); it != procs_.end()) return index_.at(&*it);
  return unlistedIndex();
}

std::uint32_t ProcessTable::byHostPid(std::string_view host, long pid, std::uint32_t hid) {
  const auto upid = static_cast<unsigned long>(pid);
  const auto pidLow = static_cast<std::uint32_t>(upid), pidHigh = static_cast<std::uint32_t>(upid >> 32);
  const std::size_t mask = procSlots_.size() - 1;
  std::size_t i = slotHash(hostHashes_[hid], pidLow, pidHigh) & mask;
  for (; procSlots_[i].host != UINT32_MAX; i = (i + 1) & mask) {
    const ProcSlot& s = procSlots_[i];
    if (s.host == hid && s.pidLow == pidLow && s.pidHigh == pidHigh) return s.index;
  }
  nameInto(host, pid, -1, nameBuf_);
  const std::uint32_t index = listedOrUnlisted(nameBuf_);
  if (index == unlistedIndex()) {
    // Counted once, then found by its slot like a listed one (16 bytes each, up to maxCounted in all).
    if (procsUsed_ >= maxCounted_) {
      uncounted_ = true;
      return index;
    }
    ++unlisted_;
  } else {
    ProcessInfo& p = at(index);
    // A file named like "host:pid" may have created the entry for bare lines: it now has this host.
    if (p.host.empty()) p.host = std::string(host);
    if (p.host != host) return index;  // a host:pid the table cannot tell apart: not cached
  }
  procSlots_[i] = {hid, pidLow, pidHigh, index};
  growIfHalfFull(
      procSlots_, ++procsUsed_, [](const ProcSlot& s) { return s.host == UINT32_MAX; },
      [this](const ProcSlot& s) { return slotHash(hostHashes_[s.host], s.pidLow, s.pidHigh); });
  return index;
}

std::uint32_t ProcessTable::indexOf(const NormView& l, const std::string& file, std::uint64_t hostHash) {
  if (!l.host.empty()) {
    if (last_ != UINT32_MAX && l.pid == lastPid_ && hosts_[lastHost_].size() == l.host.size() &&
        sameBytes(hosts_[lastHost_].data(), l.host.data(), l.host.size()))
      return last_;
    const std::uint32_t hid = hostId(l.host, hostHash), index = byHostPid(l.host, l.pid, hid);
    // The owner of later bare lines ("NCCL version" printed by nccl-tests): the last named process.
    lastNamed_ = index;
    last_ = index;
    lastHost_ = hid;
    lastPid_ = l.pid;
    return index;
  }
  last_ = UINT32_MAX;
  // A bare line belongs to the last process named (no name to build and look up), else to the file.
  if (l.launcherRank < 0 && lastNamed_ != UINT32_MAX) return lastNamed_;
  nameInto(l.host, l.pid, l.launcherRank, nameBuf_);
  if (nameBuf_.empty()) nameBuf_ = file;
  const std::uint32_t index = listedOrUnlisted(nameBuf_);
  if (index == unlistedIndex()) uncounted_ = true;  // a named process past the cap: not counted
  if (l.launcherRank >= 0) lastNamed_ = index;
  return index;
}

std::optional<std::uint32_t> ProcessTable::find(std::string_view host, long pid) const {
  std::string name;
  nameInto(host, pid, -1, name);
  const auto it = procs_.find(name);
  if (it == procs_.end()) return std::nullopt;
  const auto at = index_.find(&*it);
  return at == index_.end() ? std::nullopt : std::optional<std::uint32_t>(at->second);
}

}  // namespace pf::doctor
