# SPDX-License-Identifier: Apache-2.0
# Finds the optional backends. Each ends in PF_HAVE_<X>; sources that need <X> are added only when it is ON.

# --- MPI -----------------------------------------------------------------------------------------------------
if(NOT PF_WITH_MPI STREQUAL "OFF")
  find_package(MPI QUIET COMPONENTS C)
endif()
pf_resolve(MPI MPI_C_FOUND "Install Open MPI: apt-get install openmpi-bin libopenmpi-dev.")
if(PF_HAVE_MPI)
  find_program(PF_MPIEXEC NAMES mpirun mpiexec REQUIRED)
endif()

# --- CUDA ----------------------------------------------------------------------------------------------------
# check_language() instead of project(LANGUAGES CUDA): a machine without nvcc must still configure.
if(NOT PF_WITH_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # 90 = Hopper (H100/H200); 80 = Ampere (A100). `native` fails on a machine without a GPU.
    # Cached, so that ci/gpu_validate.sh can tell from CMakeCache.txt that a build runs on Hopper.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "80;90" CACHE STRING "GPU architectures the CUDA code is built for")
    endif()
    # One runtime only: without this both the static and the shared cudart end up linked.
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
    enable_language(CUDA)
    # Debian 12's CMake 3.25.1 marks CUDA::nvToolsExt deprecated without checking that the target exists, and CUDA
    # 13 ships no libnvToolsExt (only the header-only nvtx3), so find_package stops the configure with "could not
    # find TARGET CUDA::nvToolsExt" (found by timing the README's first command in a fresh Debian 12 root). It does
    # so only for projects whose minimum CMake is 3.25 or newer: the module is asked under a lower minimum.
    set(pf_cmake_minimum ${CMAKE_MINIMUM_REQUIRED_VERSION})
    set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
    find_package(CUDAToolkit QUIET)
    set(CMAKE_MINIMUM_REQUIRED_VERSION ${pf_cmake_minimum})
  endif()
endif()
pf_resolve(CUDA CUDAToolkit_FOUND "Install the CUDA toolkit under /usr/local/cuda or set CMAKE_CUDA_COMPILER.")

# --- NCCL ----------------------------------------------------------------------------------------------------
if(PF_HAVE_CUDA AND NOT PF_WITH_NCCL STREQUAL "OFF")
  find_package(NCCL QUIET)
endif()
pf_resolve(NCCL NCCL_FOUND "Install NCCL (libnccl-dev) or set NCCL_ROOT; NCCL needs CUDA.")
# CUDA and NCCL together make the GPU module, preflight-gpu.so (gpu/CMakeLists.txt); `preflight` links neither.
set(PF_HAVE_GPU_MODULE OFF)
if(PF_HAVE_CUDA AND PF_HAVE_NCCL)
  set(PF_HAVE_GPU_MODULE ON)
endif()

# --- libibverbs (ib probe's ibv_query_port cross-check; libefa for the efa probe's RDMA-read answer) ----------
if(NOT PF_WITH_VERBS STREQUAL "OFF")
  find_package(IBVerbs QUIET)
endif()
pf_resolve(VERBS IBVerbs_FOUND "Install rdma-core's headers: apt-get install libibverbs-dev, or set IBVERBS_ROOT.")

# --- libfabric (efa probe's fi_getinfo) ----------------------------------------------------------------------
if(NOT PF_WITH_LIBFABRIC STREQUAL "OFF")
  find_package(Libfabric QUIET)
endif()
pf_resolve(LIBFABRIC Libfabric_FOUND "Install libfabric: apt-get install libfabric-dev, or set LIBFABRIC_ROOT.")

# --- OpenBLAS (the CPU trainer behind `preflight scale`) -----------------------------------------------------
if(NOT PF_WITH_OPENBLAS STREQUAL "OFF")
  find_package(OpenBLAS QUIET)
endif()
pf_resolve(OPENBLAS OpenBLAS_FOUND "Install OpenBLAS: apt-get install libopenblas-dev, or set OPENBLAS_ROOT.")
if(PF_WITH_OPENBLAS STREQUAL "OFF")
  pf_not_built("preflight scale" "PF_WITH_OPENBLAS=OFF")
elseif(NOT PF_HAVE_OPENBLAS)
  pf_not_built("preflight scale" "OpenBLAS not found: apt-get install libopenblas-dev")
endif()

# --- Qt 6 Widgets + Charts (preflight-viewer) ----------------------------------------------------------------
# Svg (chart export as SVG) and Test (the viewer's tests) are optional: without them the viewer exports PNG only
# and its tests are left out, but it still builds.
if(NOT PF_WITH_QT STREQUAL "OFF")
  find_package(Qt6 QUIET COMPONENTS Widgets Charts OPTIONAL_COMPONENTS Svg Test)
endif()
set(PF_QT_FOUND FALSE)
if(Qt6Widgets_FOUND AND Qt6Charts_FOUND)
  set(PF_QT_FOUND TRUE)
endif()
pf_resolve(QT PF_QT_FOUND "Install Qt 6: apt-get install qt6-base-dev qt6-charts-dev qt6-svg-dev.")
if(PF_WITH_QT STREQUAL "OFF")
  pf_not_built("preflight-viewer" "PF_WITH_QT=OFF")
elseif(NOT PF_HAVE_QT)
  pf_not_built("preflight-viewer" "Qt 6 Widgets/Charts not found: apt-get install qt6-base-dev qt6-charts-dev")
endif()

# --- SQLite (the check history: `check --history FILE`, `preflight history FILE`) ------------------------------
if(NOT PF_WITH_SQLITE STREQUAL "OFF")
  find_package(SQLite3 QUIET)
endif()
pf_resolve(SQLITE SQLite3_FOUND "Install SQLite: apt-get install libsqlite3-dev.")
