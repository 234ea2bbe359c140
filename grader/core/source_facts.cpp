#include "grader/core/source_facts.h"

namespace cugrade::grader {

source_facts source_facts_of_launcher(std::string_view source, std::string_view launcher) {
  const source_code::launcher_code code = source_code::launcher_code_of(source, launcher);
  const source_tokens::launcher_tokens read = source_tokens::tokens_of(code);
  return {early_exits_of(code), unsynced_warp_steps_of(read), signed_byte_indexes_of(read),
          runtime_call_sites(source)};
}

} // namespace cugrade::grader
