#pragma once
/// \file
/// The `cugrade-fetch` program: fetches one git source for the grader, in a process of its own
/// (grader/fetch/detail/child_fetch.h). Started by cugrade, never by hand.

namespace cugrade::fetch {

/// Decodes the request given as `--request JSON`, fetches and checks out, writes the outcome as
/// one JSON document on stdout and progress lines on the descriptor `--progress-fd N`. Returns
/// the exit status: 0 whenever an outcome was written (a failed fetch included).
int run_fetcher(int argc, char** argv);

} // namespace cugrade::fetch
