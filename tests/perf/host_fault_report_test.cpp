// The GPU runner's report of a fault in the launcher's host code (harness/backends/
// host_fault_report.h), run here on host memory closed with mprotect, as a cudaMalloc pointer is
// to the host: one crash event in the protocol's words, the process dying by SIGSEGV as before.
#include "harness/backends/host_fault_report.h"
#include "grader/core/buffer_names.h"
#include "harness/protocol/protocol.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace cugrade::backends {
namespace {

namespace fs = std::filesystem;

struct ended {
  int signal = 0;
  protocol::runner_log log;
};

// Runs `touch` in a child whose host faults report to an event file; how the child ended and
// what the file says.
template <class Touch> ended run_child(Touch touch) {
  const fs::path dir = fs::temp_directory_path() / ("host-fault-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path events = dir / "events.jsonl";
  fs::remove(events);
  const pid_t child = fork();
  if (child == 0) {
    const int fd = open(events.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    report_host_faults_to(fd);
    touch();
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ended e;
  e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  e.log = protocol::read_events(events);
  fs::remove_all(dir);
  return e;
}

// A page the host may not touch, as a device buffer is on a GPU without HMM.
char* closed_page() {
  void* p = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return static_cast<char*>(p);
}

TEST(HostFaultReport, AReadOfClosedMemoryIsOneCrashEventWithThePlaceToNameTheLine) {
  const ended e = run_child([] {
    volatile char* p = closed_page();
    std::exit(p[8] == 0 ? 3 : 4);
  });
  EXPECT_EQ(e.signal, SIGSEGV) << "the runner still dies by the signal";
  ASSERT_TRUE(e.log.fault_kind.has_value());
  EXPECT_EQ(*e.log.fault_kind, fault_kind::crash);
  EXPECT_EQ(e.log.fault_message.rfind("host code: read of address 0x", 0), 0u)
      << e.log.fault_message;
  EXPECT_NE(e.log.fault_message.find("a device pointer dereferenced in host code"),
            std::string::npos)
      << e.log.fault_message;
  EXPECT_EQ(e.log.fault_pc_offset.rfind("0x", 0), 0u) << e.log.fault_pc_offset;
  EXPECT_NE(e.log.fault_object.find("cugrade_perf_tests"), std::string::npos)
      << "the object whose code faulted: " << e.log.fault_object;
}

TEST(HostFaultReport, AWriteIsAWriteAndANullPointerSaysSo) {
  const ended write = run_child([] { *(closed_page() + 4) = 1; });
  EXPECT_EQ(write.signal, SIGSEGV);
  EXPECT_EQ(write.log.fault_message.rfind("host code: write of address", 0), 0u)
      << write.log.fault_message;
  const ended null = run_child([] {
    volatile int* p = nullptr;
    *p = 1;
  });
  EXPECT_EQ(null.signal, SIGSEGV);
  EXPECT_NE(null.log.fault_message.find("address 0x0 (a null or nearly null pointer)"),
            std::string::npos)
      << null.log.fault_message;
}

TEST(HostFaultReport, TheGraderNamesTheCasesBufferTheLauncherReadAndLeavesOtherAddresses) {
  // A launcher printing P[0][2] of the output it was handed: the handler knows the address, the
  // runner said where it put P, and the grader names the element (grader/core/buffer_names.h).
  char* const page = closed_page();
  const ended e = run_child([page] {
    const volatile char* p = page;
    std::exit(p[8] == 0 ? 3 : 4);
  });
  ASSERT_EQ(e.signal, SIGSEGV);
  const auto& matmul = problems::get(problems::kind_named("matmul"));
  const problems::shape dims{.j = 16, .k = 16, .l = 16};
  const auto at = reinterpret_cast<std::uintptr_t>(page);
  const std::vector<protocol::buffer_place> places{{"M", at + 8192, 1024}, {"P", at, 1024}};
  const std::string named = grader::with_buffer_names(e.log.fault_message, matmul, dims, places);
  EXPECT_EQ(named.rfind("host code: read of P[0][2] (byte 8 of P, a 1024-byte device buffer: 16 x "
                        "16 floats) at 0x",
                        0),
            0u)
      << named;
  EXPECT_NE(named.find(": a device pointer dereferenced in host code (memory from cudaMalloc is "
                       "the GPU's; copy the values with cudaMemcpy instead)"),
            std::string::npos)
      << named;
  EXPECT_EQ(named.find("wild pointer"), std::string::npos) << named;
  // An address before every placed buffer (P 16 bytes on): no buffer of the case, the words stay.
  const std::vector<protocol::buffer_place> later{{"P", at + 16, 1024}};
  EXPECT_EQ(grader::with_buffer_names(e.log.fault_message, matmul, dims, later),
            e.log.fault_message);
}

TEST(HostFaultReport, ASignalSentWithKillIsReportedAndEndsTheProcess) {
  const ended e = run_child([] { raise(SIGBUS); });
  EXPECT_EQ(e.signal, SIGBUS) << "a signal sent with kill still ends the process";
  ASSERT_TRUE(e.log.fault_kind.has_value());
  EXPECT_EQ(*e.log.fault_kind, fault_kind::crash);
}

} // namespace
} // namespace cugrade::backends
