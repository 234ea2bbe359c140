#include "grader/build/compile_log.h"

#include <gtest/gtest.h>

using namespace cugrade::build;

TEST(CompileLog, PointsNvccMessagesAtTheStudentsFile) {
  const log_context context{"/srv/sub/alice/matmul.cu", "", "/tmp/cugrade-work/alice"};
  const std::string raw =
      "/srv/sub/alice/matmul.cu(8): error: identifier \"sum\" is undefined\n"
      "      sum += M[row * k + i];\n"
      "      ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "\n\n"
      "1 error detected in the compilation of \"/srv/sub/alice/matmul.cu\".\n";
  EXPECT_EQ(trim_compile_log(raw, context),
            "matmul.cu:8: error: identifier \"sum\" is undefined\n"
            "      sum += M[row * k + i];\n"
            "      ^\n"
            "\n"
            "1 error detected in the compilation of \"matmul.cu\".");
}

TEST(CompileLog, NamesTheStudentsFileInsteadOfTheEmulatorsRewrite) {
  const log_context context{"/srv/sub/bob/matmul.cu", "/tmp/w/matmul.emu.cpp", "/tmp/w"};
  const std::string raw = "/tmp/w/matmul.emu.cpp:12:5: error: 'x' was not declared\n"
                          "/usr/bin/ld: cannot find /tmp/w/matmul.o\n";
  EXPECT_EQ(trim_compile_log(raw, context),
            "matmul.cu:12:5: error: 'x' was not declared\n/usr/bin/ld: cannot find matmul.o");
}

TEST(CompileLog, CapsLongLogsAtALineAndSaysHowMuchIsLeftOut) {
  std::string raw;
  for (int i = 0; i < 1000; ++i) {
    raw += "matmul.cu:" + std::to_string(i) + ": warning: something\n";
  }
  const std::string trimmed = trim_compile_log(raw, log_context{"matmul.cu", "", ""}, 200);
  EXPECT_LT(trimmed.size(), 300u);
  EXPECT_EQ(trimmed.rfind("matmul.cu:0: warning: something\n", 0), 0u);
  EXPECT_NE(trimmed.find("more bytes of compiler output ...]"), std::string::npos) << trimmed;
}
