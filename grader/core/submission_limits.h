#pragma once
/// \file
/// A spec's `limits` as the fetcher and the submission copy take them (docs/sandbox.md, "What the
/// grader itself reads"): one place maps the one onto the others.

#include "grader/fetch/fetch.h"
#include "grader/fetch/submission_copy.h"
#include "grader/spec/assignment_spec.h"

namespace cugrade::grader {

/// Download size, files of the graded commit and fetch time, from the spec.
[[nodiscard]] fetch::fetch_limits fetch_limits_of(const spec::assignment_spec& spec);

/// The source's and the whole submission's sizes, from the spec.
[[nodiscard]] fetch::copy_limits copy_limits_of(const spec::assignment_spec& spec);

} // namespace cugrade::grader
