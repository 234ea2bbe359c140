#include <regex>
#include <vector>

#include <gtest/gtest.h>

#include "reports/writers.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

// A small XML well-formedness check, enough for what render_junit writes: balanced tags,
// quoted attributes without raw < or &, entities only from XML's five or numeric references.
// Returns an empty string when well-formed, else what is wrong.
std::string xml_problem(const std::string& xml) {
  static const std::regex entity(R"(^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)");
  static const std::regex tag(R"(^<(/?)([A-Za-z_][\w.-]*)((\s+[\w.-]+="[^"<]*")*)\s*(/?)>)");
  std::vector<std::string> open;
  std::size_t i = xml.rfind("?>", 100);
  i = i == std::string::npos ? 0 : i + 2;
  while (i < xml.size()) {
    const std::string rest = xml.substr(i, 4096);
    std::smatch m;
    if (xml[i] == '<') {
      if (!std::regex_search(rest, m, tag)) {
        return "bad tag at " + std::to_string(i) + ": " + rest.substr(0, 60);
      }
      const std::string attributes = m[3];
      for (std::size_t a = attributes.find('&'); a != std::string::npos;
           a = attributes.find('&', a + 1)) {
        if (!std::regex_search(attributes.substr(a), entity)) {
          return "raw & in attribute at " + std::to_string(i);
        }
      }
      if (m[1] == "/") {
        if (open.empty() || open.back() != m[2]) {
          return "unbalanced </" + m[2].str() + "> at " + std::to_string(i);
        }
        open.pop_back();
      } else if (m[5] != "/") {
        open.push_back(m[2]);
      }
      i += static_cast<std::size_t>(m.length(0));
    } else if (xml[i] == '&') {
      if (!std::regex_search(rest, m, entity)) {
        return "raw & in text at " + std::to_string(i);
      }
      i += static_cast<std::size_t>(m.length(0));
    } else {
      ++i;
    }
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

TEST(JunitXml, CheckerCatchesBrokenXml) {
  EXPECT_EQ(xml_problem("<a><b x=\"1\"/></a>"), "");
  EXPECT_NE(xml_problem("<a><b></a>"), "");
  EXPECT_NE(xml_problem("<a>1 < 2</a>"), "");
  EXPECT_NE(xml_problem("<a x=\"&\"/>"), "");
  EXPECT_NE(xml_problem("<a>&nbsp;</a>"), "");
}

TEST(JunitXml, IsWellFormed) {
  const std::string xml = render_junit(testing::sample_report());
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_TRUE(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"));
}

TEST(JunitXml, SuitesCasesAndCounts) {
  const std::string xml = render_junit(testing::sample_report());
  EXPECT_NE(xml.find(R"(<testsuites name="matmul" tests="5" failures="2" errors="1" skipped="0")"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find(R"(<testsuite name="matmul_tiled" tests="3" failures="2" errors="0")"),
            std::string::npos);
  EXPECT_NE(xml.find(R"(<testcase classname="matmul.matmul_tiled" name="1x1x1/real" time="0"/>)"),
            std::string::npos);
  EXPECT_NE(xml.find(R"(<error message="illegal address" type="out_of_bounds">)"),
            std::string::npos);
}

TEST(JunitXml, MessagesAreEscaped) {
  const std::string xml = render_junit(testing::sample_report());
  EXPECT_NE(xml.find("message=\"12 of 2145 elements differ &lt;&amp;&quot;quotes&quot;&gt; here\""),
            std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("<&\"quotes\">"), std::string::npos);
}

TEST(JunitXml, HiddenTestHasNoDetails) {
  const std::string xml = render_junit(testing::sample_report());
  EXPECT_NE(xml.find("name=\"hidden group hidden_edge case 1\" time=\"0\">\n      <failure "
                     "message=\"hidden test failed\" type=\"failed\"></failure>"),
            std::string::npos)
      << xml;
}

TEST(JunitXml, UngradableIsOneInfrastructureError) {
  report r = testing::sample_report();
  mark_ungradable(r, "nvcc: <not found> & gone");
  const std::string xml = render_junit(r);
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_NE(xml.find("errors=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("message=\"nvcc: &lt;not found&gt; &amp; gone\""), std::string::npos);
}

TEST(XmlEscape, EscapesMarkupControlsAndBadUtf8) {
  EXPECT_EQ(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(xml_escape("line\nnext\ttab\r"), "line&#10;next&#9;tab&#13;");
  EXPECT_EQ(xml_escape("line\nnext\ttab\r", false), "line\nnext\ttab&#13;");
  EXPECT_EQ(xml_escape(std::string("nul\0x", 5)), "nul\xEF\xBF\xBDx");
  EXPECT_EQ(xml_escape("\x1b[31m"), "\xEF\xBF\xBD[31m");
  EXPECT_EQ(xml_escape("caf\xC3\xA9 \xE2\x9C\x93"), "caf\xC3\xA9 \xE2\x9C\x93");
  EXPECT_EQ(xml_escape("bad \xC3 end"), "bad \xEF\xBF\xBD end");
  EXPECT_EQ(xml_escape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD") << "overlong encodings are invalid";
  EXPECT_EQ(xml_escape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD")
      << "surrogates are invalid";
}

TEST(JunitXml, BuildErrorCarriesTheEscapedLog) {
  report r = testing::sample_report();
  r.kernels[2] = {};
  r.kernels[2].name = "matmul_dynamic";
  r.kernels[2].status = kernel_status::build_error;
  r.build = {build_status::error, "matmul.cu(3): error: expected a \";\" <here>\n", 1.0, "", 0};
  const std::string xml = render_junit(r);
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_NE(xml.find("expected a &quot;;&quot; &lt;here&gt;"), std::string::npos) << xml;
}

} // namespace
} // namespace cugrade::reports
