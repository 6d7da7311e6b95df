// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Rules written from a sweep over every WARN format string in NCCL's src/ (bench/doctor_nccl_warn_coverage.py
// lists the ones that reach no specific rule). Each line below is one of those format strings filled in as NCCL
// prints it ("host:pid:tid [dev] file.cc:LINE NCCL WARN message"); each test checks that the message reaches the
// cause the source around it names, and that warnings NCCL survives do not outrank a real failure. The same holds for
// aws-ofi-nccl's NCCL_OFI_WARN messages (the script's --ofi), which NCCL's logger prints as "NCCL WARN NET/OFI ...".
#include <gtest/gtest.h>

#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

std::string warn(const std::string& file, const std::string& message) {
  return "gpu7:4021:4090 [2] " + file + ":512 NCCL WARN " + message + "\n";
}

// One WARN each: the source file that prints it, the message filled in, and the rule it must reach first.
struct WarnCase {
  const char* file;
  const char* message;
  const char* rule;
};

const WarnCase kWarnCases[] = {
    {"init.cc",
     "Detected mixed local Net device counts across ranks (min 3, max 4). Set NCCL_IGNORE_NET_MISMATCH=1 to continue.",
     "ib-verbs.net-device-count-differs"},
    {"mnnvl.cc",
     "MNNVL (cliqueSize 72) is available but not working on this system. Check the IMEX channel configuration "
     "(/dev/nvidia-caps-imex-channels). Set NCCL_MNNVL_ENABLE=0 to ignore this issue.",
     "other.mnnvl-imex"},
    // "NVLS" in the message is the user's NCCL_ALGO, not an NVLS set-up failure.
    {"enqueue.cc",
     "No algorithm/protocol available for function AllReduce with datatype ncclInt8. NCCL_ALGO was set to NVLS.",
     "other.no-algorithm-for-collective"},
    // The same causes in the words of earlier releases (the sweep over release tags v2.8.3 to v2.26.6).
    {"enqueue.cc",
     "Error : no algorithm/protocol available for function AllReduce with datatype ncclInt8. NCCL_ALGO was set to "
     "NVLS.",
     "other.no-algorithm-for-collective"},
    {"enqueue.cc", "Error : no algorithm/protocol available", "other.no-algorithm-for-collective"},
    {"mnnvl.cc", "MNNVL (cliqueSize 72) is available but not supported on this system. Check the IMEX configuration.",
     "other.mnnvl-imex"},
    {"bootstrap.cc", "Bootstrap Root : mismatch in rank count from procs 8 : 16", "rendezvous.ranks-disagree-on-world"},
    {"enqueue.cc", "Error : mixing different streams within a group call is not supported.", "other.program-misuse"},
    {"misc/argcheck.cc", "AllReduce : sendbuff allocated on device 0 mismatchs with NCCL device 3",
     "cuda.buffer-on-other-device"},
    {"misc/argcheck.cc", "AllReduce : recvbuff 0x55d0c8a1e000 is not a valid pointer", "other.cpu-tensor-to-nccl"},
    {"misc/argcheck.cc", "Broadcast : invalid root 8 (root should be in the 0..7 range)", "other.program-misuse"},
    {"init.cc", "ncclConfig_t argument not initialized via NCCL_CONFIG_INITIALIZER", "other.program-misuse"},
    {"misc/argcheck.cc", "Error: corrupted comm object detected", "other.program-misuse"},
    {"enqueue.cc", "FP8 reduction support begins with sm90 capable devices.", "version-mismatch.fp8-needs-sm90"},
    {"misc/cudawrap.cc", "Retrieve cuMemGetHandleForAddressRange version 11070 failed with 0 status 1",
     "version-mismatch.driver-lacks-entry-point"},
    {"include/alloc.h", "CUMEM Host is not supported prior to CUDA 12.2", "version-mismatch.driver-lacks-entry-point"},
    {"misc/nvmlwrap.cc", "nvmlInit_v2() failed: Insufficient Permissions", "cuda.nvml-unavailable"},
    {"os/linux.cc",
     "Failed to open libnvidia-ml.so.1: libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
     "cuda.nvml-unavailable"},
    // NVML's own reason for a kernel module that differs from the user-space driver is the more specific cause.
    {"misc/nvmlwrap.cc", "nvmlInit_v2() failed: Driver/library version mismatch",
     "version-mismatch.driver-runtime-combination"},
    {"include/alloc.h", "Failed to CUDA calloc 8388608 bytes", "cuda.out-of-memory"},
    {"misc/utils.cc", "Unrecoverable error detected: malloc(size=1073741824) returned null.",
     "resource-limits.host-memory"},
    {"include/checks.h", "Thread creation failed: Resource temporarily unavailable", "resource-limits.thread-create"},
    // cuMem file descriptors travel between the ranks of a node over abstract UNIX sockets (os/linux_ipcsocket.cc).
    {"os/linux_ipcsocket.cc",
     "UDS: Sending data over socket /tmp/nccl-socket-3-8a5c2f1d94e7b603 failed : Connection refused (111)",
     "p2p.cumem-handle-exchange"},
    {"proxy.cc", "ncclProxyCallBlockingUDS call to tpRank 1(8a5c2f1d94e7b603) failed : 2", "p2p.cumem-handle-exchange"},
    {"misc/socket.cc", "Net : No valid <IPv4_or_hostname>:<port> pair found", "rendezvous.nccl-comm-id"},
    {"os/linux.cc", "Error: Could not map /dev/shm/nccl-Xq3rTz size 9637888, error: Cannot allocate memory (12)",
     "shm.segment-create-failed"},
    {"misc/gdrwrap.cc", "gdr_pin_buffer(addr 7f3a40000000, size 65536) failed: -22", "ib-verbs.gdrcopy-failed"},
    {"transport/net_ib/common.cc", "communicator encountered a fatal error (detected in ncclIbTest)",
     "ib-verbs.async-port-error"},
    // The IB event thread's messages in each release's wording (net_ib.cc up to 2.29, net_ib/common.cc after).
    {"transport/net_ib.cc", "NET/IB : Got async event : port error", "ib-verbs.async-port-error"},
    {"transport/net_ib.cc", "NET/IB : mlx5_0:1 Got async event : port error", "ib-verbs.async-port-error"},
    {"transport/net_ib.cc", "NET/IB : mlx5_0:1 Got async error event: port error", "ib-verbs.async-port-error"},
    {"transport/net_ib/common.cc", "NET/IB : mlx5_0:1 Got non-fatal async event: port error(10)",
     "ib-verbs.async-port-error"},
    {"transport/net_ib.cc", "NET/IB : mlx5_0:1 async fatal event: local catastrophic error",
     "ib-verbs.async-fatal-event"},
    {"transport/net_ib.cc",
     "NET/IB : mlx5_0:1 async fatal event on QP (0x55d0c8a1e000): local work queue catastrophic error",
     "ib-verbs.async-fatal-event"},
    // IBV_EVENT_GID_CHANGE before NCCL 2.28.3 named it, and after.
    {"transport/net_ib.cc", "NET/IB : mlx5_0:1 unknown event type (18)", "ib-verbs.gid-table-changed"},
    {"transport/net_ib/common.cc", "NET/IB : mlx5_0:1 GID table changed", "ib-verbs.gid-table-changed"},
    // NCCL 2.1x's socket layer (still RCCL's): the connect loop's own words.
    {"misc/socket.cc",
     "socketPollConnect: Connect to 10.0.0.2<40000> returned 111(Connection refused) errno 111(Connection refused)",
     "network-interface.socket-connect-retries"},
    {"misc/socket.cc", "socketStartConnect: exceeded retries (35)", "network-interface.socket-connect-retries"},
    {"misc/socket.cc", "Net : No interface found in the same subnet as remote address 10.0.0.2<4000>",
     "network-interface.no-listening-interface"},
    // RCCL's own checks (ROCm/rccl src/misc/rocmwrap.cc, rocm_smi_wrap.cc).
    {"misc/rocmwrap.cc", "ROCr Driver version found is 60100. Minimum requirement is 60200",
     "version-mismatch.driver-too-old"},
    {"misc/rocm_smi_wrap.cc", "ROCm SMI init failure 8", "cuda.nvml-unavailable"},
};

// aws-ofi-nccl's messages (src/ of aws/aws-ofi-nccl), without the "NET/OFI " that the plugin's macro adds.
const WarnCase kOfiCases[] = {
    // Earlier releases' words for the same causes (the sweep over tags v1.1.5 to v1.14.2, C sources then).
    {"nccl_ofi_net.c", "Only EFA provider is supported", "efa-libfabric.no-efa-provider"},
    {"nccl_ofi_rdma.c",
     "Failed to create NCCL topology file from template /tmp/aws-ofi-nccl-topo-XXXXXX. ERROR: No space left on device",
     "efa-libfabric.ofi-topology-file"},
    {"nccl_ofi_rdma.c", "Errror preparing topo file name", "efa-libfabric.ofi-topology-file"},
    {"nccl_ofi_topo.c", "Unable to attach NIC to GPU.", "efa-libfabric.ofi-hardware-topology"},
    {"nccl_ofi_topo.c", "Unable to attach NIC to accelerator.", "efa-libfabric.ofi-hardware-topology"},
    {"platform-aws.c",
     "NCCL_PROTO was set to \"LL/LL128\", but the Libfabric endpoint does not support 128 byte in-order aligned "
     "stores. This endpoint may corrupt data during communication",
     "efa-libfabric.ofi-invalid-setting"},
    {"nccl_ofi_cuda.c", "Insufficient driver to use CUDA function cuFlushGPUDirectRDMAWrites",
     "version-mismatch.driver-lacks-entry-point"},
    {"nccl_ofi_net.c", "CUDA flush requested, but cuFlushGPUDirectRDMAWrites not found.",
     "version-mismatch.driver-lacks-entry-point"},
    {"nccl_ofi_topo.cpp", "Unable to load hardware topology.", "efa-libfabric.ofi-hardware-topology"},
    {"nccl_ofi_topo.cpp", "hwloc failed detecting PCI NIC info.", "efa-libfabric.ofi-hardware-topology"},
    {"nccl_ofi_rdma.cpp", "Failed to create anonymous topology file. ERROR: Operation not permitted",
     "efa-libfabric.ofi-topology-file"},
    {"nccl_ofi_net.cpp",
     "NCCL_OFI_NIC_DUP_CONNS set on platform that supports GPUDirect RDMA.  This configuration is not supported.",
     "efa-libfabric.ofi-invalid-setting"},
    {"nccl_ofi_param_impl.h", "WARNING: OFI_NCCL_PROTOCOL set to invalid value RDMAX",
     "efa-libfabric.ofi-invalid-setting"},
    {"nccl_ofi_net.cpp", "Unable to find a protocol that worked.  Failing initialization.",
     "efa-libfabric.no-efa-provider"},
    // The unversioned name is the plugin's own lookup: ranked above the generic missing library.
    {"nccl_ofi_cuda.cpp",
     "Failed to find CUDA Runtime library: libcudart.so: cannot open shared object file: No such file or directory",
     "version-mismatch.ofi-cuda-runtime-not-found"},
    {"nccl_ofi_cuda.cpp", "No CUDA driver entry point functions available in runtime",
     "version-mismatch.driver-lacks-entry-point"},
    {"nccl_ofi_ofiutils.cpp",
     "Using Libfabric 1.18 API with GPUDirect RDMA support, and FI_OPT_CUDA_API_PERMITTED is not declared.",
     "version-mismatch.ofi-libfabric-too-old"},
    {"nccl_ofi_gdrcopy.cpp", "gdr_map failed: -1", "ib-verbs.gdrcopy-failed"},
    // A registration failure: the generic rule, unless the error text names the limit.
    {"nccl_ofi_ofiutils.cpp", "Couldn't register memory region with regattr. RC: -95, ERROR: Unknown error",
     "efa-libfabric.ofi-memory-registration"},
    {"nccl_ofi_sendrecv.cpp",
     "Unable to register memory (type = 2) for device 0. RC: -12, Error: Cannot allocate memory",
     "efa-libfabric.efa-enomem-memlock"},
    {"nccl_ofi_sendrecv.cpp", "Unable to register memory (type = 2) for device 0. RC: -22, Error: Invalid argument",
     "version-mismatch.ofi-register-einval"},
    // libfabric's EFA status text inside the plugin's completion error: the peer's queue pair is gone.
    {"nccl_ofi_rdma.cpp",
     "Request 0x7f3a4c0012a0 completed with error. RC: 107. Error: 9 (Bad queue pair (QP) number (QP does not exist "
     "or is in error state)). Completed length: 0",
     "efa-libfabric.efa-peer-stopped-responding"},
    // An internal check: the plugin's catch-all, in the EFA category.
    {"nccl_ofi_rdma.cpp", "Invalid schedule for outgoing control message. Expected one rail, but got 2",
     "efa-libfabric.ofi-plugin-warning"},
};

TEST(DoctorNcclWarnCoverage, EachMessageReachesTheCauseItsSourceNames) {
  for (const WarnCase& c : kWarnCases)
    EXPECT_EQ(topRule(warn(c.file, c.message)), c.rule) << c.file << ": " << c.message;
  for (const WarnCase& c : kOfiCases)
    EXPECT_EQ(topRule(warn(c.file, std::string("NET/OFI ") + c.message)), c.rule) << c.file << ": " << c.message;
}

TEST(DoctorNcclWarnCoverage, AnyPluginWarningRanksBelowANamedCause) {
  // The plugin's catch-all once ranked at 0.75 above every specific EFA rule: an internal check printed after the
  // real failure must not outrank it, whichever comes first in the log.
  auto ids = rankedRuleIds(warn("nccl_ofi_rdma.cpp", "NET/OFI Failed to initialize rdma protocol") +
                           warn("nccl_ofi_topo.cpp", "NET/OFI Unable to initialize hardware topology."));
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "efa-libfabric.ofi-hardware-topology");
}

TEST(DoctorNcclWarnCoverage, RcclsIommuWarningCountsOnlyWithAHang) {
  // RCCL prints it on healthy hosts too: alone it is weak evidence; beside a watchdog timeout it names the IOMMU.
  const std::string iommu =
      warn("init.cc", "Missing \"iommu=pt\" from kernel command line which can lead to system instablity or hang!");
  EXPECT_NE(topRule(iommu), "p2p.rccl-iommu-not-passthrough");
  EXPECT_EQ(topRule(iommu + test::watchdogTimeoutLine(0)), "p2p.rccl-iommu-not-passthrough");
}

TEST(DoctorNcclWarnCoverage, AnAllocationFailureOutranksTheGenericWarning) {
  // The fallback for an unrecognised WARN stays last: a named cause on a later line ranks first.
  auto ids = rankedRuleIds(warn("graph/topo.cc", "TOPO/NET : Only matched 1 devices, 2 requested from mlx5_0") +
                           warn("include/alloc.h", "Failed to CUDA malloc 67108864 bytes"));
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "cuda.out-of-memory");
}

}  // namespace
}  // namespace pf::doctor
