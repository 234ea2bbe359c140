#pragma once
/// \file
/// Stands in for CUDA's <vector_functions.h>: the make_* constructors.
#include "cugrade_emu/types.h"
