// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The kernel's log as the NVIDIA driver writes to it: reading it (/dev/kmsg on a live node, a captured text file
// in tests) and recognising the driver's Xid lines, and an NVSwitch's SXid lines, in it. One reader and one parser
// for the two users: `doctor --confirm`'s gpu_xid check and the gpu_xid probe of `preflight probe` and `check`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace pf {

/// One Xid or SXid line: "NVRM: Xid (PCI:0000:3b:00): 79, pid=..., GPU has fallen off the bus." or
/// "nvidia-nvswitch2: SXid (PCI:0000:c5:00.0): 12028, Non-fatal, ...".
struct XidLine {
  bool sxid = false;  ///< an NVSwitch's "Switch Xid"
  int code = 0;
  std::string pci;  ///< the device as the line names it, lower case, "PCI:" dropped: "0000:3b:00", "0000:c5:00.0"
};

/// The Xid or SXid a kernel log message reports; nullopt for any other line. An Xid must come from the driver
/// ("NVRM" before it), so a program's own text that mentions an Xid is not taken for one.
std::optional<XidLine> parseXidLine(std::string_view line);

/// "Xid 79" / "SXid 12028".
std::string xidName(const XidLine& x);

struct KernelLogRead {
  bool opened = false;
  std::string error;        ///< why the log could not be opened (strerror), when !opened
  std::size_t records = 0;  ///< messages read
};

/// Reads the kernel log at `path` and hands `take` each message. /dev/kmsg is opened non-blocking: one record per
/// read() and EAGAIN after the last, so it returns with what the ring buffer still holds instead of waiting for
/// more. A record's "priority,sequence,time,flags;" prefix is removed and its dictionary lines (" KEY=value") are
/// skipped; a regular file (a captured tree's dev/kmsg, or `dmesg` output saved there) is read line by line the
/// same way. Reads at most 64 MiB: no kernel buffer is that large.
KernelLogRead readKernelLog(const std::string& path, const std::function<void(std::string_view)>& take);

/// When a kernel log message was written, as its line says: microseconds since boot (a /dev/kmsg record's third
/// field, dmesg's "[  12.345678]") or since the epoch (dmesg --time-format iso's "2026-12-02T10:00:00,123456+01:00").
/// Neither for a line that carries no time this reader can place (dmesg -T's local "[Wed Dec  2 10:00:00 2026]").
struct KernelLogTime {
  std::optional<int64_t> bootUs, epochUs;
};

/// The time at the start of a kernel log line, as it was before readKernelLog removed a record's prefix.
KernelLogTime kernelLogTime(std::string_view rawLine);

/// readKernelLog, with each message's time.
KernelLogRead readKernelLogTimed(const std::string& path,
                                 const std::function<void(std::string_view, const KernelLogTime&)>& take);

/// A point from which on the kernel log's messages count (`--xid-since`): an absolute time, or the last span of
/// time before now. Neither: every message since boot.
struct KernelLogSince {
  std::optional<int64_t> epochUs;  ///< "2026-12-02T10:00:00Z", "2026-12-02T11:00:00+01:00", "@1796205600"
  std::optional<int64_t> lastUs;   ///< "90s", "30m", "2h", "1d": that long before now
  std::string text;                ///< as given, for messages
};

/// Parses `--xid-since` TEXT: "boot" (every message, as without the option), an ISO 8601 time with its zone (Z or
/// an offset: `date -Iseconds` prints one), "@SECONDS" since the epoch (`date +%s`) or a duration with its unit
/// (s, m, h, d). @param option the option's name, for the message
/// @throws UsageError naming the option and the text, with the forms it takes
KernelLogSince parseKernelLogSince(std::string_view text, std::string_view option);

/// "2026-12-02T10:00:00Z" for microseconds since the epoch (whole seconds).
std::string isoUtcSeconds(int64_t epochUs);

}  // namespace pf
