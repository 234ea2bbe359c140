// cugrade_emu_cc: rewrites a CUDA source and compiles it for the CPU emulator.
//   cugrade_emu_cc [--include-dir D] [--lib-dir D] <source.cu> <output.so>
// Writes the rewritten C++ next to the output (<output>.cpp), prints the compiler's output and
// exits with the compiler's status. Defaults point into the build tree it was built in.
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>

#include "harness/emu/toolchain.h"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: cugrade_emu_cc [--include-dir D] [--lib-dir D] <source.cu> <output.so>\n");
  return 2;
}

int run(int argc, char** argv) {
  std::filesystem::path include_dir = CUGRADE_EMU_INCLUDE_DIR;
  std::filesystem::path lib_dir = CUGRADE_EMU_LIB_DIR;
  std::string positional[2];
  int count = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--include-dir") == 0 && i + 1 < argc) {
      include_dir = argv[++i];
    } else if (std::strcmp(argv[i], "--lib-dir") == 0 && i + 1 < argc) {
      lib_dir = argv[++i];
    } else if (count < 2) {
      positional[count++] = argv[i];
    } else {
      return usage();
    }
  }
  if (count != 2) {
    return usage();
  }
  const std::filesystem::path output = positional[1];
  const auto built = cugrade::emu::build_submission(positional[0], output.string() + ".cpp", output,
                                                    include_dir, lib_dir);
  if (!built) {
    std::fprintf(stderr, "cugrade_emu_cc: %s\n", built.error().c_str());
    return 2;
  }
  std::fputs(built->log.c_str(), stderr);
  return built->exit_status;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cugrade_emu_cc: %s\n", e.what());
    return 2;
  }
}
