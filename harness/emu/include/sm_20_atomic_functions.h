#pragma once
/// \file
/// Stands in for CUDA's <sm_20_atomic_functions.h>, which students include by name (Visual Studio's
/// CUDA template among them): everything lives in the emulator's prelude.
#include "cugrade_emu.h"
