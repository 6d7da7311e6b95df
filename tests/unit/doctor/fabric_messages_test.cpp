// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The twelfth sweep of programs' own messages (docs/doctor-rules.md, "A twelfth sweep"): the fabric and the node
// under a training job, read in their sources: aws-ofi-nccl, libfabric's providers, rdma-core and perftest, the Linux
// kernel's RDMA, NIC, PCIe and memory messages, Google's TCPX/TCPXO network plugins, GDRCopy, nccl-tests, nvbandwidth
// and CUDA's peer samples, Apptainer, Podman, containerd and the NVIDIA Container Toolkit, and MPICH, MVAPICH and
// mpi4py. Each line is as the program prints it (kernel lines as dmesg shows them) and must reach the rule of its
// cause; the warnings of jobs that carry on must reach none.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::topRule;

// Up to four lines per rule, each a different message.
const std::vector<test::RuleLines>& fabricMessages() {
  static const std::vector<test::RuleLines> table = {
      {"cuda.container-gpu-hook",
       {"WARNING: When using nvidia-container-cli with --contain NVIDIA_VISIBLE_DEVICES must be set or no GPUs will be "
        "available in container.",
        "invalid CDI Spec: invalid device \"0\": failed to stat CDI host device \"/dev/nvidia0\": no such file or "
        "directory",
        "Error: crun: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1): OCI runtime error",
        "ERRO[0000] failed to generate CDI spec: failed to create device CDI specs: failed to initialize NVML: "
        "ERROR_LIBRARY_NOT_FOUND"}},
      {"cuda.device-busy",
       {"Device 0 is in an unsupported compute mode for this sample",
        "Error: device is running in <Compute Mode Prohibited>, no threads can use cudaSetDevice().",
        "gpuGetMaxGflopsDeviceId() CUDA error: all devices have compute mode prohibited."}},
      {"cuda.gpu-hardware-fault",
       {"[12400.000000] nvidia 0000:3b:00.0: Unable to change power state from D3cold to D0, device inaccessible",
        "ERRO[0000] failed to generate CDI spec: failed to create device CDI specs: failed to get device handle from "
        "index: ERROR_GPU_IS_LOST"}},
      {"cuda.no-gpu",
       {"Couldn't init GPU context: -1", "gpuDeviceInit() CUDA error: no devices supporting CUDA.",
        "WARNING: Could not find any nv libraries on this host!",
        "ERRO[0000] failed to generate CDI spec: no NVIDIA device nodes found"}},
      // A verbs transport's RC queue pair refused by an EFA adapter: Mooncake (development case a26-sglang24838) and
      // Monarch's RDMA manager; rdma-core's efa provider (providers/efa/verbs.c) for a driver queue pair not SRD;
      // TensorPipe's shared receive queue (tensorpipe/common/ibv.h:172 is its create_srq check; development case
      // a25-pt65022).
      {"efa-libfabric.rc-queue-pair-on-efa",
       {"E0509 12:00:00.000000 4711 rdma_endpoint.cpp:76] Failed to create QP: Operation not supported [95]",
        "failed to create extended queue pair (QP): Operation not supported",
        "efa_0: efa_create_qp_ex:2059: Driver QP type must be SRD",
        "RuntimeError: In operator() at tensorpipe/common/ibv.h:172 \"\": Operation not supported"}},
      {"efa-libfabric.efa-internal",
       {"efa_0: efa_alloc_context:109: Kernel does not support AH udata",
        "[23456.000000] efa 0000:10:1c.0 efa_0: The device sent a completion but the driver didn't receive any MSI-X "
        "interrupt for admin cmd REG_MR(4) status 1 (ctx: 0x00000000a1b2c3d4, sq producer: 12, sq consumer: 11, cq "
        "consumer: 11)",
        "[23456.000000] efa 0000:10:1c.0 efa_0: Wait for completion (polling) timeout"}},
      {"efa-libfabric.fork-unsafe",
       {"The usage of huge page is incompatible with rdma-core's fork support.",
        "A process has executed an operation involving a call"}},
      {"efa-libfabric.gcp-net-plugin-warning",
       {"a3-node-0:48211:48390 [2] NCCL WARN Flow Steering Strategy off, unsupported",
        "a3-node-0:48211:48390 [2] NCCL WARN unix client /run/tcpx/get_gpu_fd_0000:04:00.0, gpumem fd client connect "
        "failed No such file or directory",
        "a3mega-vm-3:2291:2350 [0] NCCL WARN Failed to initialize nccl shim on device:3 (NOT_FOUND: No FasTrak index "
        "found for PCI addr 0000:86:00.0), aborting...",
        "a3mega-vm-3:2291:2350 [0] NCCL WARN Failed to initialize nccl shim on device:0 (INTERNAL: Failed to "
        "initialize DXS.), aborting..."}},
      {"efa-libfabric.libfabric-provider-warning",
       {"Internal queue pair error (local) My EFA addr: fi_addr_efa://[fe80::8f7:a1ff:fe2b:3c4d]:1:1923453721 My host "
        "id: i-0a1b2c3d4e5f60718 Peer EFA addr: fi_addr_efa://[fe80::84c:9eff:fe11:2233]:1:2847195810 Peer host id: "
        "i-0f9e8d7c6b5a49382",
        "Unknown error My EFA addr: fi_addr_efa://[fe80::8f7:a1ff:fe2b:3c4d]:1:1923453721 My host id: "
        "i-0a1b2c3d4e5f60718 Peer EFA addr: fi_addr_efa://[fe80::84c:9eff:fe11:2233]:1:2847195810 Peer host id: "
        "i-0f9e8d7c6b5a49382",
        "RX entry copy error My EFA addr: fi_addr_efa://[fe80::8f7:a1ff:fe2b:3c4d]:1:1923453721 My host id: "
        "i-0a1b2c3d4e5f60718 Peer EFA addr: fi_addr_efa://[fe80::84c:9eff:fe11:2233]:1:2847195810 Peer host id: "
        "i-0f9e8d7c6b5a49382",
        "Error posting RDMA read request My EFA addr: fi_addr_efa://[fe80::8f7:a1ff:fe2b:3c4d]:1:1923453721 My host "
        "id: i-0a1b2c3d4e5f60718 Peer EFA addr: fi_addr_efa://[fe80::84c:9eff:fe11:2233]:1:2847195810 Peer host id: "
        "i-0f9e8d7c6b5a49382"}},
      {"efa-libfabric.no-rdma-read",
       {"EFA device with vendor id efa2 unexpectedly has no RDMA support. Application will abort()."}},
      {"efa-libfabric.ofi-call-failed",
       {"MPIDI_OFI_init_local(...): OFI call getinfo failed (default nic=: No data available)",
        "MPIDI_OFI_init_local(665): No valid libfabric provider",
        "MPIDI_OFI_addr_exchange_root_ctx(...): OFI call avmap failed (default nic=eth0: Invalid argument)",
        "create_vci_domain(...): OFI call opendomain failed (default nic=mlx5_0: Cannot allocate memory)"}},
      {"efa-libfabric.ofi-invalid-setting",
       {"This value will cause EFA communication to deadlock.",
        "FI_EFA_IFACE is empty. Specify full-qualified names separated by comma, or \"all\" to use all available "
        "devices.",
        "FI_EFA_USE_DEVICE_RDMA was set to an invalid value by the user. FI_EFA_USE_DEVICE_RDMA is boolean and can be "
        "set to only 0/false/no/off or 1/true/yes/on.  Application will abort()."}},
      {"efa-libfabric.ofi-plugin-warning",
       {"ip-172-31-20-5:25341:25410 [0] ofi_process_cq_rail:1516 NCCL WARN NET/OFI Unable to read from fi_cq_readerr. "
        "RC: -11. Error: Resource temporarily unavailable",
        "ip-172-31-20-5:25341:25410 [0] sendrecv_cq_process:298 NCCL WARN NET/OFI Unable to read from fi_cq_readerr. "
        "RC: -11. Error: Resource temporarily unavailable"}},
      {"ib-verbs.async-fatal-event",
       {"Got async event local work queue catastrophic error",
        "[ 9100.000000] mlx5_core 0000:3b:00.0: wait_func:1186:(pid 4321): DESTROY_QP(0x501) timeout. Will cause a "
        "leak of a command resource",
        "[ 9100.000000] mlx5_core 0000:3b:00.0: cmd_work_handler:1010:(pid 123): failed to allocate command entry",
        "[ 9100.000000] mlx5_core 0000:3b:00.0: wait_func:1192:(pid 4321): CREATE_QP(0x500) timeout while waiting for "
        "command semaphore."}},
      {"ib-verbs.async-port-error", {"Got async event port error"}},
      {"ib-verbs.completion-error-other",
       {"Failed status local QP operation error (2) for wr_id 2",
        "Failed status remote operation error (11) for wr_id 2", "Failed status bad response error (7) for wr_id 2",
        "[23456.000000] mlx5_0/1: QP 4711 error: local length error (0x1 0x0 0x0)"}},
      {"ib-verbs.device-not-openable",
       {"libibverbs: Fatal: couldn't allocate device for /sys/class/infiniband/mlx5_0"}},
      {"ib-verbs.gdr-disabled",
       {"Assertion \"(check_gdr_support(dev)) == (true)\" failed at copybw.cpp:296",
        "GPUDirect RDMA is not supported on this GPU.", "This GPU does not support GPUDirect RDMA.",
        "Your GPU might not support GPUDirect RDMA"}},
      {"ib-verbs.gdrcopy-failed",
       {"ERR:  Error: gdrcopy requires gdrdrv or CUDA driver with dmabuf mmap support (at least one is required)",
        "ERR:  error Invalid argument(22) while mapping handle 1, rounded_size=65536 offset=10000",
        "gdrdrv:__gdrdrv_pin_buffer:No address space left for BAR1 mapping.",
        "gdrdrv:gdrdrv_mmap:error -22 in gdrdrv_remap_gpu_mem"}},
      {"ib-verbs.gid-lookup-failed",
       {"can't read sgid of index 3", "Failed to query gid to port 1, index 3",
        "Please Try to use a different IP version.",
        "[   15.000000] infiniband mlx5_0: add_roce_gid GID add failed port=1 index=3"}},
      {"ib-verbs.nic-firmware-fatal",
       {"[ 8123.456789] mlx5_core 0000:3b:00.0: poll_health:785:(pid 0): Fatal error 1 detected",
        "[ 8123.456799] mlx5_core 0000:3b:00.0: print_health_info:446:(pid 0): synd 0xb: HW fatal error",
        "[ 8124.000000] mlx5_core 0000:3b:00.0: mlx5_handle_bad_state:301:(pid 1234): NIC SW reset in progress",
        "[ 9300.000000] mlx5_core 0000:3b:00.0: mlx5_reclaim_root_pages:727:(pid 1): FW did not return all pages. "
        "giving up..."}},
      {"ib-verbs.no-rdma-device",
       {"Failed to get IB devices list: Function not implemented", "No RDMA devices were detected",
        "If device exists, check if driver is up",
        "rdma_iba_hca_init_noqp(1365): No active HCAs found on the system!!! 0"}},
      {"ib-verbs.rdma-cm-failed",
       {"cma event RDMA_CM_EVENT_ROUTE_ERROR, error -110", "cma event RDMA_CM_EVENT_DEVICE_REMOVAL, error 0",
        "cmatose: resolve route failed: Connection timed out",
        "[23456.000000] infiniband mlx5_0: ib_cm: Couldn't retrieve pkey for incoming request (port 1, pkey index 0). "
        "-22"}},
      {"ib-verbs.rdma-test-failed",
       {"Couldn't connect to remote QP", "ibpanic: [12345] main: can't init UMAD library: No such file or directory",
        "ibpanic: [12345] mad_rpc_open_port: can't init UMAD library: No such file or directory",
        "Requested QP size might be too big. Try reducing TX depth and/or inline size."}},
      {"network-interface.unreachable-or-refused",
       {"libfabric:48213:1718000000::tcp:ep_ctrl:xnet_get_conn():374<warn> warn: peer 10.0.0.12:45123 is behind "
        "firewall",
        "MPID_nem_tcp_connpoll(...): Unable to establish connection to rank 5"}},
      {"network-interface.hydra-proxy-cannot-connect",
       {"[proxy:0:1@node02] HYDU_sock_connect (lib/utils/sock.c:145): unable to connect from \"node02\" to \"node01\" "
        "(Connection refused)",
        "[proxy:0:1@node02] main (proxy/pmip.c:103): unable to connect to server node01 at port 36917 (check for "
        "firewalls!)"}},
      {"other.mismatched-collective",
       {"MPIR_Bcast_intra_binomial(104): message sizes do not match across processes in the collective routine: "
        "Received 4096 but expected 8192"}},
      {"other.pcie-fatal-error",
       {"[12345.678901] pcieport 0000:00:03.1: AER: PCIe Bus Error: severity=Uncorrectable (Fatal), type=Transaction "
        "Layer, (Receiver ID)",
        "[12345.678901] pcieport 0000:00:03.1: AER: PCIe Bus Error: severity=Uncorrectable (Fatal), type=Inaccessible, "
        "(Unregistered Agent ID)",
        "[12345.700000] pcieport 0000:00:03.1: DPC: containment event, status:0x1f01: unmasked uncorrectable error "
        "detected",
        "[12400.000000] pci 0000:3b:00.0: not ready 65535ms after FLR; giving up"}},
      {"p2p.acs-enabled", {"[12345.678903] pcieport 0000:00:03.1: AER:    [21] ACSViol                (First)"}},
      {"p2p.ipc-handle", {"No CUDA devices support IPC"}},
      {"p2p.peer-access-unsupported",
       {"DeviceImplementation > 1 requires CUDA P2P connectivity across all ranks. Not all ranks of this communicator "
        "have P2P connectivity.",
        "DeviceImplementation 1 and 2 requires CUDA P2P connectivity across all ranks. Not all ranks of this "
        "communicator have P2P connectivity.",
        "Two or more GPUs with Peer-to-Peer access capability are required for ./simpleP2P.",
        "Peer to Peer access is not available amongst GPUs in the system, waiving test."}},
      {"rendezvous.launcher-daemons",
       {"[mpiexec@node01] HYD_pmci_wait_for_completion (mpiexec/pmiserv_pmci.c:51): Launch proxy failed.",
        "[mpiexec@node01] HYD_pmci_launch_procs (mpiexec/pmiserv_pmci.c:121): launcher cannot launch processes",
        "[mpiexec@node01] main (mpiexec/mpiexec.c:266): process manager returned error launching processes",
        "[node01:mpirun_rsh][child_handler] Error in init phase, aborting! (1/2 mpispawn connections)"}},
      {"rendezvous.mpi-init-failed",
       {"Abort(1091471) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Other MPI error, error stack:",
        "MPID_Init(...): channel initialization failed", "RuntimeError: MPI_Init_thread() failed [error code: 15]",
        "RuntimeError: MPI_Init() failed [error code: 15]"}},
      {"rendezvous.mpi-pmi",
       {"MPIR_pmi_init(...): PMI_Init returned -1",
        "MPIR_pmi_init(134): Auto-detection of PMI version failed. Found both env vars PMI_SIZE and PMIX_NAMESPACE. "
        "There is likely something wrong with the runtime environment! Aborting.",
        "MPIR_pmi_init(...): PMI2 init with process manager failed: PMI2_Init",
        "MPIR_pmi_init(...): PMIX_Init returned -46"}},
      {"resource-limits.cgroup-oom-kill",
       {"[34567.234410] Memory cgroup stats for /slurm/uid_1000/job_123456:",
        "[34567.234420] Tasks in /kubepods/pod1234 are going to be killed due to memory.oom.group set"}},
      {"resource-limits.host-memory",
       {"[34567.234567] Out of memory and no killable processes...",
        "[34567.234567] Kernel panic - not syncing: Out of memory: system-wide panic_on_oom is enabled",
        "[34567.345678] oom_reaper: reaped process 123456 (python), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB"}},
      {"resource-limits.memlock-reg-mr",
       {"MPIDI_OFI_register_memory(...): OFI call mr_reg failed (default nic=mlx5_0: Cannot allocate memory)",
        "[vbuf.c 380] Cannot register vbuf region"}},
      {"resource-limits.thread-create",
       {"[12345.000000] cgroup: fork rejected by pids controller in /kubepods/burstable/pod1234"}},
      {"resource-limits.too-many-open-files", {"[12345.000000] VFS: file-max limit 9223372036854775807 reached"}},
      {"resource-limits.user-namespaces",
       {"FATAL:   Failed to create user namespace: user namespace requires to set "
        "/proc/sys/kernel/unprivileged_userns_clone to 1",
        "FATAL:   Failed to create user namespace: user namespace not supported by your system",
        "FATAL:   'newuidmap' execution failed. Check that 'newuidmap' is setuid root or has setcap cap_setuid+eip.",
        "FATAL:   --fakeroot requires either being in /etc/subuid, unprivileged user namespaces, or the fakeroot "
        "command"}},
      {"shm.cma-denied", {"MPIDI_CMA_copy(...): process_vm_readv failed (errno 1)"}},
      {"shm.container-shm-setup",
       {"FATAL:   container creation failed: failed to add /dev/shm session directory: permission denied",
        "Error: cannot set shmsize when running in the host IPC Namespace",
        "Error: failed to mount shm tmpfs \"/var/lib/containers/storage/overlay-containers/abc/userdata/shm\": invalid "
        "argument",
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup sandbox files: failed to "
        "create sandbox shm: mkdir /run/containerd/io.containerd.grpc.v1.cri/sandboxes/abc/shm: no space left on "
        "device"}},
      {"shm.dev-shm-full",
       {"libfabric:48213:1718000000::efa:av:efa_conn_rdm_insert_shm_av():147<warn> Failed to insert address to shm "
        "provider's av: No space left on device",
        "libfabric:48213:1718000000::shm:core:smr_shm_space_check():119<warn> Not enough available space in "
        "/dev/shm."}},
      {"shm.segment-create-failed",
       {"Failed to create shared memory slab", "MPIDU_Init_shm_init(179): unable to allocate shared memory",
        "MPIDU_Init_shm_init(197): unable to attach to shared memory"}},
      {"version-mismatch.driver-too-old", {"requirements not met: unsatisfied condition: cuda>=12.4 (cuda=12.2)"}},
      {"version-mismatch.gdrcopy-versions",
       {"ip-172-31-20-5:25341:25410 [0] nccl_ofi_gin_init:67 NCCL WARN NET/OFI GIN requires GDRCopy 2.5+ for forced "
        "PCIe copy support",
        "ERR:  gdrdrv driver requires libgdrapi version 2.5 or above but the current libgdrapi version is 2.4",
        "ERR:  gdr_cuda_load_function: 'cuMemGetHandleForAddressRange' not supported on this platform or for the "
        "requested driver version",
        "ERR:  gdrdrv cannot fulfill the requested mapping type. It might be too old."}},
      {"version-mismatch.nccl-header-library-differ",
       {"Incompatible NCCL versions. nccl-tests was compiled with NCCL 22903, but is running with NCCL 22805. The "
        "22903 Device API is not compatible with versions before 2.29.",
        "Incompatible NCCL versions. nccl-tests was compiled with NCCL 2.28, but is running with NCCL 22903. The 2.28 "
        "Device API is not compatible with later.",
        "NCCL 2.7 or later is needed for alltoall. This test was compiled with 2.6.",
        "NCCL 2.7 or later is needed for gather. This test was compiled with 2.6."}},
      {"version-mismatch.net-plugin-incompatible",
       {"a3-node-0:48211:48390 [2] NCCL WARN compiled with unmatching unpack versions: dev 2, tcpx 1",
        "a3mega-vm-3:2291:2350 [0] NCCL WARN VERSION MISMATCH: Received Connect request with ncclSocketHandle version "
        "3, but this plugin is version 4"}},
      {"version-mismatch.ofed-kernel-userspace",
       {"libibverbs: Warning: Driver mlx5 does not support the kernel ABI of 2 (supports 1 to 1) for device "
        "/sys/class/infiniband/mlx5_0",
        "libibverbs: Fatal: kernel ABI version 5 doesn't match library version 6."}},
      {"version-mismatch.ofi-libfabric-too-old",
       {"configure: error: On AWS platforms, Libfabric 1.22.0 or later is required"}},
  };
  return table;
}

TEST(DoctorFabricMessages, EachFabricAndNodeMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(fabricMessages(), 142));
}

// errno 11 is EAGAIN: a libfabric queue or endpoint, or a non-blocking socket, saying "try again" is not the thread
// limit. A thread or process that could not be created still is.
TEST(DoctorFabricMessages, ResourceTemporarilyUnavailableIsTheThreadLimitOnlyForThreadsAndForks) {
  for (const char* line :
       {"ip-172-31-20-5:25341:25410 [0] ofi_process_cq_rail:1516 NCCL WARN NET/OFI Unable to read from "
        "fi_cq_readerr. RC: -11. Error: Resource temporarily unavailable",
        "create_vci_context(...): OFI call ep failed (default nic=efa0: Resource temporarily unavailable)",
        "libfabric:48213:1718000000::tcp:cq:xnet_report_success():185<warn> cq write failed (Resource temporarily "
        "unavailable)"})
    EXPECT_FALSE(test::diagnoses(std::string(line) + "\n", "resource-limits.thread-create")) << line;
  EXPECT_EQ(topRule("RuntimeError: can't start new thread\n"), "resource-limits.thread-create");
  EXPECT_EQ(topRule("pthread_create failed: Resource temporarily unavailable\n"), "resource-limits.thread-create");
}

// Warnings libfabric (FI_LOG_LEVEL=warn) and GDRCopy print on jobs that go on: a fallback taken, a resource clamped.
TEST(DoctorFabricMessages, FallbacksOfHealthyJobsAreNoFailure) {
  for (const char* line : {
           "libfabric:48213:1718000000::shm:ep_ctrl:smr_do_ipc():590<warn> unable to use IPC for msg, fallback to "
           "using SAR",
           "libfabric:48213:1718000000::core:core:cuda_hmem_init():955<warn> gdrcopy initialization failed! gdrcopy "
           "will not be used.",
           "libfabric:48213:1718000000::verbs:cq:vrb_cq_open():572<warn> CQ size 65536 exceeds device max_cqe 4194303, "
           "clamping",
           "libfabric:48213:1718000000::efa:core:efa_shm_info_create():134<warn> Disabling EFA shared memory support; "
           "failed to get shm provider's info: No data available",
           "Flushed during queue pair destroy My EFA addr: fi_addr_efa://[fe80::8f7:a1ff:fe2b:3c4d]:1:1923453721 My "
           "host id: i-0a1b2c3d4e5f60718 Peer EFA addr: fi_addr_efa://[fe80::8f7:a1ff:fe2b:3c4e]:1:28871",
           "INFO: gdrdrv is not installed or loaded; detecting if CUDA driver supports dmabuf mmap.",
       }) {
    const std::string top = topRule(std::string(line) + "\n");
    EXPECT_TRUE(top == "(none)" || top.ends_with(".weak-evidence") || top.ends_with(".similar-reports"))
        << line << " -> " << top;
  }
}

// Kernels since 4.x say "Uncorrectable (Fatal)" where older ones said "Uncorrected (Fatal)": both are the fatal error.
TEST(DoctorFabricMessages, BothKernelWordingsOfAFatalPcieErrorAreRead) {
  EXPECT_EQ(topRule("[12345.678901] pcieport 0000:00:03.1: AER: PCIe Bus Error: severity=Uncorrected (Fatal), "
                    "type=Transaction Layer, (Receiver ID)\n"),
            "other.pcie-fatal-error");
  EXPECT_EQ(topRule("[12345.678901] pcieport 0000:00:03.1: AER: PCIe Bus Error: severity=Uncorrectable (Fatal), "
                    "type=Transaction Layer, (Receiver ID)\n"),
            "other.pcie-fatal-error");
}

// perftest's and the pingpong examples' failed QP transitions are read by the rule NCCL's already reached: one line,
// one cause.
TEST(DoctorFabricMessages, AnRdmaTestsFailedTransitionIsReadByOneRule) {
  for (const char* line :
       {"Failed to modify QP to RTR", "Failed to modify QP to RTS", " Unable to Connect the HCA's through the link"}) {
    const std::string log = std::string(line) + "\n";
    EXPECT_EQ(topRule(log), "ib-verbs.modify-qp-gid") << line;
    EXPECT_FALSE(test::diagnoses(log, "ib-verbs.rdma-test-failed")) << line;
  }
}

}  // namespace
}  // namespace pf::doctor
