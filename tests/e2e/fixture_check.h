#pragma once
// Grades one fixture submission with the real cugrade and checks the verdicts its expect.json
// predicts. expect.json: {"assignment", "kernels": {launcher: {status | status_one_of,
// error_kind?, hint? (anywhere in the diagnosis), first_hint? (the code of the first hint),
// first_hint_location? ("file.cu:LINE"), first_hint_contains? / first_hint_excludes? (words
// the first hint must / must not use), no_hint? [codes never shown], message_contains?,
// forbidden_contains?}}, "others"?: status of launchers not listed (default "passed"),
// "kernel_timeout"?, "build_log_contains"?, and per backend
// "<backend>": {"kernels": {...overrides}, "why": "what this backend cannot see"}}.

#include <string>

namespace cugrade::e2e {

void check_fixture(const std::string& fixture, const std::string& backend);

} // namespace cugrade::e2e
