// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What a node profile (node_profile.hpp) can declare, read from one node through its SystemView with the same
// readers the probes use (gpu_sysfs, ib_devices, pci, host_limits, nccl_library), so a profile judges exactly
// what `preflight probe` shows: GPUs and their PCIe links, RDMA devices (EFA excluded) with their ports and
// PCIe links, the NVIDIA kernel module and NCCL versions, memlock, /dev/shm and transparent huge pages.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "system_view.hpp"

namespace pf::probes {

/// A PCI function's negotiated link (current_link_speed/width), with the sysfs directory it came from.
struct PcieLink {
  int gen = 0;    ///< 0 when sysfs does not say
  int width = 0;  ///< lanes; 0 when sysfs does not say
  std::string source;
};

struct GpuFacts {
  std::string bdf, model;
  PcieLink link;
  std::optional<long long> memoryMib;  ///< from the CUDA runtime/NVML on a live node; none on a captured tree
  std::optional<int> nvlinkActive;     ///< active NVLinks (NVML), live nodes only
  int numaNode = -1;                   ///< sysfs numa_node; -1 when the platform does not say
  std::string rootComplex;             ///< PCI ancestry, for the GPU-NIC placement keys
  std::vector<std::string> chain;      ///< BDFs from the root port down to the GPU
};

struct PortFacts {
  int num = 1;
  std::string state, linkLayer, rateText, netdev;
  double rateGbit = 0;
  int width = 0;                 ///< lanes from the rate text ("(4X NDR)" -> 4); 0 when it does not say
  std::optional<long long> mtu;  ///< the port's netdev MTU (RoCE), from /sys/class/net/<netdev>/mtu
};

struct HcaFacts {
  std::string name;       ///< mlx5_0
  std::string linkLayer;  ///< the first port's: "InfiniBand" or "Ethernet"
  std::optional<PcieLink> link;
  std::vector<PortFacts> ports;
  int numaNode = -1;
  std::string rootComplex;
  std::vector<std::string> chain;  ///< empty when the device is not PCI
};

struct NodeFacts {
  std::string host;
  std::vector<GpuFacts> gpus;
  std::vector<HcaFacts> hcas;             ///< every RDMA device but EFA, in name order
  int efaCount = 0;                       ///< EFA devices (judged by the efa probe; counted here for --profile auto)
  std::string sysVendor, productName;     ///< DMI (/sys/class/dmi/id); empty when absent
  bool hypervVmbus = false;               ///< /sys/bus/vmbus: a Hyper-V guest (Azure)
  std::optional<std::string> cudaDriver;  ///< CUDA driver API version "12.4", live nodes only
  std::string driverVersion;              ///< NVIDIA kernel module; empty when not loaded
  std::string ncclVersion;                ///< empty when no libnccl was found
  bool memlockFound = false;
  std::optional<long long> memlockSoft;  ///< nullopt = unlimited (when found)
  std::optional<long long> shmBytes;
  std::optional<std::string> transparentHugepages;  ///< "always", "madvise", "never"
};

NodeFacts readNodeFacts(const SystemView& sys);

/// Lanes from an IB rate text: "400 Gb/sec (4X NDR)" -> 4, "(1X HDR)" -> 1; 0 when there is none.
int rateWidth(const std::string& rateText);

/// Compares dotted versions numerically ("535.161.08" < "550.54.15"); -1, 0 or 1. Missing parts count as 0.
int compareVersions(const std::string& a, const std::string& b);

}  // namespace pf::probes
