#pragma once
/// \file
/// Stands in for CUDA's <cuda_runtime.h>: everything lives in the emulator's prelude.
#include "cugrade_emu.h"
