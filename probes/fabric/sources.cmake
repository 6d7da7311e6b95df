# SPDX-License-Identifier: Apache-2.0
# libfabric for the efa probe's live check (fi_getinfo, provider efa); a stand-in without it.
# PF_WITH_LIBFABRIC (cmake/PfFindBackends.cmake) decides; Libfabric::fabric comes from cmake/FindLibfabric.cmake.
if(PF_HAVE_LIBFABRIC)
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/fabric_query.cpp)
  target_link_libraries(pf_probes PUBLIC Libfabric::fabric)
else()
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/fabric_query_absent.cpp)
endif()
