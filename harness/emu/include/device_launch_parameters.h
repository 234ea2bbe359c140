#pragma once
/// \file
/// Stands in for CUDA's <device_launch_parameters.h>: everything lives in the emulator's prelude.
#include "cugrade_emu.h"
