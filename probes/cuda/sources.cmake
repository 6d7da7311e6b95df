# SPDX-License-Identifier: Apache-2.0
# GPU runtime queries for the gpu and p2p probes. With CUDA and NCCL, the CUDA side (NVML dlopen()ed, not linked)
# goes into the GPU module (gpu/CMakeLists.txt) and pf_probes holds the proxy that opens it; otherwise an
# implementation that reports why nothing was asked.
if(PF_HAVE_GPU_MODULE)
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gpu_runtime_proxy.cpp)
  add_library(pf_probes_cuda OBJECT ${CMAKE_CURRENT_LIST_DIR}/gpu_runtime_cuda.cpp ${CMAKE_CURRENT_LIST_DIR}/nvml_loader.cpp
                                    ${CMAKE_CURRENT_LIST_DIR}/nvml_health.cpp
                                    ${CMAKE_CURRENT_LIST_DIR}/p2p_measure.cpp)
  target_link_libraries(pf_probes_cuda PUBLIC pf_probes pf_cuda_check)
else()
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gpu_runtime_absent.cpp)
endif()
