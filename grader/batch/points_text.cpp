#include "grader/batch/points_text.h"

#include <fmt/format.h>

namespace cugrade::batch {

std::string points_text(double points) {
  std::string text = fmt::format("{:.2f}", points);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') {
      text.pop_back();
    }
  }
  return text == "-0" ? "0" : text;
}

} // namespace cugrade::batch
