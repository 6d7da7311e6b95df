// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Messages from the thirty-first corpus batch's development cases: DDP's and Accelerate's device checks, DTensor,
// checkpoint loading, the GPUDirect peer-memory module, Fabric Manager's start, a VM's GPU BARs, Windows sockets,
// Paddle's launcher, Ray-based trainers, SGLang's disaggregation, Open MPI over TCP and UCX, libfabric's EFA provider
// in a hung rank's backtrace and Asio's resolver. Each line is laid out as the program printed it in its case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::diagnoses;
using test::topRule;

const std::vector<test::RuleLines>& jobStackMessages() {
  static const std::vector<test::RuleLines> table = {
      {"cuda.model-not-on-rank-device",
       {"DistributedDataParallel device_ids and output_device arguments only work with single-device CUDA modules, "
        "but got device_ids 1",
        "You can't train a model that has been loaded in 8-bit precision on a different device than the one you're "
        "training on."}},
      {"other.program-misuse",
       {"RuntimeError: DistributedDataParallel is not needed when a module doesn't have any parameter that requires "
        "a gradient.",
        "AssertionError: MMDataParallel only supports single GPU training, if you need to train with multiple GPUs, "
        "please use MMDistributedDataParallelinstead."}},
      {"version-mismatch.peer-memory-module-symbols",
       {"[76463.688316] nv_peer_mem: disagrees about version of symbol ib_register_peer_memory_client",
        "[  366.264587] nv_peer_mem: Unknown symbol nvidia_p2p_get_pages (err -22)"}},
      {"cuda.fabric-manager-not-running", {"[  212.870394] timeout waiting for: FM starting NvLink Inband"}},
      {"other.dtensor-op-unsupported",
       {"NotImplementedError: Operator aten.matmul.default does not have a sharding strategy registered."}},
      {"network-interface.windows-address-not-valid",
       {"[W812 11:56:08.000000000 socket.cpp:755] [c10d] The client socket has failed to connect to "
        "[host.docker.internal]:12594 (system error: 10049 - The requested address is not valid in its context.)."}},
      {"other.checkpoint-layout-mismatch",
       {"RuntimeError: Missing key in checkpoint state_dict: optimizer.state.0.step."}},
      {"rendezvous.ray-cluster-fewer-gpus",
       {"AssertionError: The Ray clusters(ray_num_nodes: 0) cannot meet the required number of nodes (`num_nodes`2)."}},
      {"other.parallel-config-invalid",
       {"RuntimeError: PD Disaggregation does NOT support PD different TP sizes for non-MLA SWA hybrid models yet."}},
      {"efa-libfabric.stuck-in-efa-provider",
       {"#8  0x00007f07428aff01 in rxr_ep_progress (util_ep=0xea89b0) at prov/efa/src/rxr/rxr_ep.c:1792"}},
      {"other.ucx-gpu-buffer-as-host",
       {"[1552352932.583827] [ip-172-31-31-200:13906:0]         cma_ep.c:113  UCX  ERROR process_vm_readv delivered "
        "0 instead of 16000, error message Bad address"}},
      {"rendezvous.paddle-endpoints-not-ready",
       {"not ready endpoints:['10.36.10.40:6070', '10.36.10.40:6071', '10.36.10.40:6072']"}},
      {"other.vm-cannot-map-gpu-bars",
       {"time=\"2026-06-23T10:48:05.58826724Z\" level=warning msg=\"qemu-system-x86_64-tdx-experimental: "
        "IOMMU_IOAS_MAP failed: Bad address, PCI BAR?\" name=containerd-shim-v2 pid=24799 qemuPid=25060"}},
      {"version-mismatch.ucx-without-thread-support",
       {"pml_ucx.c:226 Error: UCP worker does not support MPI_THREAD_MULTIPLE"}},
      {"network-interface.resolver-host-not-found",
       {"2026-07-09 21:40:35.397501 ERROR    [12449] [coro_http_server.hpp:725] bad address: 0.0.0.0 error: Host not "
        "found (authoritative)"}},
  };
  return table;
}

TEST(DoctorJobStackMessages, EachMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(jobStackMessages(), 18));
}

// The driver's own nvidia_peermem, which replaced nv_peer_mem, prints the same clash under its own name.
TEST(DoctorJobStackMessages, TheDriversPeermemModuleClashesTheSameWay) {
  EXPECT_EQ(topRule("[  366.264584] nvidia_peermem: disagrees about version of symbol nvidia_p2p_get_pages\n"),
            "version-mismatch.peer-memory-module-symbols");
}

// The module's build stops in modpost; the same parse error of another module is not the peer-memory module's.
TEST(DoctorJobStackMessages, ASymbolFileParseErrorNamesThePeerMemoryModuleOnlyWhenItIsBuilt) {
  const std::string modpost = "FATAL: parse error in symbol dump file\n";
  EXPECT_EQ(topRule("  CC [M]  /var/lib/dkms/nvidia-peer-memory/1.0/build/nv_peer_mem.o\n" + modpost),
            "version-mismatch.peer-memory-module-build");
  EXPECT_FALSE(diagnoses("  CC [M]  /var/lib/dkms/zfs/2.1.5/build/module/zfs.o\n" + modpost,
                         "version-mismatch.peer-memory-module-build"));
}

// Out of descriptors, Open MPI's TCP transport cannot bind even an ephemeral port: that EADDRINUSE is no port clash.
TEST(DoctorJobStackMessages, AnAddressInUseBesideTooManyOpenFilesIsTheDescriptorLimit) {
  const std::string bind =
      "[cn8][[311,1],510][btl_tcp_endpoint.c:730:mca_btl_tcp_endpoint_start_connect] bind on local address "
      "(10.115.79.16:0) failed: Address already in use (98)\n";
  EXPECT_EQ(topRule(bind), "rendezvous.port-in-use");
  EXPECT_EQ(topRule(bind + "    /usr/share/openmpi/help-mpi-btl-tcp.txt: Too many open files.  Sorry!\n"),
            "resource-limits.too-many-open-files");
}

// Any script's "Unknown option:" is not Fabric Manager's; only its start script rejecting the config file is.
TEST(DoctorJobStackMessages, AnUnknownOptionIsFabricManagersOnlyForItsConfigFile) {
  EXPECT_EQ(topRule("Unknown option: /usr/share/nvidia/nvswitch/fabricmanager.cfg\n"),
            "version-mismatch.fabric-manager-driver-differ");
  EXPECT_FALSE(diagnoses("Unknown option: --fast\n", "version-mismatch.fabric-manager-driver-differ"));
}

}  // namespace
}  // namespace pf::doctor
