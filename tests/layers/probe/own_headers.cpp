// Compiled by the test layers.build_lets_a_module_use_what_it_links: a source linking only
// cugrade::problems includes that module's header and one of harness/core, which it links.
#include "harness/core/result.h"
#include "harness/problems/problem.h"

int layers_probe_own_headers() { return 0; }
