#pragma once
// Grades one fixture submission with the real cugrade and checks the verdicts its expect.json
// predicts. expect.json: {"assignment" (a name under assignments/, or a spec file of the
// fixture's own, "assignment.json", found in its folder), "kernels": {launcher: {status |
// status_one_of, error_kind?, hint? (anywhere in the diagnosis), first_hint? (the code of the first
// hint), first_hint_location? ("file.cu:LINE"), first_hint_contains? / first_hint_excludes? (words
// the first hint must / must not use), no_hint? [codes never shown], message_contains?,
// forbidden_contains?}}, "others"?: status of launchers not listed (default "passed"),
// "kernel_timeout"?, "build_log_contains"?, "build_log_contains_any"?, "build_status"?,
// "build_summary_contains"?, and per backend "<backend>": {"kernels": {...overrides}, "why":
// "what this backend cannot see", "build_summary_contains"?}}. One expectation serves both
// backends; where they may differ the fixture says why (unexplained_differences()). Every
// fixture's terminal output and written reports are also checked for internal names
// (internal_names()).

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cugrade::e2e {

void check_fixture(const std::string& fixture, const std::string& backend);

/// What an expect.json leaves unexplained, one line each: a backend's overrides without their
/// "why" (which covers every override of that backend), and a kernel of the shared "kernels"
/// allowed several statuses (status_one_of) without a "why_status_one_of".
[[nodiscard]] std::vector<std::string> unexplained_differences(const nlohmann::json& expect);

/// Names of the emulator's and the backends' internals no student may read: the rewritten file
/// (.emu.cpp), the emulator's namespaces, the GPU backend's source, anonymous namespaces.
[[nodiscard]] const std::vector<const char*>& internal_names();

/// Fails the test unless `text` holds `parts`: an expect.json's "message_contains", a string or a
/// list of strings that must all be there.
void expect_message_parts(const std::string& text, const nlohmann::json& parts);

/// Fails the test when `text` holds any of internal_names(); `where` names the text.
void expect_no_internal_names(const std::string& text, const std::string& where);

} // namespace cugrade::e2e
