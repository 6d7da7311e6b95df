// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The interface and HCA lists of NCCL's "Bootstrap : Using", "NET/Socket : Using" and "NET/IB : Using" lines, read
// into names, and which interfaces are not a node's own NIC (InfoExtractor).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pf::doctor {

/// Whitespace-separated words.
std::vector<std::string> words(std::string_view s);
/// "[0]ens5:172.31.0.137<0>" or "ens7:10.128.0.31<0>" -> "ens5".
std::string ifName(std::string tok);
/// A container, bridge or tunnel device by its name (veth*, docker*, cni*, cali*, tun*, wg*...), not "lo".
bool isVirtual(const std::string& ifn);
/// The interfaces (or, with `hca`, the HCA ports) after "Using ", up to a ';'.
std::vector<std::string> interfaceList(std::string_view rest, bool hca);
/// A line that holds only entries of such a list ("[12]veth6163fba:fe80::b878%veth6163fba<0>"): what is left of a
/// "Using" line that a paste or a log collector broke into one entry per line.
bool isInterfaceEntryLine(std::string_view line);

}  // namespace pf::doctor
