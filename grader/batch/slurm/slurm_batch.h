#pragma once
/// \file
/// `cugrade batch ... --slurm`: the same roster, journal, reports and gradebook as a local batch,
/// with the gradings run by a Slurm job array. The submitting process alone owns DIR and its
/// journal; the array's tasks grade their shard with the local batch code in a folder on their
/// node and hand each report over by atomic rename (slurm/delivery.h). Tasks Slurm kills leave
/// their remaining students queued; the same command submits only those again.

#include "grader/batch/batch.h"

namespace cugrade::batch {

[[nodiscard]] batch_result run_slurm_batch(const batch_options& options, const grader::layout& l);

} // namespace cugrade::batch
