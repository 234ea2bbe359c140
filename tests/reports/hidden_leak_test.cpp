// Defence in depth: no written format may reveal a hidden test's shape, whatever the grader put
// into the report.
#include <gtest/gtest.h>

#include "reports/report_json.h"
#include "reports/writers.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

report leaky_report() {
  report r = testing::sample_report();
  r.kernels[1].message = std::string("your kernel fails on ") + testing::hidden_shape;
  r.kernels[1].tests[0].message += std::string(" (like ") + testing::hidden_shape + ")";
  return r;
}

TEST(HiddenLeak, NoFormatContainsTheHiddenShape) {
  const report r = leaky_report();
  const std::pair<const char*, std::string> rendered[] = {
      {"json", render_json(redact(r))},
      {"gradescope", render_gradescope(redact(r))},
      {"junit", render_junit(redact(r))},
      {"text", render_text(redact(r), false)},
      {"text (colour)", render_text(redact(r), true)},
  };
  for (const auto& [format, text] : rendered) {
    EXPECT_EQ(text.find(testing::hidden_shape), std::string::npos) << format << ":\n" << text;
    EXPECT_EQ(text.find("99 mismatch"), std::string::npos) << format;
  }
}

TEST(HiddenLeak, TheHiddenTestStillCountsByName) {
  const report r = leaky_report();
  EXPECT_NE(render_junit(redact(r)).find("hidden group hidden_edge case 1"), std::string::npos);
  EXPECT_NE(render_text(redact(r), false).find("hidden group hidden_edge case 1 failed"),
            std::string::npos);
  EXPECT_NE(render_json(redact(r)).find("hidden group hidden_edge case 1"), std::string::npos);
}

} // namespace
} // namespace cugrade::reports
