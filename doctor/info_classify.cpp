// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// InfoExtractor::classify: which of the extractor's branches reads a line, decided from the line's text alone. The
// searches here were most of the extractor's time on a log of real start-up lines; as a function of the text only,
// they run on the doctor's workers beside the extractor (block_pipeline.hpp), which then only applies each line.
#include "info_extractor.hpp"
#include "line_search.hpp"
#include "line_words.hpp"

namespace pf::doctor {
namespace {

// "P2P/IPC/read" -> "P2P/IPC"; "NET/IB/0/GDRDMA" -> "NET/IB"; "SHM/direct/direct" -> "SHM". Always a prefix of
// `via`, so a view (the count's map is searched without building a string per line).
// Hand loops over the few bytes: three memchr calls per transport line showed in profiles.
std::string_view transportName(std::string_view via) {
  std::size_t a = 0;
  while (a < via.size() && via[a] != '/') ++a;
  const std::string_view first = via.substr(0, a);
  if (a == via.size() || equals(first, "SHM")) return first;
  const bool p2p = equals(first, "P2P");
  std::size_t end = a + 1;
  while (end < via.size() && via[end] != '/' && !(p2p && via[end] == ' ')) ++end;
  return via.substr(0, end);
}

constexpr std::string_view kIbUsing = "NET/IB : Using";

}  // namespace

InfoLine InfoExtractor::classify(const NormView& l, std::uint32_t tapMask) {
  InfoLine c;
  const std::string_view t = l.text;
  // lineHolds(t, lit) for a literal that contains taps()[i]: when that tap is not in the line, neither is `lit`.
  auto hasTap = [&](int i, std::string_view lit) { return ((tapMask >> i) & 1u) != 0 && lineHolds(t, lit); };
  auto is = [&](InfoLine::Kind kind, std::string_view part = {}) {
    c.kind = kind;
    if (!part.empty()) {
      c.at = static_cast<std::uint32_t>(part.data() - t.data());
      c.len = static_cast<std::uint32_t>(part.size());
    }
    return c;
  };
  // nccl-tests prints its header, rows and failures without NCCL's prefix.
  if (hasTap(30, " opCount ")) return is(InfoLine::kCall);
  if (!l.host.empty()) c.hostHash = ProcessTable::hashHost(l.host);
  c.libraryVersion = l.level.empty() && lineHolds(t, "nccl-library=");
  if (hasTap(0, "NCCL version ")) {
    const std::string_view v = firstWord(after(t, "NCCL version "));
    if (v.empty()) return is(InfoLine::kNone);
    // "NCCL version 2.19.3+cuda12.3": the process's own version comes from NCCL's INFO line only, not from
    // torch's "..., NCCL version 2.18.6" errors.
    c.flag = lineHolds(t, "error") || lineHolds(t, "Error");
    c.hash = TextIds::hashOf(v);
    return is(InfoLine::kVersion, v);
  }
  // The kinds told by text id carry the text's hash.
  auto byText = [&](InfoLine::Kind kind, std::string_view part) {
    c.hash = TextIds::hashOf(part);
    return is(kind, part);
  };
  // NCCL's interface lines are read without NCCL's prefix too: their words are NCCL's own, and pastes often lose the
  // prefix ("INFO NET/Socket : Using" followed by one entry per line).
  const bool ifLine = hasTap(4, "Bootstrap : Using") || hasTap(5, "NET/Socket : Using");
  auto interfaces = [&] {
    return byText(lineHolds(t, "Bootstrap") ? InfoLine::kBootstrap : InfoLine::kSocket, after(t, "Using"));
  };
  if (ifLine && l.level.empty()) return interfaces();
  if (!equals(l.level, "INFO") && !equals(l.level, "WARN")) return is(InfoLine::kNone);
  // Transport lines are most of an INFO log. Every format prints them as "Channel ..." or (NCCL 2.4-2.6)
  // "NCCL INFO Ring ...", so the other lines skip the search for " via ".
  const bool channelOrRing = ((tapMask >> 11) & 1u) != 0 || ((tapMask >> 12) & 1u) != 0;
  if (const std::size_t at = channelOrRing ? findInLine(t, " via ") : std::string_view::npos;
      at != std::string_view::npos && lineHolds(t, "->")) {
    const std::string_view via = t.substr(at + 5);
    c.flag = lineHolds(via, "GDRDMA");
    return is(InfoLine::kTransport, transportName(via));
  }
  if (hasTap(1, "cudaDriverVersion")) return is(InfoLine::kDriver, after(t, "cudaDriverVersion"));
  if (hasTap(2, "NET/Plugin")) {
    if (lineHolds(t, "No plugin found") || lineHolds(t, "using internal")) return is(InfoLine::kPluginInternal);
    if (lineHolds(t, "Loaded net plugin ")) return is(InfoLine::kPluginLoaded, after(t, "Loaded net plugin "));
    return is(InfoLine::kProcess);
  }
  if (hasTap(3, "Using network ")) return byText(InfoLine::kNetwork, after(t, "Using network "));
  if (ifLine) return interfaces();
  if (const std::size_t ib = (tapMask >> 6) & 1u ? findInLine(t, kIbUsing) : std::string_view::npos;
      ib != std::string_view::npos)
    return byText(InfoLine::kIbUsing, t.substr(ib + kIbUsing.size()));
  if (hasTap(7, "NET/IB : No device")) return is(InfoLine::kIbNoDevice);
  if (hasTap(8, "Unable to open device") || hasTap(9, "ibv_open_device failed")) return is(InfoLine::kIbOpenFailed);
  if (hasTap(10, "GPU Direct RDMA Disabled for HCA")) return byText(InfoLine::kGdrDisabled, after(t, "for HCA"));
  if (hasTap(10, "GPU Direct RDMA Enabled")) return is(InfoLine::kGdrEnabled);
  // Before the ring/tree checks, whose searches are not narrowed by a tap: one such line per rank and init.
  if (hasTap(14, "Init START")) return is(InfoLine::kInitStart);
  if (hasTap(15, "Init COMPLETE")) return is(InfoLine::kInitComplete);
  if ((hasTap(11, "Channel ") || lineHolds(t, "Ring ")) && !lineHolds(t, "->")) {
    // "Channel 00/32 :    0" lists a ring; the number after '/' is the channel count.
    const std::size_t slash = t.find('/');
    c.value = slash != std::string_view::npos ? atoiView(t.substr(slash + 1)) : -1;
    return is(InfoLine::kRing);
  }
  if (lineHolds(t, "Trees")) return is(InfoLine::kTree);
  if (hasTap(26, "NVLS multicast")) return is(InfoLine::kNvls);
  if (hasTap(27, "CollNet ")) return is(InfoLine::kCollNet);
  return is(InfoLine::kProcess);
}

}  // namespace pf::doctor
