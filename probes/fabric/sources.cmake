# SPDX-License-Identifier: Apache-2.0
# libfabric for the efa probe's live check (fi_getinfo, provider efa); a stand-in without it.
# PF_WITH_LIBFABRIC (cmake/PfFindBackends.cmake) decides; Libfabric::fabric comes from cmake/FindLibfabric.cmake.
if(PF_HAVE_LIBFABRIC)
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/fabric_query.cpp)
  # Opened at run time (fabric_query.cpp says why): only the headers are used at build time.
  target_include_directories(pf_probes PRIVATE $<TARGET_PROPERTY:Libfabric::fabric,INTERFACE_INCLUDE_DIRECTORIES>)
else()
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/fabric_query_absent.cpp)
endif()
