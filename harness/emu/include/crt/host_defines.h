#pragma once
/// \file
/// Stands in for CUDA's <crt/host_defines.h>: everything lives in the emulator's prelude.
#include "cugrade_emu.h"
