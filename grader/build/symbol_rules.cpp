#include "grader/build/symbol_rules.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace cugrade::build {
namespace {

using pattern_list = std::vector<std::string>;

// Shell-style patterns: "cudaStream*" and "cuda*Async*" name families of functions.
bool matches(std::string_view name, std::string_view pattern) {
  return fnmatch(std::string(pattern).c_str(), std::string(name).c_str(), 0) == 0;
}

bool matches_any(std::string_view name, const pattern_list& patterns) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](std::string_view pattern) { return matches(name, pattern); });
}

// Every symbol of a class (or namespace) given by its mangled nested name, e.g.
// "St14basic_ofstream": its members (_ZN..., _ZNK... for const ones) and its vtable, VTT, type
// info and type name (_ZTV, _ZTT, _ZTI, _ZTS; with an N when the name has several parts).
pattern_list class_symbols(std::initializer_list<std::string_view> classes,
                           pattern_list patterns = {}) {
  for (std::string_view name : classes) {
    for (const char* prefix : {"_ZN", "_ZNK", "_ZT[VTIS]", "_ZT[VTIS]N"}) {
      patterns.push_back(std::string(prefix) + std::string(name) + "*");
    }
  }
  return patterns;
}

// clang-format off
// nvcc's launch and registration machinery (CUDA 12 and 13), then what launchers may call.
const pattern_list allowed_cuda{
    "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
    "__cudaRegisterFunction", "__cudaRegisterVar", "__cudaPushCallConfiguration",
    "__cudaPopCallConfiguration", "__cudaGetKernel", "__cudaLaunchKernel",
    "__cudaLaunchKernel_ptsz", "cudaLaunchKernel", "cudaLaunchKernel_ptsz",
    // device memory, synchronous copies, __constant__ and __device__ variables
    "cudaMalloc", "cudaMallocPitch", "cudaFree", "cudaMemcpy", "cudaMemcpy2D", "cudaMemset",
    "cudaMemset2D", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaGetSymbolAddress",
    "cudaGetSymbolSize", "cudaMemGetInfo",
    // properties, attributes, occupancy
    "cudaGetDevice", "cudaGetDeviceCount", "cudaGetDeviceProperties",
    "cudaGetDeviceProperties_v2", "cudaDeviceGetAttribute", "cudaDriverGetVersion",
    "cudaRuntimeGetVersion", "cudaFuncSetAttribute", "cudaFuncGetAttributes",
    "cudaFuncSetCacheConfig", "cudaOccupancyMaxActiveBlocksPerMultiprocessor*",
    "cudaOccupancyMaxPotentialBlockSize*", "cudaOccupancyAvailableDynamicSMemPerBlock",
    // errors, and waiting on the default stream
    "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName",
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaStreamSynchronize_ptsz"};

// The C library: console output, memory, strings, ending the process on an error. fwrite and
// fputs are here because gcc turns fprintf(stderr, "...") into them; with fopen, fdopen and
// tmpfile forbidden, a FILE* can only be stdout or stderr.
const pattern_list allowed_c{
    "printf", "puts", "putchar", "vprintf", "fprintf", "vfprintf", "fputs", "fputc", "putc",
    "fwrite", "fflush", "stdout", "stderr", "__printf_chk", "__fprintf_chk", "__vprintf_chk",
    "__vfprintf_chk", "sprintf", "snprintf", "vsnprintf", "__sprintf_chk", "__snprintf_chk",
    "__vsnprintf_chk",
    "malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", "memcpy", "memset",
    "memmove", "memcmp", "__memcpy_chk", "__memset_chk", "__memmove_chk", "strlen", "strcmp",
    "strncmp", "strcpy", "strncpy",
    "exit", "abort", "__assert_fail", "__stack_chk_fail", "atexit", "__cxa_atexit",
    // glibc's flag that libstdc++'s inline reference counting (std::shared_ptr) reads
    "__libc_single_threaded"};

// The C++ runtime: new and delete, exceptions, static-local guards, vtables, libstdc++'s throw
// helpers (std::vector's length errors) and assertion failures, std::string, and what debug output
// needs: `std::cout << x` and its manipulators, and in-memory string streams for formatting.
// ios_base_library_init is what <iostream> references from GCC 13 on (instead of a static
// ios_base::Init), so that the standard streams are constructed before they are used.
const pattern_list allowed_cxx = class_symbols(
    // The stream plumbing under std::cout, and the in-memory string streams (std::ostringstream,
    // std::istringstream, std::stringstream and their buffer), which touch nothing but memory.
    {"St9basic_iosIcSt11char_traitsIcEE", "St15basic_streambufIcSt11char_traitsIcEE",
     "St7__cxx1115basic_stringbuf", "St7__cxx1119basic_ostringstream",
     "St7__cxx1119basic_istringstream", "St7__cxx1118basic_stringstream"},
    {"__dso_handle", "__cxa_finalize", "__gmon_start__", "_GLOBAL_OFFSET_TABLE_",
     "_Znw*", "_Zna*", "_Zdl*", "_Zda*",
     "__gxx_personality_v0", "_Unwind_Resume", "__cxa_begin_catch", "__cxa_end_catch",
     "__cxa_rethrow", "__cxa_throw", "__cxa_allocate_exception", "__cxa_free_exception",
     "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_guard_abort", "__cxa_pure_virtual",
     "__cxa_call_terminate", "__cxa_throw_bad_array_new_length", "_ZSt9terminatev",
     "_ZSt*__throw_*", "_ZSt21__glibcxx_assert_fail*", "_ZTVN10__cxxabiv1*", "_ZTISt*",
     "_ZNSt7__cxx1112basic_string*", "_ZNKSt7__cxx1112basic_string*",
     "_ZSt4cout", "_ZSt4cerr", "_ZSt4clog", "_ZNSo*", "_ZNKSo*", "_ZSt4endl*", "_ZSt5flush*",
     "_ZSt4ends*", "_ZStlsI*", "_ZSt16__ostream_insert*", "_ZNKSt5ctypeIcE*",
     "_ZNSt8ios_base4InitC1Ev", "_ZNSt8ios_base4InitD1Ev", "_ZSt21ios_base_library_initv",
     "_ZNSt8ios_baseC[12]Ev", "_ZNSt8ios_baseD[012]Ev", "_ZNSt6localeC[12]Ev",
     "_ZNSt6localeC[12]ERKS_", "_ZNSt6localeD[12]Ev", "_ZNSt6locale7classicEv"});

// libm, with the float (and long double) forms of each.
const pattern_list allowed_math{
    "sqrt*", "cbrt*", "exp*", "log*", "pow*", "fabs*", "floor*", "ceil*", "round*", "lround*",
    "trunc*", "fmod*", "fmin*", "fmax*", "fma", "fmaf", "hypot*", "sin", "sinf", "cos", "cosf",
    "tan", "tanf", "sinh*", "cosh*", "tanh*", "asin*", "acos*", "atan*", "erf*", "ldexp*",
    "frexp*", "nan", "nanf"};

// The emulator's CUDA-facing runtime, which rewritten sources call in place of the CUDA runtime:
// exactly namespace cugrade::emu::detail, what its headers' inline code calls (launches,
// barriers, warp exchanges, shared memory, the thread context). Not the rest of cugrade::emu:
// reset_device, set_fault_report_fd, set_schedule_order... are the runner's controls.
// And libgcc's conversions to and from `_Float16`, which the emulator's <cuda_fp16.h> is built on
// (GCC calls them for every conversion of a half).
const pattern_list allowed_emu{"_ZN7cugrade3emu6detail*", "__extendhf[sdx]f2", "__trunc[sdx]fhf2",
                               "__float*hf", "__fix*hf*"};

struct category {
  std::string_view reason;
  pattern_list patterns;
};

// Checked in order, after the allowlist; the first category that matches gives the reason.
const std::vector<category> forbidden_categories{
    // The file streams (with the file layer under them) and std::filesystem, then the C library.
    {"files are not allowed",
     class_symbols(
         {"St14basic_ofstream", "St14basic_ifstream", "St13basic_fstream", "St13basic_filebuf",
          "St12__basic_file", "St10filesystem"},
         {"fopen*", "freopen*", "fdopen", "tmpfile*", "fclose", "fseek*", "ftell*", "rewind",
          "open", "open64", "openat*", "__open*", "creat*", "read", "__read_chk", "pread*",
          "readv", "write", "pwrite*", "writev", "close", "fread*", "__fread_chk", "fgets*",
          "fgetc", "getc", "fscanf*", "__isoc99_fscanf", "scanf*", "__isoc99_scanf", "unlink*",
          "remove", "rename*", "mkdir*", "rmdir", "opendir", "readdir*", "stat*", "fstat*",
          "lstat*", "__xstat*", "access", "mmap*", "truncate*", "ftruncate*", "dup", "dup2",
          "dup3", "pipe", "pipe2", "chdir", "chmod", "symlink", "link", "ioctl", "fcntl*"})},
    {"processes and signals are not allowed",
     {"system", "fork", "vfork", "clone*", "exec*", "fexecve", "popen", "pclose", "posix_spawn*",
      "kill", "raise", "signal", "sigaction", "__sysv_signal", "_exit", "_Exit", "quick_exit",
      "wait*", "setpgid", "setsid", "prctl", "ptrace", "syscall"}},
    {"sockets are not allowed",
     {"socket", "socketpair", "connect", "bind", "listen", "accept*", "send*", "recv*",
      "getaddrinfo", "gethostbyname*", "setsockopt", "getsockopt", "shutdown", "inet_*"}},
    {"the environment is not allowed",
     {"getenv", "secure_getenv", "setenv", "unsetenv", "putenv", "clearenv", "environ",
      "__environ"}},
    {"clocks and timing are not allowed",
     class_symbols({"St6chrono"},
                   {"clock", "clock_gettime*", "clock_getres", "time", "gettimeofday", "times",
                    "timespec_get", "ftime", "sleep", "usleep", "nanosleep", "clock_nanosleep",
                    "getrusage", "cudaEventElapsedTime*"})},
    {"dynamic loading is not allowed",
     {"dlopen", "dlsym", "dlvsym", "dlclose", "dlerror", "dladdr*", "dlmopen", "dlinfo",
      "cudaGetDriverEntryPoint*", "__cudaGetProcAddress", "cuGetProcAddress*"}},
    {"threads are not allowed",
     class_symbols({"St6thread", "St13__future_base"},
                   {"pthread_*", "thrd_*", "omp_*", "GOMP_*", "sched_*", "__tls_get_addr"})},
    {"streams, events and graphs are not allowed",
     {"cudaStream*", "cudaEvent*", "cudaGraph*", "cudaLaunchHostFunc*", "cudaLaunchKernelExC*",
      "cudaLaunchCooperativeKernel*", "cudaUserObject*", "cudaThreadExchangeStreamCaptureMode"}},
    {"asynchronous copies, host memory and unified memory are not allowed",
     {"cuda*Async*", "cudaMallocManaged", "cudaMallocHost", "cudaHostAlloc", "cudaHostRegister",
      "cudaHostUnregister", "cudaHostGetDevicePointer", "cudaFreeHost", "cudaMemAdvise*",
      "cudaMemPool*", "__cudaRegisterManagedVar", "__cudaInitModule", "cudaMallocArray",
      "cudaMalloc3D*"}},
    // Device-wide settings would leak into the runs of later kernels.
    {"device management belongs to the grader",
     {"cudaSetDevice", "cudaSetDeviceFlags", "cudaDeviceReset", "cudaDeviceSetLimit",
      "cudaDeviceSetCacheConfig", "cudaDeviceSetSharedMemConfig", "cudaDeviceSetMemPool",
      "cudaIpc*", "cudaProfiler*", "cudaCtx*", "cudaInitDevice"}},
};
// clang-format on

bool allowed(std::string_view name, backend target) {
  return matches_any(name, allowed_cuda) || matches_any(name, allowed_c) ||
         matches_any(name, allowed_cxx) || matches_any(name, allowed_math) ||
         (target == backend::emu && matches_any(name, allowed_emu));
}

} // namespace

std::optional<std::string> undefined_symbol_problem(std::string_view mangled, backend target) {
  if (allowed(mangled, target)) {
    return std::nullopt;
  }
  for (const category& entry : forbidden_categories) {
    if (matches_any(mangled, entry.patterns)) {
      return std::string(entry.reason);
    }
  }
  return std::string("not on the allowlist");
}

std::optional<std::string> reserved_name_problem(std::string_view mangled) {
  if (mangled == "main") {
    return std::string("which the grader owns");
  }
  if (matches(mangled, "cugrade*") || matches(mangled, "_ZN7cugrade*")) {
    return std::string("a name reserved for the grader");
  }
  const bool driver_name = mangled.size() > 2 && mangled.substr(0, 2) == "cu" &&
                           std::isupper(static_cast<unsigned char>(mangled[2])) != 0;
  if (driver_name || matches(mangled, "cuda*") || matches(mangled, "__cuda*")) {
    return std::string("a name reserved for CUDA");
  }
  return std::nullopt;
}

} // namespace cugrade::build
