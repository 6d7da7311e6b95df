// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gpu/gpu_sysfs.hpp"

#include <regex>

#include "probe_util.hpp"

namespace pf::probes {

std::vector<SysGpu> readSysGpus(const SystemView& sys) {
  std::vector<SysGpu> out;
  for (auto& f : readPciFunctions(sys)) {
    if (f.vendor != 0x10de || (f.classCode >> 16) != 0x03) continue;
    SysGpu g;
    g.model = hexId(f.vendor).substr(2) + ":" + hexId(f.device).substr(2);
    if (auto info = sys.read("/proc/driver/nvidia/gpus/" + f.bdf + "/information"))
      for (const auto& line : splitList(*info, "\n"))
        if (line.rfind("Model:", 0) == 0) g.model = trim(line.substr(6));
    g.pci = std::move(f);
    out.push_back(std::move(g));
  }
  return out;
}

NvidiaModule readNvidiaModule(const SystemView& sys) {
  NvidiaModule m;
  m.loaded = sys.exists("/sys/module/nvidia");
  auto text = sys.read("/proc/driver/nvidia/version");
  if (!text) return m;
  m.loaded = true;
  // Two banners: "NVIDIA UNIX x86_64 Kernel Module  535.161.08" (proprietary) and "NVIDIA UNIX Open Kernel Module
  // for x86_64  580.159.04" (open, the default from driver 560 on Turing and newer): the architecture sits on
  // either side.
  static const std::regex re("Kernel Module(?: for \\S+)?\\s+([0-9]+(\\.[0-9]+)+)");
  std::smatch sm;
  if (std::regex_search(*text, sm, re)) m.version = sm[1];
  m.open = text->find("Open Kernel Module") != std::string::npos;
  return m;
}

}  // namespace pf::probes
