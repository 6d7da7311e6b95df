// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "profile/profile_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "pf/error.hpp"

namespace pf::probes {
namespace {

struct NicSet {
  long long ib = 0, roce = 0;
  std::vector<double> ibRates;  ///< every InfiniBand port's rate
};

NicSet nicSet(const NodeFacts& f) {
  NicSet s;
  for (const HcaFacts& h : f.hcas) {
    if (h.linkLayer == "InfiniBand") {
      ++s.ib;
      for (const PortFacts& p : h.ports) s.ibRates.push_back(p.rateGbit);
    } else if (h.linkLayer == "Ethernet") {
      ++s.roce;
    }
  }
  return s;
}

/// Whether every criterion the match gives holds; `why` collects the ones that held, for the message.
bool profileFits(const ProfileMatch& m, const NodeFacts& f, std::vector<std::string>& why) {
  const NicSet nics = nicSet(f);
  auto check = [&](bool ok, std::string text) {
    if (ok) why.push_back(std::move(text));
    return ok;
  };
  if (m.sysVendor && !check(f.sysVendor == *m.sysVendor, "DMI sys_vendor '" + f.sysVendor + "'")) return false;
  if (m.productName && !check(f.productName == *m.productName, "DMI product_name '" + f.productName + "'"))
    return false;
  if (m.hypervVmbus && !check(f.hypervVmbus == *m.hypervVmbus, f.hypervVmbus ? "a Hyper-V VMBus" : "no VMBus"))
    return false;
  if (m.gpuCount && !check(static_cast<long long>(f.gpus.size()) == *m.gpuCount, fmt::format("{} GPUs", f.gpus.size())))
    return false;
  if (m.gpuModelContains) {
    const bool all = !f.gpus.empty() && std::all_of(f.gpus.begin(), f.gpus.end(), [&](const GpuFacts& g) {
      return g.model.find(*m.gpuModelContains) != std::string::npos;
    });
    if (!check(all, "GPU model '" + (f.gpus.empty() ? std::string() : f.gpus.front().model) + "'")) return false;
  }
  if (m.ibCount && !check(nics.ib == *m.ibCount, fmt::format("{} InfiniBand devices", nics.ib))) return false;
  if (m.ibRateGbit) {
    const bool all = !nics.ibRates.empty() && std::all_of(nics.ibRates.begin(), nics.ibRates.end(),
                                                          [&](double r) { return r == *m.ibRateGbit; });
    if (!check(all, fmt::format("InfiniBand ports at {} Gb/s", *m.ibRateGbit))) return false;
  }
  if (m.roceCount && !check(nics.roce == *m.roceCount, fmt::format("{} RoCE devices", nics.roce))) return false;
  if (m.efaCount && !check(f.efaCount == *m.efaCount, fmt::format("{} EFA devices", f.efaCount))) return false;
  return true;
}

std::string builtinNameList() {
  std::string out;
  for (const auto& b : builtinProfileTexts()) out += (out.empty() ? "" : ", ") + b.name;
  return out;
}

}  // namespace

const std::vector<BuiltinProfileText>& builtinProfileTexts() {
  static const std::vector<BuiltinProfileText> all = [] {
    std::vector<BuiltinProfileText> out;
    for (const auto& [file, text] : embeddedProfileFiles()) {
      std::string name(file);
      name = name.substr(0, name.rfind(".toml"));  // "azure-nd-h100-v5.toml" -> "azure-nd-h100-v5"
      out.push_back({std::move(name), std::string(text)});
    }
    return out;
  }();
  return all;
}

std::vector<NodeProfile> builtinProfiles() {
  std::vector<NodeProfile> out;
  for (const auto& b : builtinProfileTexts()) {
    NodeProfile p = parseNodeProfile(b.text, "built-in " + b.name);
    if (p.meta.name.empty()) p.meta.name = b.name;
    out.push_back(std::move(p));
  }
  return out;
}

NodeProfile resolveProfile(const std::string& spec) {
  // A path wins; one that looks like a path (a folder in it, a .toml name) is read as one, for its error.
  const bool pathLike =
      spec.find('/') != std::string::npos || (spec.size() > 5 && spec.compare(spec.size() - 5, 5, ".toml") == 0);
  if (std::filesystem::is_regular_file(spec) || pathLike) return loadNodeProfile(spec);
  for (NodeProfile& p : builtinProfiles())
    if (p.meta.name == spec) return p;
  if (spec == "auto") {
    NodeProfile p;
    p.origin = "auto";
    p.autoPick = true;
    p.candidates = builtinProfiles();
    return p;
  }
  throw UsageError(fmt::format(
      "--profile: '{}' is neither a file nor a built-in profile; give a profile file, \"auto\", or one of: {} "
      "(`preflight probe --list-profiles` describes them)",
      spec, builtinNameList()));
}

std::string describeNode(const NodeFacts& f) {
  const NicSet nics = nicSet(f);
  std::map<std::string, int> models;
  for (const GpuFacts& g : f.gpus) ++models[g.model];
  std::string gpus;
  for (const auto& [m, n] : models) gpus += fmt::format("{}{} x {}", gpus.empty() ? "" : ", ", n, m);
  std::string rates;
  std::map<double, int> byRate;
  for (double r : nics.ibRates) ++byRate[r];
  for (const auto& [r, n] : byRate) rates += fmt::format("{}{} at {} Gb/s", rates.empty() ? "" : ", ", n, r);
  return fmt::format("DMI '{}' / '{}'{}, GPUs: {}, {} InfiniBand device(s){}, {} RoCE, {} EFA",
                     f.sysVendor.empty() ? "?" : f.sysVendor, f.productName.empty() ? "?" : f.productName,
                     f.hypervVmbus ? ", Hyper-V VMBus" : "", gpus.empty() ? "none" : gpus, nics.ib,
                     rates.empty() ? "" : " (" + rates + ")", nics.roce, f.efaCount);
}

NodeProfile pickProfile(const NodeFacts& f, const std::vector<NodeProfile>& candidates) {
  std::vector<std::pair<NodeProfile, std::vector<std::string>>> fitting;
  for (const NodeProfile& p : candidates) {
    if (p.match.criteria() == 0) continue;  // a profile that names no criteria is never picked
    std::vector<std::string> why;
    if (profileFits(p.match, f, why)) fitting.emplace_back(p, std::move(why));
  }
  std::stable_sort(fitting.begin(), fitting.end(),
                   [](const auto& a, const auto& b) { return a.first.match.criteria() > b.first.match.criteria(); });
  NodeProfile none;
  none.origin = "auto";
  if (fitting.empty()) {
    none.noneFits = describeNode(f);
    return none;
  }
  if (fitting.size() > 1 && fitting[0].first.match.criteria() == fitting[1].first.match.criteria()) {
    none.noneFits = fmt::format("{} and {} fit equally well; name one with --profile ({})", fitting[0].first.meta.name,
                                fitting[1].first.meta.name, describeNode(f));
    return none;
  }
  NodeProfile p = std::move(fitting[0].first);
  std::string why;
  for (const auto& w : fitting[0].second) why += (why.empty() ? "" : ", ") + w;
  p.pickedBy = fmt::format("--profile auto picked {}: {}", p.meta.name, why);
  return p;
}

NodeProfile pickBuiltinProfile(const NodeFacts& f) { return pickProfile(f, builtinProfiles()); }

NodeProfile profileForNode(const NodeFacts& f, const NodeProfile& given) {
  if (!given.autoPick) return given;
  return given.candidates.empty() ? pickBuiltinProfile(f) : pickProfile(f, given.candidates);
}

}  // namespace pf::probes
