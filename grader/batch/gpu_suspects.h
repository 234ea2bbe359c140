#pragma once
/// \file
/// The students whose grading was in flight when a batch's GPU stopped working (pipeline.h,
/// `machine_lost`), kept in the journal (setting "gpu_lost_during": student -> how many times).
/// One of them may have broken the GPU, so the next run grades them after everyone else: a
/// submission that breaks the GPU again then stops the batch only once the class is graded. A
/// student leaves the list when their report reaches the journal.

#include "grader/batch/journal.h"

#include <map>
#include <string>

namespace cugrade::batch {

/// Each suspect with the number of times the GPU stopped while grading them.
[[nodiscard]] std::map<std::string, int> gpu_suspects(journal& j);

/// Counts one more stop of the GPU while `student` was graded. The caller serialises calls.
void add_gpu_suspect(journal& j, const std::string& student);

/// `student`'s report reached the journal: no longer a suspect. The caller serialises calls.
void clear_gpu_suspect(journal& j, const std::string& student);

} // namespace cugrade::batch
