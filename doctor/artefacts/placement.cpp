// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "placement.hpp"

#include <fmt/format.h>

#include <vector>

#include "pf/kernel_log.hpp"

namespace pf::doctor {
namespace {

bool phSeparator(char c) { return c == '/' || c == '-' || c == '_' || c == '.' || c == '@' || c == ' '; }

// Whether `host` occurs in `part` as a whole word.
bool phNames(std::string_view part, std::string_view host) {
  for (std::size_t at = part.find(host); at != std::string_view::npos; at = part.find(host, at + 1)) {
    const std::size_t end = at + host.size();
    if ((at == 0 || phSeparator(part[at - 1])) && (end == part.size() || phSeparator(part[end]))) return true;
  }
  return false;
}

}  // namespace

std::string hostNamedByPath(std::string_view path, const std::set<std::string>& hosts) {
  // From the file's name up: "/scratch/node1-data/job/dmesg-node3.txt" is node3's.
  std::size_t end = path.size();
  while (end > 0) {
    const std::size_t slash = path.rfind('/', end - 1);
    const std::size_t begin = slash == std::string_view::npos ? 0 : slash + 1;
    const std::string_view part = path.substr(begin, end - begin);
    std::vector<const std::string*> named;
    for (const auto& h : hosts)
      if (!h.empty() && phNames(part, h)) named.push_back(&h);
    if (!named.empty()) {
      const std::string* longest = named.front();
      for (const auto* h : named)
        if (h->size() > longest->size()) longest = h;
      for (const auto* h : named)
        if (longest->find(*h) == std::string::npos) return "";  // two hosts: whose it is, the path does not say
      return *longest;
    }
    if (slash == std::string_view::npos) break;
    end = slash;
  }
  return "";
}

std::size_t placeHostlessKernelLogs(ArtefactOut& out, std::vector<TimelineEvent>& events,
                                    const std::set<std::string>& jobHosts, std::vector<std::string>& notes) {
  std::size_t unplaced = 0;
  for (const auto& file : out.hostlessKernelLogs) {
    const std::string host = hostNamedByPath(file, jobHosts);
    if (host.empty()) {
      ++unplaced;
      // On Kubernetes the logs name pods, not nodes: the example is one of the job's own host names.
      const std::string example = jobHosts.empty() ? "node3" : *jobHosts.begin();
      notes.push_back(
          fmt::format("kernel log {} names no host on its lines and its path names none of the job's: "
                      "its events are on no host (save each node's dmesg under the host name the logs "
                      "give its processes, e.g. {}/dmesg.txt; on Kubernetes, the pod's)",
                      file, example));
      continue;
    }
    for (auto& e : events)
      if (e.file == file && e.host.empty()) e.host = host;
    out.coverHost("kernel logs", host);
    notes.push_back(
        fmt::format("kernel log {} names no host on its lines (dmesg prints none): taken as {}'s, "
                    "the job's host its path names",
                    file, host));
  }
  return unplaced;
}

void placeXidProcesses(std::vector<TimelineEvent>& events, const std::function<int(const std::string&, long)>& rankOf,
                       std::vector<std::string>& notes) {
  for (auto& e : events) {
    if (e.rank >= 0 || e.host.empty() || !parseXidLine(e.text)) continue;
    const std::size_t at = e.text.find(", pid=");
    if (at == std::string::npos) continue;
    long pid = 0;
    std::size_t i = at + 6, digits = 0;
    for (; i < e.text.size() && digits < 10 && e.text[i] >= '0' && e.text[i] <= '9'; ++i, ++digits)
      pid = pid * 10 + (e.text[i] - '0');
    if (digits == 0 || (i < e.text.size() && e.text[i] != ',')) continue;  // "pid='<unknown>'", or cut short
    const int rank = rankOf(e.host, pid);
    if (rank < 0) continue;
    e.rank = rank;
    if (notes.size() < 16)
      notes.push_back(
          fmt::format("the Xid at {}:{} names pid {} on {}: rank {}'s process", e.file, e.line, pid, e.host, rank));
  }
}

}  // namespace pf::doctor
