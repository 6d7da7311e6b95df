// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Events placed on a node and a rank where their own lines do not say. `dmesg` and `dmesg -T` print no host on their
// lines, so a job's folder holds them as `node3/dmesg.txt` or `dmesg-node3.log`: the path says whose they are. An
// Xid line names the process that had the GPU ("pid=2817"): on a node whose NCCL processes the logs name, that is a
// rank's GPU.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "artefact.hpp"

namespace pf::doctor {

/// The one host of `hosts` that is a whole word of `path` (bounded by its start or end, '/', '-', '_', '.', '@' or
/// a space), looked for from the file's name up through its folders: the nearest part that names one host decides.
/// "" when no part does, or when the nearest that does names two hosts neither of which holds the other
/// ("node1-node3.log"; "node3-ib" over "node3" in "dmesg-node3-ib.txt").
std::string hostNamedByPath(std::string_view path, const std::set<std::string>& hosts);

/// Puts the events of each of `out.hostlessKernelLogs` that name no host on the host its path names among
/// `jobHosts` (and counts that host's kernel log as given); `notes` says which log was taken as whose, and which
/// could not be placed. Returns how many could not.
std::size_t placeHostlessKernelLogs(ArtefactOut& out, std::vector<TimelineEvent>& events,
                                    const std::set<std::string>& jobHosts, std::vector<std::string>& notes);

/// An Xid event on a host, with no rank, whose line names its process ("..., pid=2817, name=python, ..."): the rank
/// `rankOf(host, pid)` gives (-1: none), said in `notes`. Container pids are not the host's, so on Kubernetes this
/// names nothing, as it should.
void placeXidProcesses(std::vector<TimelineEvent>& events, const std::function<int(const std::string&, long)>& rankOf,
                       std::vector<std::string>& notes);

}  // namespace pf::doctor
