# SPDX-License-Identifier: Apache-2.0
# GPU runtime queries for the gpu and p2p probes: the CUDA runtime when Preflight is built with CUDA (NVML is
# dlopen()ed at run time, so it is not linked), otherwise an implementation that reports why nothing was asked.
if(PF_HAVE_CUDA)
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gpu_runtime_cuda.cpp ${CMAKE_CURRENT_LIST_DIR}/nvml_loader.cpp
                                   ${CMAKE_CURRENT_LIST_DIR}/p2p_measure.cpp)
  target_link_libraries(pf_probes PUBLIC pf_cuda_check)
else()
  target_sources(pf_probes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gpu_runtime_absent.cpp)
endif()
