// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// gpu_xid: the NVIDIA driver's Xid lines (and an NVSwitch's SXid lines) in the kernel log since boot (or since
// `--xid-since`, gpu/xid_window.hpp), as far as its ring buffer still holds them, each classed with NVIDIA's Xid
// catalogue (gpu/xid_catalogue.hpp): one row per GPU and Xid with its count, first and last line, class and remedy. A
// GPU that logged an Xid needing a reset or a drain fails the node. The log is /dev/kmsg, read without waiting
// (pf/kernel_log.hpp); a captured tree keeps it at ROOT/dev/kmsg, either as /dev/kmsg records or as `dmesg` text. Not
// run on a GPU node yet: tested on text.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <tuple>

#include "gpu/gpu_sysfs.hpp"
#include "gpu/xid_catalogue.hpp"
#include "gpu/xid_window.hpp"
#include "pf/json_field.hpp"
#include "pf/kernel_log.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

struct XidSeen {
  XidLine xid;
  std::size_t count = 0;
  std::string first, last;
};

std::string clipXidLine(std::string_view line) { return std::string(line.substr(0, 300)); }

class GpuXidProbe final : public Probe {
 public:
  std::string description() const override {
    return "GPU Xid/SXid errors in the kernel log, classed with NVIDIA's Xid catalogue (reset GPU, drain node, ...)";
  }

  Result run(const SystemView& sys, const ProbeOptions& opt) const override {
    Result r;
    const bool driver = readNvidiaModule(sys).loaded;
    const std::string path = sys.path("/dev/kmsg").string();
    addEvidence(r, "NVIDIA driver", driver ? "loaded" : "not loaded", "/sys/module/nvidia");
    if (!driver && !sys.isLive() && !sys.exists("/dev/kmsg")) {
      r.status = Status::kAbsent;
      r.message = "no NVIDIA driver: no kernel module, so no Xid to read";
      return r;
    }
    std::map<std::tuple<std::string, bool, int>, XidSeen> seen;  // (PCI address, SXid, code), in address order
    const XidWindow window(sys, opt.xidSince);
    std::size_t before = 0, unplaced = 0;  // records before the window; records it cannot place (looked at)
    const KernelLogRead log = readKernelLogTimed(path, [&](std::string_view line, const KernelLogTime& time) {
      const XidWindow::Place at = window.place(time);
      if (at == XidWindow::Place::kBefore) {
        ++before;
        return;
      }
      unplaced += at == XidWindow::Place::kUnplaced;
      auto x = parseXidLine(line);
      if (!x) return;
      XidSeen& s = seen[{x->pci, x->sxid, x->code}];
      if (s.count++ == 0) {
        s.xid = *x;
        s.first = clipXidLine(line);
      }
      s.last = clipXidLine(line);
    });
    addEvidence(r, "kernel log records", log.opened ? Json(log.records) : Json(log.error), "/dev/kmsg");
    if (window.active() && log.opened) {
      addEvidence(r, "Xid window", window.describe(), "/proc/uptime, /proc/stat btime");
      addEvidence(r, "records before the window (not looked at)", before, "/dev/kmsg");
      if (unplaced > 0)
        addEvidence(r, "records the window cannot place (looked at)",
                    fmt::format("{}{}", unplaced, window.missing().empty() ? "" : " (" + window.missing() + ")"),
                    "/dev/kmsg");
    }
    if (!driver && seen.empty()) {
      r.status = Status::kAbsent;
      r.message = "no NVIDIA driver (no /sys/module/nvidia) and no Xid in the kernel log";
      return r;
    }
    if (!log.opened) {
      r.status = sys.isLive() ? Status::kWarn : Status::kAbsent;
      r.message = sys.isLive() ? fmt::format("the kernel log cannot be read ({}: {}), so Xid errors are not looked at",
                                             path, log.error)
                               : "the captured tree holds no kernel log (ROOT/dev/kmsg)";
      if (sys.isLive())
        r.remedy = "run the check as root (the kernel's dmesg_restrict hides /dev/kmsg from other users)";
      return r;
    }
    Findings f;
    std::vector<std::string> informational;
    for (const auto& [key, s] : seen) {
      const auto entry = s.xid.sxid ? std::nullopt : findXid(s.xid.code);
      const XidClass cls = classify(entry);
      const std::string remedy = xidRemedy(cls, entry, s.xid.pci);
      Json row{{"pci", s.xid.pci},
               {"xid", xidName(s.xid)},
               {"count", s.count},
               {"class", toString(cls)},
               {"first", s.first},
               {"last", s.last},
               {"remedy", jsonOrNull(remedy)}};
      if (entry) {
        row["mnemonic"] = entry->mnemonic;
        row["meaning"] = entry->description;
        row["nvidia_action"] = entry->immediate;
        row["nvidia_investigation"] = entry->investigatory;
      }
      r.rows.push_back(std::move(row));
      const std::string what =
          fmt::format("{}{} on GPU {}{}", xidName(s.xid), entry ? " (" + entry->description + ")" : "", s.xid.pci,
                      s.count > 1 ? fmt::format(", {} times", s.count) : "");
      if (cls == XidClass::kInformational)
        informational.push_back(what);
      else
        f.add(statusOf(cls), fmt::format("{}: {}", toString(cls), what), remedy);
    }
    r.metrics["kernel_log_records"] = log.records;
    r.metrics["xid_kinds"] = static_cast<int>(seen.size());
    // What was looked at: every record the log holds, or those in the window (and those it could not place).
    std::string scope = fmt::format("the {} records the kernel log holds", log.records);
    if (window.active()) {
      r.metrics["records_before_window"] = before;
      scope = fmt::format("the {} records {}{}", log.records - before, window.describe(),
                          unplaced > 0 ? fmt::format(", {} of them with no time it can place", unplaced) : "");
    }
    std::string pass = "no Xid in " + scope;
    if (!informational.empty())
      pass = fmt::format("no Xid that needs action in {}; informational: {}", scope, fmt::join(informational, "; "));
    f.apply(r, pass);
    return r;
  }
};

PF_REGISTER_PROBE(GpuXidProbe, "gpu_xid");

}  // namespace
}  // namespace pf::probes
