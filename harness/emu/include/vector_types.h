#pragma once
/// \file
/// Stands in for CUDA's <vector_types.h>.
#include "cugrade_emu/types.h"
