// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading a node profile: cpptoml (Debian: libcpptoml-dev) parses, then every table and key is checked against
// the known ones, so a misspelt key is an error naming it rather than a requirement silently dropped.
#include <cpptoml.h>
#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "pf/error.hpp"
#include "profile/node_profile.hpp"

namespace pf::probes {
namespace {

const char* kProfileDoc = "see docs/probe.md, \"Node profiles\"";

struct ProfileReader {
  const std::string& origin;

  [[noreturn]] void bad(const std::string& key, const std::string& what) const {
    throw UsageError(fmt::format("{}: {}: {} ({})", origin, key, what, kProfileDoc));
  }
  long long count(const cpptoml::base& v, const std::string& key, long long lo) const {
    auto i = v.as<int64_t>();
    if (!i) bad(key, fmt::format("must be a whole number, at least {}", lo));
    if (i->get() < lo) bad(key, fmt::format("is {}; give a whole number of at least {}", i->get(), lo));
    return i->get();
  }
  std::string text(const cpptoml::base& v, const std::string& key) const {
    auto s = v.as<std::string>();
    if (!s || s->get().empty()) bad(key, "must be a non-empty string in double quotes");
    return s->get();
  }
  std::string version(const cpptoml::base& v, const std::string& key) const {
    std::string s = text(v, key);
    if (s.find_first_not_of("0123456789.") != std::string::npos || s.front() == '.' || s.back() == '.')
      bad(key, fmt::format("'{}' is not a dotted version; write it as \"2.19.3\" or \"535.161.08\"", s));
    return s;
  }
  double number(const cpptoml::base& v, const std::string& key) const {
    if (auto i = v.as<int64_t>(); i && i->get() > 0) return static_cast<double>(i->get());
    if (auto d = v.as<double>(); d && d->get() > 0) return d->get();
    bad(key, "must be a positive number");
  }
  bool flag(const cpptoml::base& v, const std::string& key) const {
    auto b = v.as<bool>();
    if (!b) bad(key, "must be true or false");
    return b->get();
  }
  std::vector<std::string> texts(const cpptoml::base& v, const std::string& key) const {
    std::vector<std::string> out;
    bool allText = v.is_array();
    if (allText)
      for (const auto& item : static_cast<const cpptoml::array&>(v).get()) {
        auto s = item->as<std::string>();
        allText = allText && s && !s->get().empty();
        if (allText) out.push_back(s->get());
      }
    if (!allText || out.empty()) bad(key, "must be a list of non-empty strings: [\"...\", \"...\"]");
    return out;
  }
  long long width(const cpptoml::base& v, const std::string& key) const {
    std::string s = text(v, key);
    long long n = 0;
    size_t i = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) n = n * 10 + (s[i] - '0');
    if (i == 0 || n == 0 || i + 1 != s.size() || (s[i] != 'X' && s[i] != 'x'))
      bad(key, fmt::format("'{}' is not a link width; write \"1X\", \"2X\", \"4X\", \"8X\" or \"12X\"", s));
    return n;
  }
  std::string oneOf(const cpptoml::base& v, const std::string& key, const std::vector<std::string>& allowed) const {
    std::string s = text(v, key);
    for (const auto& a : allowed)
      if (s == a) return s;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "\"" : ", \"") + a + "\"";
    bad(key, fmt::format("'{}' is not one of {}", s, list));
  }

  using Setter = std::function<void(const cpptoml::base&, const std::string&)>;
  void table(const cpptoml::table& root, const std::string& name, const std::map<std::string, Setter>& keys) const {
    auto node = root.get(name);
    if (!node->is_table()) bad(name, "must be a table ([" + name + "])");
    for (const auto& [k, v] : *node->as_table()) {
      const std::string key = name + "." + k;
      auto it = keys.find(k);
      if (it == keys.end()) {
        std::string known;
        for (const auto& [kk, s] : keys) known += (known.empty() ? "" : ", ") + kk;
        bad(key, fmt::format("unknown key; [{}] takes {}", name, known));
      }
      it->second(*v, key);
    }
  }

  void rdma(const cpptoml::table& root, const std::string& name, RdmaSpec& s) const {
    table(root, name,
          {{"count", [&](auto& v, auto& k) { s.count = count(v, k, 0); }},
           {"ports", [&](auto& v, auto& k) { s.ports = count(v, k, 0); }},
           {"rate_gbit", [&](auto& v, auto& k) { s.rateGbit = number(v, k); }},
           {"width", [&](auto& v, auto& k) { s.width = width(v, k); }},
           {"state",
            [&](auto& v, auto& k) {
              s.state = oneOf(v, k, {"ACTIVE", "DOWN", "INIT", "ARMED"});
            }},
           {"pcie_gen", [&](auto& v, auto& k) { s.pcieGen = count(v, k, 1); }},
           {"pcie_width", [&](auto& v, auto& k) { s.pcieWidth = count(v, k, 1); }},
           {"mtu", [&](auto& v, auto& k) { s.mtu = count(v, k, 68); }}});
  }
};

}  // namespace

NodeProfile parseNodeProfile(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::shared_ptr<cpptoml::table> root;
  try {
    root = cpptoml::parser(in).parse();
  } catch (const cpptoml::parse_exception& e) {
    throw UsageError(fmt::format("{}: not valid TOML: {}", origin, e.what()));
  }
  NodeProfile p;
  p.origin = origin;
  const ProfileReader r{origin};
  for (const auto& [name, node] : *root) {
    if (name == "gpu") {
      r.table(*root, name,
              {{"count", [&](auto& v, auto& k) { p.gpu.count = r.count(v, k, 0); }},
               {"model", [&](auto& v, auto& k) { p.gpu.model = r.text(v, k); }},
               {"memory_mib", [&](auto& v, auto& k) { p.gpu.memoryMib = r.count(v, k, 1); }},
               {"pcie_gen", [&](auto& v, auto& k) { p.gpu.pcieGen = r.count(v, k, 1); }},
               {"pcie_width", [&](auto& v, auto& k) { p.gpu.pcieWidth = r.count(v, k, 1); }},
               {"nvlink_links", [&](auto& v, auto& k) { p.gpu.nvlinkLinks = r.count(v, k, 1); }},
               {"nvlink_gbs", [&](auto& v, auto& k) { p.gpu.nvlinkGbs = r.number(v, k); }},
               {"driver_min", [&](auto& v, auto& k) { p.gpu.driverMin = r.version(v, k); }},
               {"driver_max", [&](auto& v, auto& k) { p.gpu.driverMax = r.version(v, k); }}});
    } else if (name == "cuda") {
      r.table(*root, name,
              {{"driver_min", [&](auto& v, auto& k) { p.cuda.driverMin = r.version(v, k); }},
               {"driver_max", [&](auto& v, auto& k) { p.cuda.driverMax = r.version(v, k); }}});
    } else if (name == "placement") {
      r.table(*root, name,
              {{"gpu_nic_numa", [&](auto& v, auto& k) { p.placement.gpuNicNuma = r.flag(v, k); }},
               {"gpu_nic_pcie_switch", [&](auto& v, auto& k) { p.placement.gpuNicPcieSwitch = r.flag(v, k); }}});
    } else if (name == "expect") {
      r.table(*root, name,
              {{"allreduce_busbw_gbs", [&](auto& v, auto& k) { p.expect.allreduceBusbwGbs = r.number(v, k); }},
               {"pair_busbw_gbs", [&](auto& v, auto& k) { p.expect.pairBusbwGbs = r.number(v, k); }},
               {"derive", [&](auto& v, auto& k) { p.expect.derive = r.flag(v, k); }}});
    } else if (name == "profile") {
      r.table(*root, name,
              {{"name", [&](auto& v, auto& k) { p.meta.name = r.text(v, k); }},
               {"description", [&](auto& v, auto& k) { p.meta.description = r.text(v, k); }},
               {"sources", [&](auto& v, auto& k) { p.meta.sources = r.texts(v, k); }}});
    } else if (name == "match") {
      auto& m = p.match;
      r.table(*root, name,
              {{"sys_vendor", [&](auto& v, auto& k) { m.sysVendor = r.text(v, k); }},
               {"product_name", [&](auto& v, auto& k) { m.productName = r.text(v, k); }},
               {"hyperv_vmbus", [&](auto& v, auto& k) { m.hypervVmbus = r.flag(v, k); }},
               {"gpu_model_contains", [&](auto& v, auto& k) { m.gpuModelContains = r.text(v, k); }},
               {"gpu_count", [&](auto& v, auto& k) { m.gpuCount = r.count(v, k, 0); }},
               {"ib_count", [&](auto& v, auto& k) { m.ibCount = r.count(v, k, 0); }},
               {"ib_rate_gbit", [&](auto& v, auto& k) { m.ibRateGbit = r.number(v, k); }},
               {"roce_count", [&](auto& v, auto& k) { m.roceCount = r.count(v, k, 0); }},
               {"efa_count", [&](auto& v, auto& k) { m.efaCount = r.count(v, k, 0); }}});
    } else if (name == "ib") {
      r.rdma(*root, name, p.ib);
    } else if (name == "roce") {
      r.rdma(*root, name, p.roce);
    } else if (name == "host") {
      r.table(*root, name,
              {{"memlock",
                [&](auto& v, auto& k) {
                  if (auto s = v.template as<std::string>(); s && s->get() == "unlimited")
                    p.host.memlockUnlimited = true;
                  else if (v.template as<int64_t>())
                    p.host.memlockBytes = r.count(v, k, 0);
                  else
                    r.bad(k, "must be \"unlimited\" or a number of bytes");
                }},
               {"shm_bytes", [&](auto& v, auto& k) { p.host.shmBytes = r.count(v, k, 1); }},
               {"transparent_hugepages", [&](auto& v, auto& k) {
                  p.host.transparentHugepages = r.oneOf(v, k, {"always", "madvise", "never"});
                }}});
    } else if (name == "nccl") {
      r.table(*root, name,
              {{"version_min", [&](auto& v, auto& k) { p.nccl.versionMin = r.version(v, k); }},
               {"version_max", [&](auto& v, auto& k) { p.nccl.versionMax = r.version(v, k); }}});
    } else {
      r.bad(name,
            "unknown table; a profile has [gpu], [cuda], [ib], [roce], [placement], [host], [nccl], [expect], "
            "[profile] and [match]");
    }
  }
  if (p.gpu.driverMin && p.gpu.driverMax && compareVersions(*p.gpu.driverMin, *p.gpu.driverMax) > 0)
    r.bad("gpu.driver_min", "is above gpu.driver_max; swap them");
  if (p.cuda.driverMin && p.cuda.driverMax && compareVersions(*p.cuda.driverMin, *p.cuda.driverMax) > 0)
    r.bad("cuda.driver_min", "is above cuda.driver_max; swap them");
  if (p.expect.derive && (p.expect.allreduceBusbwGbs || p.expect.pairBusbwGbs))
    r.bad("expect.derive", "derive = true excludes allreduce_busbw_gbs and pair_busbw_gbs; keep one or the other");
  if (p.nccl.versionMin && p.nccl.versionMax && compareVersions(*p.nccl.versionMin, *p.nccl.versionMax) > 0)
    r.bad("nccl.version_min", "is above nccl.version_max; swap them");
  return p;
}

NodeProfile loadNodeProfile(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw UsageError(
        fmt::format("--profile: cannot read '{}'; give a node profile written by "
                    "`preflight probe --emit-profile FILE` or by hand ({})",
                    path, kProfileDoc));
  std::stringstream ss;
  ss << in.rdbuf();
  return parseNodeProfile(ss.str(), path);
}

}  // namespace pf::probes
