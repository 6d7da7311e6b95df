# SPDX-License-Identifier: Apache-2.0
# FindOpenBLAS: OpenBLAS with its CBLAS interface as the imported target OpenBLAS::OpenBLAS. OpenBLAS by
# name, never "the system BLAS": Debian's default libblas is the slow reference implementation.
# pkg-config's `openblas` module gives the hints; otherwise Debian's openblas-pthread alternative directories
# and OPENBLAS_ROOT (Debian: libopenblas-dev).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_OPENBLAS QUIET openblas)
endif()
find_path(OPENBLAS_INCLUDE_DIR cblas.h
  HINTS ${OPENBLAS_ROOT} $ENV{OPENBLAS_ROOT} ${PC_OPENBLAS_INCLUDE_DIRS}
  PATHS /usr/include/x86_64-linux-gnu/openblas-pthread /usr/include/openblas
  PATH_SUFFIXES include include/openblas)
find_library(OPENBLAS_LIBRARY openblas
  HINTS ${OPENBLAS_ROOT} $ENV{OPENBLAS_ROOT} ${PC_OPENBLAS_LIBRARY_DIRS}
  PATHS /usr/lib/x86_64-linux-gnu/openblas-pthread
  PATH_SUFFIXES lib lib64)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OpenBLAS DEFAULT_MSG OPENBLAS_LIBRARY OPENBLAS_INCLUDE_DIR)
if(OpenBLAS_FOUND AND NOT TARGET OpenBLAS::OpenBLAS)
  add_library(OpenBLAS::OpenBLAS UNKNOWN IMPORTED)
  set_target_properties(OpenBLAS::OpenBLAS PROPERTIES
    IMPORTED_LOCATION "${OPENBLAS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${OPENBLAS_INCLUDE_DIR}")
endif()
mark_as_advanced(OPENBLAS_INCLUDE_DIR OPENBLAS_LIBRARY)
