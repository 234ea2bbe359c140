#include <regex>
#include <vector>

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "reports/writers.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

// What is wrong with `xml` as XML 1.0, or "" when nothing is: its structure is checked by
// pugixml, which is lenient about characters and entities, so a raw '&', the characters XML 1.0
// forbids (controls other than tab, newline and carriage return, also as character references)
// and bytes that never occur in UTF-8 are checked here.
std::string xml_problem(const std::string& xml) {
  pugi::xml_document doc;
  const auto parsed = doc.load_string(xml.c_str());
  if (!parsed) {
    return std::string(parsed.description()) + " at byte " + std::to_string(parsed.offset);
  }
  for (std::size_t i = 0; i < xml.size(); ++i) {
    const auto byte = static_cast<unsigned char>(xml[i]);
    if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0xC0 ||
        byte == 0xC1 || byte >= 0xF5) {
      return "byte " + std::to_string(byte) + " at " + std::to_string(i);
    }
  }
  static const std::regex raw_ampersand(R"(&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);))");
  std::smatch m;
  if (std::regex_search(xml, m, raw_ampersand)) {
    return "raw & at " + std::to_string(m.position(0));
  }
  static const std::regex control_reference(
      R"(&#(0*([0-8]|1[1-24-9]|2[0-9]|3[01])|x0*([0-8bBcCeEfF]|1[0-9a-fA-F]));)");
  if (std::regex_search(xml, m, control_reference)) {
    return "reference to a control character: " + m.str();
  }
  return "";
}

TEST(JunitXml, CheckerCatchesBrokenXml) {
  EXPECT_EQ(xml_problem("<a><b x=\"1\"/></a>"), "");
  EXPECT_NE(xml_problem("<a><b></a>"), "");
  EXPECT_NE(xml_problem("<a>1 < 2</a>"), "");
  EXPECT_NE(xml_problem("<a x=\"&\"/>"), "");
  EXPECT_NE(xml_problem("<a>&#27;</a>"), "");
  EXPECT_NE(xml_problem("<a>&#x1b;</a>"), "");
  EXPECT_EQ(xml_problem("<a>&#10;&#x9;&#13;</a>"), "");
  EXPECT_NE(xml_problem("<a>\x01</a>"), "");
  EXPECT_NE(xml_problem("<a>\xff</a>"), "");
}

TEST(JunitXml, IsWellFormed) {
  const std::string xml = render_junit(redact(testing::sample_report()));
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_TRUE(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"));
}

TEST(JunitXml, SuitesCasesAndCounts) {
  const std::string xml = render_junit(redact(testing::sample_report()));
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
  const std::string xml = render_junit(redact(testing::sample_report()));
  EXPECT_NE(xml.find("message=\"12 of 2145 elements differ &lt;&amp;&quot;quotes&quot;&gt; here\""),
            std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("<&\"quotes\">"), std::string::npos);
}

TEST(JunitXml, HiddenTestHasNoDetails) {
  const std::string xml = render_junit(redact(testing::sample_report()));
  EXPECT_NE(xml.find("name=\"hidden group hidden_edge case 1\" time=\"0\">\n      <failure "
                     "message=\"hidden test failed\" type=\"failed\"></failure>"),
            std::string::npos)
      << xml;
}

TEST(JunitXml, UngradableIsOneInfrastructureError) {
  report r = testing::sample_report();
  mark_ungradable(r, "nvcc: <not found> & gone");
  const std::string xml = render_junit(redact(r));
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
  const std::string xml = render_junit(redact(r));
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_NE(xml.find("expected a &quot;;&quot; &lt;here&gt;"), std::string::npos) << xml;
}

TEST(JunitXml, HostileCompilerLogStaysXml10) {
  // Control characters (an ANSI colour, a NUL, a bell), bytes that are not UTF-8 and a CDATA
  // terminator from a compiler log: written as U+FFFD or escaped, never passed through.
  report r = testing::sample_report();
  r.kernels[2] = {};
  r.kernels[2].name = "matmul_dynamic";
  r.kernels[2].status = kernel_status::build_error;
  r.build = {build_status::error,
             std::string("\x1b[31merror\x1b[0m: \x07 bad \xff\xfe bytes ]]> \0 end\n", 41), 1.0, "",
             0};
  const std::string xml = render_junit(redact(r));
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_NE(xml.find("\xEF\xBF\xBD[31merror"), std::string::npos) << xml;
  EXPECT_NE(xml.find("]]&gt;"), std::string::npos) << xml;
}

} // namespace
} // namespace cugrade::reports
