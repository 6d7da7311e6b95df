# SPDX-License-Identifier: Apache-2.0
# libibverbs for the ib probe's live cross-check (ibv_query_port beside sysfs); a stand-in without it.
# PF_WITH_VERBS (cmake/PfFindBackends.cmake) decides; IBVerbs::ibverbs and IBVerbs::efa come from
# cmake/FindIBVerbs.cmake.
if(PF_HAVE_VERBS)
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/verbs_query.cpp)
  target_include_directories(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(pf_probes PUBLIC IBVerbs::ibverbs)
  # libefa (rdma-core's EFA provider library) answers whether an EFA device has RDMA read.
  if(IBVerbs_EFA_FOUND)
    target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/efa_caps.cpp)
    target_link_libraries(pf_probes PUBLIC IBVerbs::efa)
  else()
    target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/efa_caps_absent.cpp)
  endif()
else()
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/verbs_query_absent.cpp)
endif()
