# SPDX-License-Identifier: Apache-2.0
# FindIBVerbs: rdma-core's libibverbs ships no CMake config, so wrap it in an imported target IBVerbs::ibverbs
# (model: mscclpp's cmake/FindIBVerbs.cmake). Where rdma-core's EFA provider library libefa and its header
# infiniband/efadv.h are present too, IBVerbs::efa wraps it and IBVerbs_EFA_FOUND is set.
# Looks in IBVERBS_ROOT and the usual system paths (Debian: libibverbs-dev).
find_path(IBVERBS_INCLUDE_DIR infiniband/verbs.h HINTS ${IBVERBS_ROOT} $ENV{IBVERBS_ROOT} PATH_SUFFIXES include)
find_library(IBVERBS_LIBRARY ibverbs HINTS ${IBVERBS_ROOT} $ENV{IBVERBS_ROOT} PATH_SUFFIXES lib lib64)
find_library(IBVERBS_EFA_LIBRARY efa HINTS ${IBVERBS_ROOT} $ENV{IBVERBS_ROOT} PATH_SUFFIXES lib lib64)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(IBVerbs DEFAULT_MSG IBVERBS_LIBRARY IBVERBS_INCLUDE_DIR)
if(IBVerbs_FOUND AND NOT TARGET IBVerbs::ibverbs)
  add_library(IBVerbs::ibverbs UNKNOWN IMPORTED)
  set_target_properties(IBVerbs::ibverbs PROPERTIES
    IMPORTED_LOCATION "${IBVERBS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${IBVERBS_INCLUDE_DIR}")
endif()
set(IBVerbs_EFA_FOUND OFF)
if(IBVerbs_FOUND AND IBVERBS_EFA_LIBRARY AND EXISTS ${IBVERBS_INCLUDE_DIR}/infiniband/efadv.h)
  set(IBVerbs_EFA_FOUND ON)
  if(NOT TARGET IBVerbs::efa)
    add_library(IBVerbs::efa UNKNOWN IMPORTED)
    set_target_properties(IBVerbs::efa PROPERTIES
      IMPORTED_LOCATION "${IBVERBS_EFA_LIBRARY}"
      INTERFACE_LINK_LIBRARIES IBVerbs::ibverbs)
  endif()
endif()
mark_as_advanced(IBVERBS_INCLUDE_DIR IBVERBS_LIBRARY IBVERBS_EFA_LIBRARY)
