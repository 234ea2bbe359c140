// The findings read from compute-sanitizer reports. tests/perf/data holds
// reports written by compute-sanitizer 2025.3.1 on an H100 for planted bugs (an out-of-bounds
// write at bugs.cu:8, a shared-memory race between lines 15 and 16, a __syncthreads() inside a
// branch at line 25).

#include "grader/perf/fault_address.h"
#include "grader/perf/sanitizer_check.h"
#include "grader/perf/sanitizer_findings.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace cugrade::perf {
namespace {

std::string xml_text(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_PERF_TEST_DATA) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A memcheck record of a 4-byte write out of bounds in `space` ("__global__", "__shared__"),
// whose function and path are whatever the student named them, as compute-sanitizer writes them
// (escaped).
std::string memcheck_record(const std::string& func, const std::string& path, int line = 8,
                            const std::string& space = "__global__") {
  return "<?xml version=\"1.0\"?>\n<ComputeSanitizerOutput><record><kind>Precise</kind>"
         "<what><text>Invalid " +
         space +
         " write of size 4 bytes</text>"
         "<error>out of bounds</error></what><where><func>" +
         func + "</func><path>" + path + "</path><line>" + std::to_string(line) +
         "</line></where></record></ComputeSanitizerOutput>";
}

TEST(SanitizerXml, DecodesEscapedMarkupInStudentNamesWithoutReadingItAsElements) {
  // A kernel named to look like the end of <func> and a new <line>, and a file named with an
  // ampersand, a quote and a CDATA terminator: they stay names.
  const auto f = read_sanitizer_xml(memcheck_record("evil&lt;/func&gt;&lt;line&gt;99&lt;/line&gt;",
                                                    "/tmp/a &amp; &quot;b&quot; ]]&gt; c.cu"),
                                    "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  EXPECT_EQ((*f)[0].function, "evil</func><line>99</line>");
  EXPECT_EQ((*f)[0].file, "a & \"b\" ]]> c.cu");
  EXPECT_EQ((*f)[0].line, 8);
}

TEST(SanitizerXml, KeepsNonAsciiNamesAndCdataAsWritten) {
  const auto f = read_sanitizer_xml(
      memcheck_record("<![CDATA[k<ernel>&]]>", "/home/\xc3\xa9l\xc3\xa8ve/\xe6\xbc\xa2.cu"),
      "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  EXPECT_EQ((*f)[0].function, "k<ernel>&");
  EXPECT_EQ((*f)[0].file, "\xe6\xbc\xa2.cu");
}

TEST(SanitizerXml, DoesNotExpandEntitiesDeclaredByTheDocument) {
  // A DOCTYPE declaring entities (the "billion laughs" shape): never expanded, so a report
  // cannot make the grader build a huge string.
  const std::string xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\">"
                          "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n" +
                          memcheck_record("&b;", "x.cu").substr(22);
  const auto f = read_sanitizer_xml(xml, "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  EXPECT_LT((*f)[0].function.size(), 10u) << (*f)[0].function;
}

TEST(SanitizerXml, SaysWhereABrokenOrForeignReportIsWrong) {
  // A report cut short (the sanitizer was killed), mismatched tags, an unclosed root, no
  // element at all, and some other XML document.
  for (const std::string& bad :
       {memcheck_record("k", "x.cu").substr(0, 120), std::string("<a><b></a>"),
        std::string("<ComputeSanitizerOutput><record>"), std::string("text"),
        std::string("<html><record/></html>")}) {
    const auto r = read_sanitizer_xml(bad, "memcheck");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().find("compute-sanitizer's report"), std::string::npos) << r.error();
  }
  const auto cut = read_sanitizer_xml(memcheck_record("k", "x.cu").substr(0, 120), "memcheck");
  EXPECT_NE(cut.error().find("at byte"), std::string::npos) << cut.error();
  const auto foreign = read_sanitizer_xml("<html><record/></html>", "memcheck");
  EXPECT_NE(foreign.error().find("<html>"), std::string::npos) << foreign.error();
}

TEST(SanitizerFindings, ReadsAnOutOfBoundsWriteWithItsLineAndThread) {
  const auto f = read_sanitizer_xml(xml_text("memcheck.xml"), "memcheck");
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
  const auto f = read_sanitizer_xml(xml_text("racecheck.xml"), "racecheck");
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
  const auto f = read_sanitizer_xml(xml_text("synccheck.xml"), "synccheck");
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
  const auto f = read_sanitizer_xml(xml_text("racecheck.xml"), "racecheck");
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
  // Matmul's code, as its diagnosis makes it: a mistake that commonly shows as a memory fault.
  k.diagnosis.push_back(
      {reports::hint_code{"wrong_dimension", "a dimension is used in place of another", true},
       "N indexed with k"});
  const auto f = read_sanitizer_xml(xml_text("memcheck.xml"), "memcheck");
  ASSERT_TRUE(f.ok());
  ASSERT_FALSE(f->empty());
  record_findings(k, *f);
  EXPECT_EQ(k.error_kind, reports::fault_kind::out_of_bounds);
  ASSERT_GE(k.diagnosis.size(), 2u);
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code{"wrong_dimension"});
  EXPECT_EQ(k.diagnosis[1].code, reports::hint_code::out_of_bounds);
  EXPECT_FALSE(k.diagnosis[1].location.empty());
}

// A hint whose mistake does not show as a memory fault (here a histogram's lost updates) gives
// way to the fault memcheck names, with its line.
TEST(RecordFindings, PutsTheMemoryFaultBeforeAHintThatDoesNotCauseIt) {
  reports::kernel_report k;
  k.diagnosis.push_back(
      {reports::hint_code{"lost_updates", "updates are lost"}, "bins total less"});
  const auto f = read_sanitizer_xml(xml_text("memcheck.xml"), "memcheck");
  ASSERT_TRUE(f.ok());
  ASSERT_FALSE(f->empty());
  record_findings(k, *f);
  ASSERT_GE(k.diagnosis.size(), 2u);
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code::out_of_bounds);
  EXPECT_FALSE(k.diagnosis[0].location.empty());
  EXPECT_EQ(k.diagnosis[1].code, reports::hint_code{"lost_updates"});
}

// An early return before __syncthreads(): the loads past the edge that memcheck reports come
// first in the tools' order, but the barrier synccheck reports is the cause, and is first on the
// GPU as the emulator's barrier fault is in emulation.
TEST(RecordFindings, ABarrierDivergenceFindingComesFirstAheadOfMemoryFaultsAndBoundaries) {
  reports::kernel_report k;
  k.diagnosis.push_back({reports::hint_code::boundary_check, "sizes off 16 fail"});
  auto findings = *read_sanitizer_xml(xml_text("memcheck.xml"), "memcheck");
  const auto sync = read_sanitizer_xml(xml_text("synccheck.xml"), "synccheck");
  ASSERT_TRUE(sync.ok());
  ASSERT_FALSE(sync->empty());
  findings.insert(findings.end(), sync->begin(), sync->end());
  record_findings(k, findings);
  EXPECT_EQ(k.error_kind, reports::fault_kind::barrier_divergence);
  ASSERT_GE(k.diagnosis.size(), 3u);
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code::barrier_divergence);
  EXPECT_EQ(k.diagnosis[0].location, "bugs.cu:25");
  EXPECT_NE(k.message.find("bugs.cu:25"), std::string::npos);
}

TEST(RecordFindings, AnInvalidSharedAccessIsAdvisedAboutTheArraysSize) {
  reports::kernel_report k;
  const std::string xml = memcheck_record("Brent_Kung_scan_kernel", "/s/scan.cu", 31, "__shared__");
  record_findings(k, *read_sanitizer_xml(xml, "memcheck"));
  ASSERT_FALSE(k.diagnosis.empty());
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code::out_of_bounds);
  EXPECT_EQ(k.diagnosis[0].location, "scan.cu:31");
  EXPECT_NE(k.diagnosis[0].message.find("__shared__ array"), std::string::npos);
  EXPECT_NE(k.diagnosis[0].message.find("<="), std::string::npos);
}

// The GPU stopped the kernel with an illegal address (a store just past a __shared__ array that
// ends the block's shared window): memcheck's finding names the access, as the emulator does.
TEST(RecordFindings, AnIllegalAddressTakesTheAccessTheToolNamesAsItsKindAndHint) {
  reports::kernel_report k;
  k.status = reports::kernel_status::error;
  k.error_kind = reports::fault_kind::illegal_address;
  k.message = "cudaErrorIllegalAddress while running: an illegal memory access was encountered";
  k.diagnosis.push_back({reports::hint_code::out_of_bounds,
                         "an access outside a device buffer: check the bounds of this load"});
  k.diagnosis.push_back({reports::hint_code::boundary_check, "sizes off 1024 fail"});
  const std::string xml = memcheck_record("list_scan", "/s/scan.cu", 23, "__shared__");
  record_findings(k, *read_sanitizer_xml(xml, "memcheck"));
  EXPECT_EQ(k.error_kind, reports::fault_kind::out_of_bounds);
  EXPECT_NE(k.message.find("scan.cu:23"), std::string::npos) << k.message;
  ASSERT_EQ(k.diagnosis.size(), 2u);
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code::boundary_check); // a cause stays first
  EXPECT_EQ(k.diagnosis[1].code, reports::hint_code::out_of_bounds);
  EXPECT_EQ(k.diagnosis[1].location, "scan.cu:23");
}

TEST(RecordFindings, LeavesAKernelWithoutFindingsAlone) {
  reports::kernel_report k;
  record_findings(k, {});
  EXPECT_EQ(k.status, reports::kernel_status::passed);
  EXPECT_TRUE(k.diagnosis.empty());
}

// The first record of memcheck's report on an H200 (2026-11-27, CUDA 13.0): a write 4 bytes
// into the 1-byte gap after a 68-byte buffer (17 floats) at 0x7fb82e800c00. The report gives the
// access's address, not the buffer: the grader names it from where the runner put the buffers.
TEST(SanitizerXml, AnAtomicInlinedFromCudasHeaderIsPlacedAtTheKernelsLine) {
  // compute-sanitizer 2025.3.1 on an H200 (memcheck_inlined_atomic_h200.xml): an atomicAdd out of
  // bounds, its <where> inside device_atomic_functions.hpp, the kernel's line in <deviceStack>.
  const auto f = read_sanitizer_xml(xml_text("memcheck_inlined_atomic_h200.xml"), "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  EXPECT_EQ((*f)[0].error_kind, "out_of_bounds");
  EXPECT_EQ((*f)[0].location(), "inl.cu:8");
  EXPECT_EQ((*f)[0].function, "histo_kernel");
  EXPECT_EQ((*f)[0].describe().find("device_atomic_functions.hpp"), std::string::npos)
      << (*f)[0].describe();
}

TEST(SanitizerXml, AHeaderPlaceStaysWhenNoFrameIsInASourceFile) {
  const auto f = read_sanitizer_xml(memcheck_record("atomicAdd",
                                                    "/usr/local/cuda/include/"
                                                    "device_atomic_functions.hpp",
                                                    112),
                                    "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  EXPECT_EQ((*f)[0].location(), "device_atomic_functions.hpp:112");
}

TEST(SanitizerXml, ReadsTheAddressOfABadAccessAndNamesTheBufferItMissed) {
  const auto f = read_sanitizer_xml(xml_text("memcheck_address_h200.xml"), "memcheck");
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_EQ(f->size(), 1u);
  EXPECT_EQ((*f)[0].address, 0x7fb82e800c44u);
  EXPECT_EQ((*f)[0].error_kind, "out_of_bounds");
  const problems::shape dims{.n = 17};
  const std::vector<protocol::buffer_place> places{{"input", 0x7fb82e800000u, 68},
                                                   {"output", 0x7fb82e800c00u, 68}};
  EXPECT_EQ(outside_buffer_words(problems::get(problems::kind_named("scan")), dims, places,
                                 (*f)[0].address),
            "just past the end of output (a 68-byte device buffer: 17 floats), at output[17]");
}

TEST(SanitizerXml, AnAddressFarFromEveryBufferOrInsideOneNamesNone) {
  const problems::shape dims{.n = 17};
  const std::vector<protocol::buffer_place> places{{"input", 0x10000u, 68},
                                                   {"output", 0x20000u, 68}};
  const auto& scan = problems::get(problems::kind_named("scan"));
  EXPECT_EQ(outside_buffer_words(scan, dims, places, 0x20010u), "") << "inside output";
  EXPECT_EQ(outside_buffer_words(scan, dims, places, 0x90000000u), "") << "far past all";
  EXPECT_EQ(outside_buffer_words(scan, dims, places, 0xfffcu),
            "4 bytes before the start of input (a 68-byte device buffer: 17 floats), at input[-1]");
}

// cudaMalloc puts a later buffer a little after the one before it: a read just before the later
// one's start (an exclusive scan's out[i - 1] at i = 0) is named by that buffer, not as
// thousands of bytes past the end of the earlier one.
TEST(SanitizerXml, AnUnderflowOfALaterBufferIsNamedByItsStart) {
  const problems::shape dims{.n = 17};
  const std::vector<protocol::buffer_place> places{{"input", 0x7fb82e800000u, 68},
                                                   {"output", 0x7fb82e800c00u, 68}};
  const auto& scan = problems::get(problems::kind_named("scan"));
  EXPECT_EQ(outside_buffer_words(scan, dims, places, 0x7fb82e800bfcu),
            "4 bytes before the start of output (a 68-byte device buffer: 17 floats), at "
            "output[-1]");
  // Nearer the earlier one's end, it is still named past that end.
  EXPECT_EQ(outside_buffer_words(scan, dims, places, 0x7fb82e800048u),
            "4 bytes past the end of input (a 68-byte device buffer: 17 floats), at input[18]");
}

// A kernel handed the address of the launcher's `float total` (host memory): memcheck names an
// address far from every device buffer, and the runner reported its host memory with the
// faulting run, so the words say the kernel reached host memory, as the emulator's do.
TEST(SanitizerXml, AnAddressInTheRunnersHostMemorySaysTheKernelReachedHostMemory) {
  protocol::runner_log log;
  protocol::run_record run;
  run.case_index = 1;
  run.error_kind = reports::fault_kind::illegal_address;
  run.host_memory = {{0x55d0c0a00000u, 0x55d0c0a21000u}, {0x7ffc5e1e0000u, 0x7ffc5e201000u}};
  log.runs.push_back(run);
  EXPECT_EQ(host_memory_words(log, 1, 0x7ffc5e1ff3a4u),
            "which reaches host memory at 0x7ffc5e1ff3a4 (memory of the host process: a stack, "
            "the heap or a static variable), not device memory");
  EXPECT_EQ(host_memory_words(log, 1, 0x7fb82e800c44u), "") << "device memory";
  EXPECT_EQ(host_memory_words(log, 0, 0x7ffc5e1ff3a4u), "") << "another case's run";
}

// The hint of such a finding names the cause and its fix, not the bounds of an access.
TEST(RecordFindings, AFaultInHostMemoryIsAdvisedToCudaMallocTheBuffer) {
  auto findings =
      *read_sanitizer_xml(memcheck_record("finalSum", "/s/reduction.cu", 40), "memcheck");
  ASSERT_EQ(findings.size(), 1u);
  protocol::runner_log log;
  protocol::run_record run;
  run.host_memory = {{0x7ffc5e1e0000u, 0x7ffc5e201000u}};
  log.runs.push_back(run);
  findings[0].what += ", " + host_memory_words(log, 0, 0x7ffc5e1ff3a4u);
  reports::kernel_report k;
  record_findings(k, findings);
  ASSERT_FALSE(k.diagnosis.empty());
  EXPECT_EQ(k.diagnosis[0].code, reports::hint_code::out_of_bounds);
  EXPECT_EQ(k.diagnosis[0].location, "reduction.cu:40");
  EXPECT_NE(k.diagnosis[0].message.find("reaches host memory"), std::string::npos);
  EXPECT_NE(k.diagnosis[0].message.find(host_memory_advice), std::string::npos)
      << k.diagnosis[0].message;
  EXPECT_EQ(k.diagnosis[0].message.find("check the bounds"), std::string::npos);
}

TEST(SanitizerXml, TheFaultingCaseIsTheOneStillOpenElseTheLastWithAFault) {
  protocol::runner_log log;
  EXPECT_FALSE(faulting_case(log).has_value());
  log.began_seconds = {{0, 0.1}, {1, 0.2}, {2, 0.3}};
  EXPECT_EQ(faulting_case(log), 2u);
  protocol::run_record faulted;
  faulted.case_index = 1;
  faulted.error_kind = reports::fault_kind::out_of_bounds;
  log.runs.push_back(faulted);
  EXPECT_EQ(faulting_case(log), 1u);
  log.open_case = 2;
  EXPECT_EQ(faulting_case(log), 2u);
}

} // namespace
} // namespace cugrade::perf
