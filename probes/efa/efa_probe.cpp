// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// efa: AWS Elastic Fabric Adapter devices and the software NCCL needs to use them: ib_uverbs and the efa driver,
// RDMA read support against FI_EFA_USE_DEVICE_RDMA (=1 on a device without RDMA read aborts the job, libfabric's
// fi_efa(7)), FI_PROVIDER, the EFA installer, the aws-ofi-nccl plugin on the loader's path (without it NCCL
// silently uses TCP sockets), and memlock, which libfabric needs unlimited.
//
// RDMA read is not in sysfs; the API that reports it is libefa's efadv_query_device
// (EFADV_DEVICE_ATTR_CAPS_RDMA_READ), asked on a live node. From files we derive it from the PCI device id: 0xefa0 is
// the first EFA generation (no RDMA), 0xefa1 and later (p4d onwards) support RDMA read. The evidence names the source.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "host/host_limits.hpp"
#include "ib/ib_devices.hpp"
#include "nccl/nccl_library.hpp"
#include "pf/json_field.hpp"
#include "probe.hpp"
#include "probe_util.hpp"
#include "rdma_library.hpp"

namespace pf::probes {
namespace {

bool rdmaRead(unsigned device) { return device >= 0xefa1 && device <= 0xefaf; }
bool truthy(std::string v) {
  std::transform(v.begin(), v.end(), v.begin(), ::tolower);
  return v == "1" || v == "true" || v == "yes" || v == "on";
}

/// FI_PROVIDER: a comma list of providers to include, or to exclude when it starts with '^' (fabric(7)).
bool providerAllowsEfa(const std::string& v) {
  bool negate = !v.empty() && v[0] == '^';
  auto items = splitList(negate ? v.substr(1) : v, ",");
  bool listed = std::find(items.begin(), items.end(), "efa") != items.end();
  return negate ? !listed : listed;
}

/// "1.29.1" from /opt/amazon/efa_installed_packages ("# EFA installer version: 1.29.1").
std::string installerVersion(const SystemView& sys) {
  auto text = sys.read("/opt/amazon/efa_installed_packages");
  if (!text) return "";
  const std::string key = "EFA installer version:";
  auto p = text->find(key);
  if (p == std::string::npos) return "unknown";
  auto e = text->find('\n', p);
  return trim(text->substr(p + key.size(), e == std::string::npos ? std::string::npos : e - p - key.size()));
}

/// Directories the dynamic loader searches besides the defaults: LD_LIBRARY_PATH and /etc/ld.so.conf.d.
std::vector<std::string> loaderDirs(const SystemView& sys) {
  std::vector<std::string> dirs;
  if (auto ld = sys.env().get("LD_LIBRARY_PATH"))
    for (const auto& d : splitList(*ld, ":")) dirs.push_back(d);
  for (const auto& conf : sys.list("/etc/ld.so.conf.d"))
    if (auto text = sys.read("/etc/ld.so.conf.d/" + conf))
      for (const auto& line : splitList(*text, "\n"))
        if (!trim(line).empty() && trim(line)[0] == '/') dirs.push_back(trim(line));
  return dirs;
}

void checkPlugin(const SystemView& sys, Result& r, Findings& f) {
  const auto dirs = loaderDirs(sys);
  std::string installed, onPath;
  for (const char* dir : {"/opt/amazon/ofi-nccl/lib", "/opt/aws-ofi-nccl/lib"})
    for (const char* lib : {"libnccl-net-ofi.so", "libnccl-net-aws-ofi.so", "libnccl-net.so"}) {
      std::string p = fmt::format("{}/{}", dir, lib);
      if (!sys.exists(p)) continue;
      if (installed.empty()) installed = p;
      if (onPath.empty() && std::find(dirs.begin(), dirs.end(), dir) != dirs.end()) onPath = p;
    }
  NetPluginLookup lookup = findNetPlugin(sys, sys.env().get("NCCL_NET_PLUGIN"));
  r.params["aws_ofi_nccl"] = jsonOrNull(installed);
  addEvidence(r, "aws-ofi-nccl plugin", installed.empty() ? "not installed" : installed,
              "/opt/amazon/ofi-nccl/lib, /opt/aws-ofi-nccl/lib");
  if (lookup.disabled) {
    f.add(Status::kFail, "NCCL_NET_PLUGIN=none: NCCL will not load aws-ofi-nccl and uses TCP sockets over EFA's ENA",
          "unset NCCL_NET_PLUGIN");
  } else if (installed.empty() && lookup.loaded.empty()) {
    f.add(Status::kFail, "the aws-ofi-nccl plugin is not installed: NCCL cannot use EFA and silently uses TCP sockets",
          "install it with the EFA installer (it puts the plugin in /opt/amazon/ofi-nccl/lib) or the AWS DLAMI");
  } else if (sys.isLive() ? lookup.loaded.empty() : onPath.empty()) {
    f.add(Status::kFail,
          fmt::format("aws-ofi-nccl is installed ({}) but not where the loader looks{}: NCCL silently uses TCP sockets",
                      installed, lookup.error.empty() ? "" : " (" + lookup.error + ")"),
          fmt::format("add {} to LD_LIBRARY_PATH (or /etc/ld.so.conf.d/), and check for \"NET/OFI\" or "
                      "\"NET/AWS Libfabric\" in NCCL_DEBUG=INFO output",
                      installed.substr(0, installed.rfind('/'))));
  }
}

class EfaProbe final : public Probe {
 public:
  std::string description() const override {
    return "AWS EFA devices, RDMA read vs FI_EFA_USE_DEVICE_RDMA, FI_PROVIDER, installer, aws-ofi-nccl, memlock";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    RdmaStack s = readRdmaStack(sys);
    std::vector<const IbDevice*> devs;
    for (const auto& d : s.devices)
      if (isEfa(d)) devs.push_back(&d);
    Findings f;
    const auto unbound = pciWithoutRdma(sys, s, isEfaPci);
    for (const auto& p : unbound)
      f.add(Status::kFail,
            fmt::format("EFA PCI function {} ({}) has no RDMA device (driver: {})", p.bdf, hexId(p.device),
                        p.driver.empty() ? "none" : p.driver),
            "load the efa driver (modprobe efa; it comes with the EFA installer) and check `dmesg`");
    addEvidence(r, "EFA devices", static_cast<int>(devs.size()), "/sys/class/infiniband (driver efa)");
    if (devs.empty() && unbound.empty()) {
      addEvidence(r, "EFA PCI functions (1d0f:efa*)", 0, "/sys/bus/pci/devices");
      r.status = Status::kAbsent;
      r.message =
          "no EFA device: no Amazon EFA PCI function (1d0f:efa0-efaf) and no RDMA device bound to the efa driver";
      return r;
    }
    // Only where sysfs shows EFA hardware: loading libfabric costs 0.2 s here (its PSM provider's libinfinipath
    // polls for its own hardware at load time), so a node without EFA does not pay it.
    if (sys.isLive()) {
      FabricQuery fq = queryEfaFabric();
      addEvidence(r, "fi_getinfo(provider efa, FI_EP_RDM)", fq.result,
                  fq.available ? "libfabric " + fq.version : "libfabric");
      r.params["fi_getinfo_domains"] = fq.domains;
      if (fq.available && fq.domains.empty() && !devs.empty())
        f.add(Status::kFail,
              fmt::format("sysfs lists {} EFA device(s) but libfabric's efa provider finds none ({})", devs.size(),
                          fq.result),
              "in a container, pass the /dev/infiniband/uverbs* devices; check that this libfabric has the efa "
              "provider (fi_info -p efa) and FI_PROVIDER_PATH");
    }
    if (!s.uverbsModule || s.devNodes.empty())
      f.add(Status::kFail,
            s.uverbsModule
                ? "no /dev/infiniband/uverbs* device nodes: the container was started without the EFA devices"
                : "ib_uverbs is not loaded: libfabric's efa provider finds no device (fi_getinfo: No data available)",
            s.uverbsModule
                ? "pass the devices in (docker --device=/dev/infiniband/uverbs0 ..., or the EFA device plugin "
                  "on Kubernetes)"
                : "modprobe ib_uverbs");

    const auto useRdma = sys.env().get("FI_EFA_USE_DEVICE_RDMA");
    // On a live node libefa answers for each device; the device id is the fallback and the cross-check.
    const std::map<std::string, bool> noAnswer;
    const auto& efadv = sys.isLive() ? queryVerbs().efaRdmaRead : noAnswer;
    bool fromEfadv = false;
    std::vector<std::string> noRead;
    for (const IbDevice* d : devs) {
      const unsigned id = d->pci ? d->pci->device : 0;
      bool read = rdmaRead(id);
      auto q = efadv.find(d->name);
      if (q != efadv.end()) {
        fromEfadv = true;
        if (q->second != read)
          f.add(
              Status::kWarn,
              fmt::format("{}: efadv_query_device says RDMA read is {}, the device id {} suggests {}; trusting libefa",
                          d->name, q->second ? "supported" : "not supported", hexId(id), read ? "it is" : "it is not"),
              "report the device id to the Preflight maintainers");
        read = q->second;
      }
      if (!read) noRead.push_back(d->name);
      for (const auto& p : d->ports) {
        Json row = portRow(*d, p);
        row["device_id"] = hexId(id);
        row["rdma_read"] = read;
        r.rows.push_back(std::move(row));
        if (!p.active())
          f.add(Status::kFail, fmt::format("EFA device {} port {} is {}", d->name, p.num, p.state),
                "stop and start the instance (a reboot keeps the same host); report it to AWS if it persists");
      }
    }
    addEvidence(r, "RDMA read", noRead.empty() ? "all devices" : fmt::format("not on {}", fmt::join(noRead, ", ")),
                fromEfadv ? "efadv_query_device (EFADV_DEVICE_ATTR_CAPS_RDMA_READ)"
                          : "PCI device id (EFA generation: efa0 none, efa1 and later RDMA read)");
    if (useRdma && truthy(*useRdma) && !noRead.empty())
      f.add(Status::kFail,
            fmt::format("FI_EFA_USE_DEVICE_RDMA={} but {} has no RDMA read: libfabric aborts the job at start-up",
                        *useRdma, fmt::join(noRead, ", ")),
            "unset FI_EFA_USE_DEVICE_RDMA (libfabric then uses RDMA only where the device has it)");
    if (auto prov = sys.env().get("FI_PROVIDER"); prov && !providerAllowsEfa(*prov))
      f.add(Status::kFail, fmt::format("FI_PROVIDER={} excludes efa: libfabric will not use the EFA devices", *prov),
            "set FI_PROVIDER=efa (or unset it)");

    const std::string inst = installerVersion(sys);
    r.params["installer_version"] = jsonOrNull(inst);
    addEvidence(r, "EFA installer", inst.empty() ? "not installed" : inst, "/opt/amazon/efa_installed_packages");
    if (inst.empty())
      f.add(Status::kWarn, "the EFA installer is not installed: libfabric's efa provider may be missing or old",
            "install the EFA software (aws-efa-installer), which brings libfabric, rdma-core and aws-ofi-nccl");
    checkPlugin(sys, r, f);

    Limit memlock = readLimit(sys, "Max locked memory");
    if (memlock.found && memlock.soft)
      f.add(Status::kFail,
            fmt::format("memlock is limited to {} bytes: libfabric cannot register NCCL's buffers (ENOMEM)",
                        *memlock.soft),
            "set memlock unlimited (/etc/security/limits.conf, docker --ulimit memlock=-1, Slurm "
            "PropagateResourceLimits)");

    r.metrics["device_count"] = static_cast<int>(devs.size());
    r.params["fi_provider"] = sys.env().get("FI_PROVIDER").value_or("");
    r.params["fi_efa_use_device_rdma"] = useRdma.value_or("");
    std::vector<std::string> names;
    for (const IbDevice* d : devs) names.push_back(d->name);
    f.apply(r, fmt::format("{} EFA device(s) ({}), {}", devs.size(), fmt::join(names, ", "),
                           noRead.empty() ? "all with RDMA read" : "some without RDMA read"));
    return r;
  }
};

PF_REGISTER_PROBE(EfaProbe, "efa");

}  // namespace
}  // namespace pf::probes
