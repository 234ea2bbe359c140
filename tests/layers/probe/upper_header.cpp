// Compiled by the test layers.build_refuses_a_module_it_does_not_link: a source linking only
// cugrade::problems must not find grader/perf's header (the compiler stops at that include).
#include "harness/problems/problem.h"
#include "grader/perf/output_check.h"

int layers_probe_upper_header() { return 0; }
