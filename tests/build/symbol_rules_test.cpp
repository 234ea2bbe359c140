#include "grader/build/symbol_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using namespace cugrade::build;

namespace {

std::string problem_of(const std::string& name, backend target = backend::gpu) {
  return undefined_symbol_problem(name, target).value_or("<allowed>");
}

} // namespace

TEST(SymbolRules, AllowsWhatNvccEmitsForCorrectLaunchers) {
  // Read with nm -u from nvcc 13's objects of the reference solutions and of ours.
  for (const char* name : {"__cudaRegisterFatBinary",
                           "__cudaRegisterFatBinaryEnd",
                           "__cudaUnregisterFatBinary",
                           "__cudaRegisterFunction",
                           "__cudaPushCallConfiguration",
                           "__cudaPopCallConfiguration",
                           "__cudaGetKernel",
                           "__cudaLaunchKernel",
                           "__cxa_guard_acquire",
                           "__cxa_guard_release",
                           "__cxa_guard_abort",
                           "__gxx_personality_v0",
                           "_Unwind_Resume",
                           "atexit",
                           "exit",
                           "cudaGetDevice",
                           "cudaGetDeviceProperties",
                           "cudaDeviceGetAttribute",
                           "cudaMemset",
                           "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                           "cudaFuncGetAttributes",
                           "_Znwm",
                           "_ZdlPvm",
                           "_ZSt20__throw_length_errorPKc",
                           "sqrtf",
                           "fmaxf",
                           "printf",
                           "fprintf",
                           "stderr",
                           "fwrite",
                           "_ZSt4cout",
                           "_ZNSolsEi"}) {
    EXPECT_EQ(problem_of(name), "<allowed>") << name;
  }
}

TEST(SymbolRules, NamesTheCategoryOfAForbiddenCall) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"fopen", "files are not allowed"},
      {"fopen64", "files are not allowed"},
      {"_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode",
       "files are not allowed"},
      {"system", "processes and signals are not allowed"},
      {"execvp", "processes and signals are not allowed"},
      {"socket", "sockets are not allowed"},
      {"getenv", "the environment is not allowed"},
      {"clock_gettime", "clocks and timing are not allowed"},
      {"_ZNSt6chrono3_V212steady_clock3nowEv", "clocks and timing are not allowed"},
      {"cudaEventElapsedTime", "clocks and timing are not allowed"},
      {"dlopen", "dynamic loading is not allowed"},
      {"pthread_create", "threads are not allowed"},
      {"cudaStreamCreate", "streams, events and graphs are not allowed"},
      {"cudaEventRecord", "streams, events and graphs are not allowed"},
      {"cudaGraphLaunch", "streams, events and graphs are not allowed"},
      {"cudaMemcpyAsync", "asynchronous copies, host memory and unified memory are not allowed"},
      {"cudaMallocManaged", "asynchronous copies, host memory and unified memory are not allowed"},
      {"cudaDeviceReset", "device management belongs to the grader"},
      {"getpid", "not on the allowlist"},
  };
  for (const auto& [name, reason] : cases) {
    EXPECT_EQ(problem_of(name), reason) << name;
  }
}

TEST(SymbolRules, EmulatorRuntimeNamesAreAllowedOnlyForEmulation) {
  // cugrade::emu::detail::sync_threads(sync_kind, int, const char*, int)
  const char* barrier = "_ZN7cugrade3emu6detail12sync_threadsENS1_9sync_kindEiPKci";
  EXPECT_EQ(problem_of(barrier, backend::emu), "<allowed>");
  EXPECT_EQ(problem_of(barrier, backend::gpu), "not on the allowlist");
}

// The emulator's <cuda_fp16.h> computes on _Float16, whose conversions GCC calls in libgcc.
TEST(SymbolRules, LibgccsHalfConversionsAreAllowedForEmulation) {
  for (const char* conversion : {"__extendhfsf2", "__extendhfdf2", "__truncsfhf2", "__truncdfhf2",
                                 "__truncxfhf2", "__floatsihf", "__fixhfsi"}) {
    EXPECT_EQ(problem_of(conversion, backend::emu), "<allowed>") << conversion;
  }
  // Not a family wider than the conversions: other libgcc helpers stay off the list.
  EXPECT_EQ(problem_of("__extendhfsf2_evil", backend::emu), "not on the allowlist");
  EXPECT_EQ(problem_of("__register_frame_info", backend::emu), "not on the allowlist");
}

TEST(SymbolRules, TheEmulatorsOwnControlsAreNotOpenToSubmissions) {
  for (const char* control :
       {"_ZN7cugrade3emu12reset_deviceEv", "_ZN7cugrade3emu19set_fault_report_fdEi",
        "_ZN7cugrade3emu18set_schedule_orderENS0_14schedule_orderEm", "cugrade_emu_barrier"}) {
    EXPECT_EQ(problem_of(control, backend::emu), "not on the allowlist") << control;
  }
}

TEST(SymbolRules, ReservesMainAndTheGraderAndCudaNames) {
  EXPECT_EQ(reserved_name_problem("main").value_or(""), "which the grader owns");
  EXPECT_EQ(reserved_name_problem("cugrade_report").value_or(""), "a name reserved for the grader");
  EXPECT_EQ(reserved_name_problem("_ZN7cugrade4hackEv").value_or(""),
            "a name reserved for the grader");
  for (const char* name : {"cudaMalloc", "__cudaRegisterFunction", "cuLaunchKernel"}) {
    EXPECT_EQ(reserved_name_problem(name).value_or(""), "a name reserved for CUDA") << name;
  }
  for (const char* name : {"cube_root", "matmul_naive", "_Z4mainv", "cu"}) {
    EXPECT_FALSE(reserved_name_problem(name).has_value()) << name;
  }
}
