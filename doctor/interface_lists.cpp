// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "interface_lists.hpp"

#include <algorithm>

namespace pf::doctor {

// Whitespace-separated words (a hand loop: an istringstream costs a locale look-up per word, which showed
// up as the top cost on multi-GB logs).
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string ifName(std::string tok) {
  if (!tok.empty() && tok[0] == '[') {
    std::size_t c = tok.find(']');
    if (c != std::string::npos) tok = tok.substr(c + 1);
  }
  return tok.substr(0, tok.find(':'));
}

bool isVirtual(const std::string& ifn) {
  // Interfaces that are not a node's own NIC, by the names their software gives them: container and bridge devices
  // (veth, docker, podman, LXD, libvirt), Kubernetes network plugins (Calico cali*, Cilium lxc*/cilium_*, Weave,
  // Flannel, kube-router, VXLAN and Geneve tunnels) and VPN tunnels (tun/tap, WireGuard, Tailscale, ZeroTier). Not
  // "lo": a single-node job legitimately bootstraps over loopback.
  for (const char* p : {"veth",   "docker", "virbr", "cni",   "flannel", "br-", "podman", "lxdbr", "cali",      "lxc",
                        "cilium", "weave",  "kube-", "vxlan", "genev",   "tun", "tap",    "wg",    "tailscale", "zt"}) {
    if (ifn.rfind(p, 0) == 0) return true;
  }
  return false;
}

// NET/IB puts "; OOB ..." after its list.
std::vector<std::string> interfaceList(std::string_view rest, bool hca) {
  std::vector<std::string> out;
  for (const auto& w : words(rest.substr(0, rest.find(';')))) {
    if (w == "[RO]") continue;
    std::string name = hca ? w.substr(w[0] == '[' ? w.find(']') + 1 : 0) : ifName(w);
    if (!name.empty()) out.push_back(name);
  }
  return out;
}

bool isInterfaceEntryLine(std::string_view line) {
  // Only asked after a "Using" line with nothing after it: the words' allocations do not matter there.
  const std::vector<std::string> ws = words(line.substr(0, line.find_last_not_of("\r\n") + 1));
  return !ws.empty() && std::all_of(ws.begin(), ws.end(), [](const std::string& w) {
    // "[N]" and a name, then ':' and an address, ending in "<port>".
    std::size_t k = 1;
    while (k < w.size() && w[k] >= '0' && w[k] <= '9') ++k;
    return w.size() > 4 && w[0] == '[' && k > 1 && k < w.size() && w[k] == ']' &&
           w.find(':', k + 2) != std::string::npos && w.back() == '>' && w.find('<', k) != std::string::npos;
  });
}

}  // namespace pf::doctor
