#pragma once
/// \file
/// Stands in for CUDA's <cuda.h>: everything lives in the emulator's prelude.
#include "cugrade_emu.h"
