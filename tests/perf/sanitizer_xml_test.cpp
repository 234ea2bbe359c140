// The XML reader and the findings read from compute-sanitizer reports. tests/perf/data holds
// reports written by compute-sanitizer 2025.3.1 on an H100 for planted bugs (an out-of-bounds
// write at bugs.cu:8, a shared-memory race between lines 15 and 16, a __syncthreads() inside a
// branch at line 25).

#include "grader/perf/sanitizer_check.h"
#include "grader/perf/sanitizer_findings.h"
#include "grader/perf/xml_tree.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace cugrade::perf {
namespace {

std::string data(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_PERF_TEST_DATA) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(XmlTree, ReadsElementsTextAndEntitiesAndSkipsTheRest) {
  const auto root = parse_xml(R"(<?xml version="1.0"?>
<!-- a comment -->
<a kind="x > y">
  <b>one &amp; &lt;two&gt; &quot;q&quot; &#65;&#x42;</b>
  <c/>
  <!-- inside -->
  <d><![CDATA[<raw & text>]]></d>
  <b>second</b>
</a>)");
  ASSERT_TRUE(root.ok()) << root.error();
  EXPECT_EQ(root->name, "a");
  ASSERT_EQ(root->children.size(), 4u);
  EXPECT_EQ(root->text_at("b"), "one & <two> \"q\" AB");
  EXPECT_EQ(root->children[1].name, "c");
  EXPECT_EQ(root->text_at("d"), "<raw & text>");
  EXPECT_EQ(root->text_at("missing/path"), "");
}

TEST(XmlTree, SaysWhereADocumentIsBroken) {
  for (const char* bad :
       {"<a><b></a>", "<a>", "<a>&bogus;</a>", "<a></a><b/>", "text", "<a x=\"1>"}) {
    const auto r = parse_xml(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().find("at byte"), std::string::npos) << r.error();
  }
}

TEST(SanitizerFindings, ReadsAnOutOfBoundsWriteWithItsLineAndThread) {
  const auto f = read_sanitizer_xml(data("memcheck.xml"), "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u); // the API error that follows the fault is left out
  const auto& x = (*f)[0];
  EXPECT_EQ(x.error_kind, "out_of_bounds");
  EXPECT_EQ(x.location(), "bugs.cu:8");
  EXPECT_EQ(x.function, "oob_write");
  EXPECT_EQ(x.thread, "thread (232,0,0) in block (3,0,0)");
  EXPECT_NE(x.describe().find("Invalid __global__ write of size 4 bytes"), std::string::npos)
      << x.describe();
}

TEST(SanitizerFindings, ReadsARaceWithBothAccesses) {
  const auto f = read_sanitizer_xml(data("racecheck.xml"), "racecheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  const auto& x = (*f)[0];
  EXPECT_EQ(x.error_kind, "race");
  EXPECT_EQ(x.location(), "bugs.cu:16");
  EXPECT_EQ(x.other_location, "bugs.cu:15");
  EXPECT_EQ(x.occurrences, 1024);
  EXPECT_NE(x.describe().find("between a write and a read"), std::string::npos) << x.describe();
}

TEST(SanitizerFindings, MergesEveryThreadOfADivergentBarrierIntoOneFinding) {
  const auto f = read_sanitizer_xml(data("synccheck.xml"), "synccheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  EXPECT_EQ((*f)[0].error_kind, "barrier_divergence");
  EXPECT_EQ((*f)[0].location(), "bugs.cu:25");
  EXPECT_EQ((*f)[0].occurrences, 4);
}

TEST(SanitizerFindings, AnEmptyReportHasNone) {
  const auto f = read_sanitizer_xml(
      "<?xml version=\"1.0\"?>\n<ComputeSanitizerOutput>\n</ComputeSanitizerOutput>\n", "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_TRUE(f->empty());
}

TEST(RecordFindings, MakesTheKernelAnErrorWithTheKindAndALineHint) {
  reports::kernel_report k;
  k.name = "histogram_privatized";
  k.score = 15;
  k.diagnosis.push_back({reports::hint_code::wrong_result, "older"});
  const auto f = read_sanitizer_xml(data("racecheck.xml"), "racecheck");
  ASSERT_TRUE(f.ok());
  record_findings(k, *f);
  EXPECT_EQ(k.status, reports::kernel_status::error);
  EXPECT_EQ(k.error_kind, reports::fault_kind::race);
  EXPECT_EQ(k.score, 15);
  ASSERT_EQ(k.diagnosis.size(), 2u);
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code::race);
  EXPECT_NE(k.diagnosis[0].message.find("bugs.cu:16"), std::string::npos);
  EXPECT_NE(k.diagnosis[0].message.find("__syncthreads"), std::string::npos);
}

TEST(RecordFindings, KeepsTheCauseOfAMemoryFaultFirst) {
  reports::kernel_report k;
  k.diagnosis.push_back({reports::hint_code::wrong_dimension, "N indexed with k"});
  const auto f = read_sanitizer_xml(data("memcheck.xml"), "memcheck");
  ASSERT_TRUE(f.ok());
  ASSERT_FALSE(f->empty());
  record_findings(k, *f);
  EXPECT_EQ(k.error_kind, reports::fault_kind::out_of_bounds);
  ASSERT_GE(k.diagnosis.size(), 2u);
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code::wrong_dimension);
  EXPECT_EQ(k.diagnosis[1].code, reports::hint_code::out_of_bounds);
  EXPECT_FALSE(k.diagnosis[1].location.empty());
}

TEST(RecordFindings, LeavesAKernelWithoutFindingsAlone) {
  reports::kernel_report k;
  record_findings(k, {});
  EXPECT_EQ(k.status, reports::kernel_status::passed);
  EXPECT_TRUE(k.diagnosis.empty());
}

} // namespace
} // namespace cugrade::perf
