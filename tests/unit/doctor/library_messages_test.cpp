// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The thirteenth sweep of programs' own messages (docs/doctor-rules.md, "A thirteenth sweep"): the libraries beside
// the distributed stack that ship compiled CUDA parts, read in their sources: PyTorch's extension builder, CUDA
// initialisation and shared-memory manager, Triton and Inductor, xFormers, FlashAttention, Transformer Engine, Apex,
// bitsandbytes, torchvision and torchaudio. Each line is as the program prints it and must reach the rule of its
// cause.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::topRule;

// Up to three lines per rule, each a different message.
const std::vector<test::RuleLines>& libraryMessages() {
  static const std::vector<test::RuleLines> table = {
      {"cuda.illegal-address",
       {"torch.AcceleratorError: CUDA error: an illegal instruction was encountered",
        "torch.AcceleratorError: CUDA error: misaligned address",
        "RuntimeError: Triton Error [CUDA]: an illegal instruction was encountered"}},
      {"cuda.initialization-error",
       {"torch.AcceleratorError: CUDA error: MPS client failed to connect to the MPS control daemon or the MPS server",
        "RuntimeError: Triton Error [CUDA]: initialization error"}},
      {"cuda.invalid-device-ordinal",
       {"RuntimeError: device 2 is not visible (HIP_VISIBLE_DEVICES=[0, 1])",
        "GPU device may be out of range, do you have enough GPUs?"}},
      {"cuda.no-gpu",
       {"RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If "
        "you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map "
        "your storages to the CPU."}},
      {"cuda.out-of-memory",
       {"torch.OutOfMemoryError: expandable_segments: memory mapping failed with OOM on device 0",
        "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)",
        "RuntimeError: Triton Error [CUDA]: out of memory"}},
      {"p2p.ipc-handle",
       {"RuntimeError: Tensors allocated with expandable_segments:True cannot be shared between processes. Consider "
        "using expandable_segments:False in data loading workers via "
        "torch.cuda.memory._set_allocator_settings('expandable_segments:False')",
        "RuntimeError: Cannot share an expandable_segments allocation: IPC handles are disabled. Set "
        "TORCH_CUDA_EXPANDABLE_SEGMENTS_IPC=1 or disable expandable_segments for cross-process tensors.",
        "RuntimeError: expandable_segments: FABRIC handle type configured but device 0 does not support fabric access. "
        "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments_handle_type:posix_fd or disable expandable_segments."}},
      {"p2p.peer-access-unsupported",
       {"RuntimeError: "
        "/workspace/TransformerEngine/transformer_engine/common/comm_gemm_overlap/userbuffers/userbuffers-host.cpp:707 "
        "in function register_user_buffer_collective: No peer-to-peer access available between GPUs. This platform "
        "does not support the GPU-to-GPU communication required for multi-GPU userbuffers. Consider using single-GPU "
        "mode."}},
      {"shm.segment-create-failed",
       {"RuntimeError: Unable to find torch_shm_manager at "
        "/usr/local/lib/python3.11/site-packages/torch/bin/torch_shm_manager",
        "RuntimeError: no response from torch_shm_manager at "
        "\"/usr/local/lib/python3.11/site-packages/torch/bin/torch_shm_manager\""}},
      {"version-mismatch.cuda-build-mismatch",
       {"RuntimeError: Installed triton version too old, please upgrade",
        "AssertionError: Transformer Engine package version mismatch. Found transformer_engine_torch v2.8.0, "
        "transformer-engine v2.9.0, and transformer-engine-cu12 v2.9.0. Install transformer-engine using 'pip3 install "
        "--no-build-isolation transformer-engine[pytorch]==VERSION'",
        "Please reinstall the torchvision that matches your PyTorch install."}},
      {"version-mismatch.cuda-too-old-for-library",
       {"RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: 9.2",
        "AssertionError: Cuda version 12.1 or higher required for FP8 execution on Ada.",
        "RuntimeError: /workspace/TransformerEngine/transformer_engine/common/gemm/cublaslt_gemm.cu:715 in function "
        "cublas_gemm: Assertion failed: transformer_engine::cuda::cublas_version() >= 120205 && "
        "transformer_engine::cuda::cublas_version() < 130000. Atomic GEMM requires cuBLAS >=12.2.5 and <13.0.0, but "
        "run-time cuBLAS version is 130100"}},
      {"version-mismatch.extension-build-failed",
       {"!! WARNING !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!Your compiler "
        "(g++ 4.8.5) may be ABI-incompatible with PyTorch!Please use a compiler that is ABI-compatible with GCC 5.0 "
        "and above.",
        "WARNING[XFORMERS]: Need to compile C++ extensions to use all xFormers features.",
        "FileNotFoundError: Could not find NVCC at /usr/local/cuda/bin/nvcc"}},
      {"version-mismatch.gpu-arch-not-built",
       {"/usr/local/lib/python3.11/site-packages/torch/cuda/__init__.py:497: UserWarning: Found GPU0 NVIDIA B200 which "
        "is of compute capability (CC) 10.0.",
        "RuntimeError: cuDNN error: CUDNN_STATUS_ARCH_MISMATCH", "RuntimeError: cutlassF: no kernel found to launch!"}},
      {"version-mismatch.gpu-too-old-for-kernel",
       {"ValueError: num_ctas > 1 requires NVIDIA SM90+ (Hopper). Current target is sm_80. This configuration will "
        "fail. Please set num_ctas=1 or target an SM90+ GPU.",
        "RuntimeError: bfloat16 is only supported on Ampere GPUs or newer",
        "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.  (Could this error message be improved?  "
        "If so, please report an enhancement request to PyTorch.)"}},
      {"version-mismatch.shared-library-missing",
       {"OSError: Could not find any NVRTC library",
        "/usr/local/lib/python3.11/site-packages/torch/backends/cudnn/__init__.py:142: UserWarning: cuDNN/MIOpen "
        "library not found. Check your LD_LIBRARY_PATH",
        "CUDA 12.x runtime libraries were not found in the LD_LIBRARY_PATH."}},
      {"version-mismatch.torch-backend-not-built",
       {"AssertionError: libcudart functions unavailable. It looks like you have a broken build?",
        "/usr/local/lib/python3.11/site-packages/torch/cuda/nccl.py:16: UserWarning: PyTorch is not compiled with NCCL "
        "support",
        "RuntimeError: Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared "
        "libraries: a CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
        "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason."}},
  };
  return table;
}

TEST(DoctorLibraryMessages, EachLibraryMessageReachesTheRuleOfItsCause) {
  EXPECT_TRUE(test::eachLineReachesItsRule(libraryMessages(), 38));
}

// An extension that failed to build on a rank is the cause; the other ranks' collective timeout is its consequence.
TEST(DoctorLibraryMessages, AnExtensionThatFailedToBuildRanksAboveTheTimeoutItCaused) {
  const auto ids = test::rankedRuleIds(
      "[rank3]: RuntimeError: Error building extension 'fused_adam'\n"
      "[rank0]:[E1205 10:00:00.000000 1 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600001 "
      "milliseconds before timing out.\n");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids[0], "version-mismatch.extension-build-failed");
}

// Apex's build skips its NCCL allocator on an older NCCL and goes on; an extension that needs the newer NCCL to run is
// still the cause.
TEST(DoctorLibraryMessages, ABuildThatSkipsAnOptionalPartIsNoFailure) {
  EXPECT_FALSE(test::diagnoses("UserWarning: Skip `--nccl_allocator` as it requires NCCL 2.19 or later, but 2.18\n",
                               "version-mismatch.nccl-too-old-for-torch"));
  EXPECT_EQ(topRule("RuntimeError: ncclMemAlloc requires NCCL 2.19 or later, but 2.18.5 was loaded\n"),
            "version-mismatch.nccl-too-old-for-torch");
}

}  // namespace
}  // namespace pf::doctor
