// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A node's kernel log: `dmesg` ("[12345.678901] ..."), `dmesg -T` ("[Wed Dec  2 09:19:05 2026] ..."), syslog or
// journalctl ("Dec  2 09:19:05 node7 kernel: ..."). Recognised when most of its first lines have one of these
// shapes. Every line is read (the wall-clock anchors of boot offsets: line_events.hpp) for Xid / SXid and link
// events; the rules read it too (their Xid rules).
#include <algorithm>

#include "artefact.hpp"
#include "clock.hpp"
#include "line_events.hpp"

namespace pf::doctor {
namespace {

class KernelLogKind final : public ArtefactKind {
 public:
  std::string description() const override { return "kernel log (dmesg, syslog, journal)"; }
  int recognise(std::string_view head) const override {
    if (!looksLikeText(head)) return 0;
    int lines = 0, kernel = 0;
    for (std::size_t b = 0; b < head.size() && lines < 20;) {
      std::size_t e = head.find('\n', b);
      if (e == std::string_view::npos) break;  // the head may cut the last line
      const std::string_view l = head.substr(b, e - b);
      b = e + 1;
      if (l.empty()) continue;
      ++lines;
      std::size_t used = 0;
      const Stamp s = parseStamp(l, &used);
      const bool klog = s.clock == Clock::kBoot ||
                        (s.clock != Clock::kNone && s.text.starts_with("[") && s.clock == Clock::kWall &&
                         !s.text.starts_with("[2")) ||
                        l.substr(0, std::min<std::size_t>(l.size(), 80)).find(" kernel: ") != std::string_view::npos;
      kernel += klog;
    }
    return lines > 0 && kernel * 2 >= lines ? 30 : 0;
  }
  bool readsAsLog() const override { return true; }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override { return lineEventsReader(file, true); }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(KernelLogKind, "kernel-log");

}  // namespace pf::doctor
