// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NVIDIA GPUs as files show them, without a driver call: PCI functions of vendor 0x10de with a display class
// (0x03xx; NVSwitches and audio functions share the vendor id but not the class), the model from
// /proc/driver/nvidia/gpus/<bdf>/information and the kernel module's version from /proc/driver/nvidia/version.
#pragma once

#include <string>
#include <vector>

#include "pci.hpp"
#include "system_view.hpp"

namespace pf::probes {

struct SysGpu {
  PciFunction pci;
  std::string model;  ///< "NVIDIA H100 80GB HBM3"; "10de:2330" when the driver does not say
};

std::vector<SysGpu> readSysGpus(const SystemView& sys);

struct NvidiaModule {
  std::string version;  ///< "535.161.08"; empty when the module is not loaded or its banner is not read
  bool loaded = false;  ///< /proc/driver/nvidia/version or /sys/module/nvidia exists
  bool open = false;    ///< the open kernel modules ("Open Kernel Module"), which support DMA-BUF
};
NvidiaModule readNvidiaModule(const SystemView& sys);

}  // namespace pf::probes
