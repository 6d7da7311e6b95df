# SPDX-License-Identifier: Apache-2.0
# libibverbs for the ib probe's live cross-check (ibv_query_port beside sysfs); a stand-in without it.
find_path(PF_VERBS_INC infiniband/verbs.h)
find_library(PF_VERBS_LIB ibverbs)
if(PF_VERBS_INC AND PF_VERBS_LIB)
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/verbs_query.cpp)
  target_include_directories(pf_probes PRIVATE ${PF_VERBS_INC})
  target_link_libraries(pf_probes PUBLIC ${PF_VERBS_LIB})
  message(STATUS "probes: libibverbs found, the ib probe compares ibv_query_port with sysfs")
else()
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/verbs_query_absent.cpp)
  message(STATUS "probes: libibverbs not found (apt-get install libibverbs-dev); the ib probe reads sysfs only")
endif()
