#pragma once
/// \file
/// The readers that turn a parsed spec document into an `assignment_spec`, one part each. Each
/// reports every problem it finds to the reader's diagnostics and fills what it could read.

#include "grader/spec/assignment_spec.h"
#include "grader/spec/detail/diagnostics.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace cugrade::spec::detail {

/// schema, name, title, problem, source, reference. Returns the problem when it is known, since
/// the other parts are checked against it.
std::optional<problems::kind> read_identity(object_reader& top,
                                            const std::filesystem::path& project_root,
                                            bool require_reference, assignment_spec& out);
/// kernels: exactly the problem's launchers, each with its points.
void read_kernels(object_reader& top, problems::kind problem, assignment_spec& out);
/// tests: the seed and the groups of cases.
void read_tests(object_reader& top, problems::kind problem, assignment_spec& out);
/// The test groups of the JSON array `groups` (at `path`), appended to `out`: each name and each
/// case must be new to `out` (the groups of assignment.json, then those of the hidden file).
void read_groups(const json& groups, const std::string& path, problems::kind problem,
                 std::vector<test_group>& out, diagnostics& diag);
/// benchmark: the problem's default cases or a list.
void read_benchmark(object_reader& top, problems::kind problem, assignment_spec& out);
/// sanitizer (optional): whether compute-sanitizer checks run on the GPU, on which shapes.
void read_sanitizer(object_reader& top, problems::kind problem, assignment_spec& out);
/// performance, tolerance, limits, late_policy, deadline.
void read_policies(object_reader& top, assignment_spec& out);

/// One shape object for `problem` (matmul: j, k, l; others: n; all whole numbers >= 1).
std::optional<problems::shape> read_shape(const json& value, const std::string& path,
                                          problems::kind problem, diagnostics& diag);
/// One distribution name of `problem`.
std::optional<std::string> read_distribution(const json& value, const std::string& path,
                                             problems::kind problem, diagnostics& diag);
/// What a field that takes a keyword or a list holds.
enum class keyword_or_list { keyword, list, invalid };
/// Classifies `value` at `path`: the string `keyword`, or a non-empty array; anything else is
/// reported ("write "<keyword>" for <keyword_meaning> or a list, e.g. <list_example>").
keyword_or_list classify(const json& value, const std::string& path, std::string_view keyword,
                         std::string_view keyword_meaning, std::string_view list_example,
                         diagnostics& diag);
/// An example shape for `problem`, as messages show it.
[[nodiscard]] std::string example_shape(problems::kind problem);

} // namespace cugrade::spec::detail
