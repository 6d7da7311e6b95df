// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The names of the facts the doctor derives from a whole log (docs/doctor-rules.md, "Facts"). The extractors
// that set a fact (and the flag of the same name beside it) and the loader that checks a rule's `{"fact": ...}`
// take the name from here, so a rule that names a fact nobody sets (a typo in a user's rules file) fails when the
// rules load instead of never matching.
#pragma once

#include <string_view>

namespace pf::doctor::fact {

inline constexpr char kNcclVersionsDiffer[] = "nccl_versions_differ";
inline constexpr char kVirtualInterfaceSelected[] = "virtual_interface_selected";
inline constexpr char kSocketFallbackWithRdma[] = "socket_fallback_with_rdma";
inline constexpr char kRdmaDeviceUnusable[] = "rdma_device_unusable";
inline constexpr char kGdrDisabled[] = "gdr_disabled";
inline constexpr char kNcclTestsStalled[] = "nccl_tests_stalled";
inline constexpr char kNcclTestsSeparateWorlds[] = "nccl_tests_separate_worlds";
inline constexpr char kNcclTestsWrongResults[] = "nccl_tests_wrong_results";
inline constexpr char kP2pSlowerThanHostCopies[] = "p2p_slower_than_host_copies";
inline constexpr char kP2pTestStalled[] = "p2p_test_stalled";
inline constexpr char kCollectiveArgsDiffer[] = "collective_args_differ";
inline constexpr char kSingleNodeP2p[] = "single_node_p2p";
inline constexpr char kIbLinkLayer[] = "ib_link_layer";
inline constexpr char kNetworkTransportSeen[] = "network_transport_seen";
inline constexpr char kIbNoDevice[] = "ib_no_device";

/// Every fact above; `nccl_in FROM BELOW` ranges (nccl_versions.hpp) are the only other names a rule may use.
/// (Sized by its initialisers: with a written size, one too many would add an empty name.)
inline constexpr std::string_view kAll[] = {kNcclVersionsDiffer,
                                            kVirtualInterfaceSelected,
                                            kSocketFallbackWithRdma,
                                            kRdmaDeviceUnusable,
                                            kGdrDisabled,
                                            kNcclTestsStalled,
                                            kNcclTestsSeparateWorlds,
                                            kNcclTestsWrongResults,
                                            kP2pSlowerThanHostCopies,
                                            kP2pTestStalled,
                                            kCollectiveArgsDiffer,
                                            kSingleNodeP2p,
                                            kIbLinkLayer,
                                            kNetworkTransportSeen,
                                            kIbNoDevice};

inline bool known(std::string_view name) {
  for (std::string_view f : kAll)
    if (f == name) return true;
  return false;
}

}  // namespace pf::doctor::fact
