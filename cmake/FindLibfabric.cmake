# SPDX-License-Identifier: Apache-2.0
# FindLibfabric: wrap libfabric (OFI) in an imported target Libfabric::fabric. pkg-config's `libfabric`
# module, when there is one, gives the hints; LIBFABRIC_ROOT and the usual system paths otherwise
# (Debian: libfabric-dev).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_LIBFABRIC QUIET libfabric)
endif()
find_path(LIBFABRIC_INCLUDE_DIR rdma/fabric.h
  HINTS ${LIBFABRIC_ROOT} $ENV{LIBFABRIC_ROOT} ${PC_LIBFABRIC_INCLUDE_DIRS} PATH_SUFFIXES include)
find_library(LIBFABRIC_LIBRARY fabric
  HINTS ${LIBFABRIC_ROOT} $ENV{LIBFABRIC_ROOT} ${PC_LIBFABRIC_LIBRARY_DIRS} PATH_SUFFIXES lib lib64)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Libfabric DEFAULT_MSG LIBFABRIC_LIBRARY LIBFABRIC_INCLUDE_DIR)
if(Libfabric_FOUND AND NOT TARGET Libfabric::fabric)
  add_library(Libfabric::fabric UNKNOWN IMPORTED)
  set_target_properties(Libfabric::fabric PROPERTIES
    IMPORTED_LOCATION "${LIBFABRIC_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBFABRIC_INCLUDE_DIR}")
endif()
mark_as_advanced(LIBFABRIC_INCLUDE_DIR LIBFABRIC_LIBRARY)
