#pragma once
/// \file
/// A test seam for the resume tests: with CUGRADE_BATCH_KILL_AFTER=EVENT:N in the environment,
/// the batch sends itself SIGKILL right after the Nth EVENT (fetched, built, graded, files,
/// written), i.e. at a chosen point between two journal transactions. Unset, it does nothing.

#include <string_view>

namespace cugrade::batch::detail {

void kill_point(std::string_view event);

} // namespace cugrade::batch::detail
