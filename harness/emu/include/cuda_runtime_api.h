#pragma once
/// \file
/// Stands in for CUDA's <cuda_runtime_api.h>: the host API only (no device macros), so a host
/// program such as the runner can include it.
#include "cugrade_emu/api.h"
