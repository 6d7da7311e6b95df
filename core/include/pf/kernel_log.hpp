// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The kernel's log as the NVIDIA driver writes to it: reading it (/dev/kmsg on a live node, a captured text file
// in tests) and recognising the driver's Xid lines, and an NVSwitch's SXid lines, in it. One reader and one parser
// for the two users: `doctor --confirm`'s gpu_xid check and the gpu_xid probe of `preflight probe` and `check`.
#pragma once

#include <cstddef>
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

}  // namespace pf
