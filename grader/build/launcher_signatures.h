#pragma once
/// \file
/// Checking each launcher's signature against the contract at build time. The compiler reads the
/// contract's declarations first (a force-included header): every launcher declared `extern "C"`
/// inside namespace cugrade_contract. A C function is one function whatever namespace declares
/// it, so a student's `extern "C"` launcher with other parameter types draws a diagnostic from
/// the compiler (gcc and nvcc's front end warn, clang errs), while a launcher without extern "C"
/// is another function and stays a missing launcher. The diagnostics are taken out of the log
/// here and replaced by one error per launcher that shows both signatures. Leaving out `const` on
/// an input pointer (`float* M` for `const float* M`) is accepted: the inputs are read-only by
/// contract, the runner checks that they are unchanged, and the two are the same to the caller.

#include "harness/core/result.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::build {

/// The header's file name in the work dir.
inline constexpr std::string_view contract_header_name = "cugrade_contract.h";

/// The header declaring every launcher with `parameters` ("const float* M, ..., int l").
[[nodiscard]] std::string contract_header(const std::vector<std::string>& launchers,
                                          const std::string& parameters);

/// Writes contract_header() into `work_dir`; returns its path.
[[nodiscard]] result<std::filesystem::path>
write_contract_header(const std::filesystem::path& work_dir,
                      const std::vector<std::string>& launchers, const std::string& parameters);

/// `compile` without the flags that force-include the contract's header.
[[nodiscard]] std::vector<std::string> without_contract(std::vector<std::string> compile);

/// A launcher the student declared with other parameters than the contract's.
struct signature_conflict {
  std::string launcher;
  int line = 0;
  std::string declared; ///< as written, e.g. "void matmul_naive(double* M, int j)"
  bool only_input_constness = false;
};

/// What a compile's log says about the contract's declarations.
struct signature_check {
  std::vector<signature_conflict> conflicts; ///< one per launcher, in log order
  std::string log;                           ///< the log without those diagnostics
};

/// Finds, in a trimmed log (compile_log.h: the student's file named by its file name), the
/// diagnostics that involve the contract's header or namespace, and takes them out.
[[nodiscard]] signature_check check_signatures(std::string_view log, std::string_view student_file,
                                               std::string_view source_text,
                                               const std::vector<std::string>& launchers,
                                               const std::string& parameters);

/// The error a conflict is reported as, located like a compiler's: "matmul.cu:40: error:
/// matmul_naive is declared as `void matmul_naive(const float* M, int j)`; the contract's is
/// `void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l)`".
[[nodiscard]] std::string conflict_error(const signature_conflict& conflict,
                                         std::string_view student_file,
                                         const std::string& parameters);

/// The errors of the conflicts that are not accepted (all but a left-out input const), one line
/// each, or empty.
[[nodiscard]] std::string refused_conflicts(const signature_check& check,
                                            std::string_view student_file,
                                            const std::string& parameters);

/// The declaration of `launcher` at `line` of the source (or the next lines) as written, its
/// whitespace squeezed: "void matmul_naive(float* M, float* N, float* P, int j, int k, int l)".
/// Empty when the name is not there.
[[nodiscard]] std::string declaration_as_written(std::string_view source_text, int line,
                                                 const std::string& launcher);

/// Whether `declared` (declaration_as_written) returns void and differs from the contract's
/// `parameters` only by leaving out `const` on pointers the contract makes const.
[[nodiscard]] bool differs_only_in_input_constness(const std::string& declared,
                                                   const std::string& parameters);

} // namespace cugrade::build
