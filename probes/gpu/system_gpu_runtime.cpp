// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// SystemView::gpuRuntime(), apart from system_view.cpp so that the file readers (and their fuzz targets) do not
// pull in the GPU runtime query.
#include "gpu_runtime.hpp"
#include "system_view.hpp"

namespace pf::probes {

const GpuRuntime* SystemView::gpuRuntime() const {
  if (gpuRuntime_) return gpuRuntime_.get();
  return live_ ? &queryGpuRuntime() : nullptr;
}

}  // namespace pf::probes
