#include "grader/core/source_facts.h"

namespace cugrade::grader {

source_facts source_facts_of_launcher(std::string_view source, std::string_view launcher) {
  return {early_exits_of_launcher(source, launcher),
          unsynced_warp_steps_of_launcher(source, launcher)};
}

} // namespace cugrade::grader
