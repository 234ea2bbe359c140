#pragma once
/// \file
/// Stands in for CUDA's <math_functions.h>: everything lives in the emulator's prelude.
#include "cugrade_emu.h"
