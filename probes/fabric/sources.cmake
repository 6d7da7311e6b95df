# SPDX-License-Identifier: Apache-2.0
# libfabric for the efa probe's live check (fi_getinfo, provider efa); a stand-in without it.
find_path(PF_FABRIC_INC rdma/fabric.h)
find_library(PF_FABRIC_LIB fabric)
if(PF_FABRIC_INC AND PF_FABRIC_LIB)
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/fabric_query.cpp)
  target_include_directories(pf_probes PRIVATE ${PF_FABRIC_INC})
  target_link_libraries(pf_probes PUBLIC ${PF_FABRIC_LIB})
  message(STATUS "probes: libfabric found, the efa probe asks fi_getinfo")
else()
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/fabric_query_absent.cpp)
  message(STATUS "probes: libfabric not found (apt-get install libfabric-dev); the efa probe reads sysfs only")
endif()
