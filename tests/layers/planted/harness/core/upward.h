#pragma once
// Planted for the test `layers_catch_an_upward_include`: the bottom layer including the grader.
#include "grader/core/grade.h"
