#pragma once
/// \file
/// Which kernels can run as region forms, and how they split (docs/emulation.md, "Region
/// forms"). A region form runs a block's threads one after another through each stretch of code
/// between two __syncthreads(), instead of switching fibers at every barrier; the emulator uses it
/// for the blocks it does not check. A kernel has one when every barrier is a statement of its
/// body, or of the body of a `for` loop there whose header every thread computes alike, and when
/// nothing in it or in what it calls waits for other threads in any other way (warp primitives,
/// cooperative groups, spin locks, volatile shared memory) or leaves a region early (a `return`
/// in a kernel with barriers). Anything else keeps the fibers: the analysis says no whenever it
/// is unsure.

#include <cstddef>
#include <string>
#include <vector>

#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {

/// A stretch of a body's statements: a run of statements with no barrier, a barrier statement,
/// or a `for` loop whose body holds barriers.
struct region_piece {
  enum class kind { run, barrier, loop };
  kind what = kind::run;
  std::size_t first = 0; ///< token index of its first token
  std::size_t last = 0;  ///< token index of its last token (`;` or `}`)
  /// A run: the names its statements declare at their own level, with the token of each name.
  std::vector<std::pair<std::string, std::size_t>> declared;
  /// A loop: `for` `(` ... `)` and its body's braces, and the pieces of its body.
  std::size_t header_close = 0;
  std::size_t body_open = 0;
  std::size_t body_close = 0;
  std::vector<region_piece> body;
};

/// A kernel with a region form.
struct region_kernel {
  std::string name;
  std::size_t params_open = 0; ///< token index of its parameter list's `(`
  std::size_t body_open = 0;
  std::size_t body_close = 0;
  /// The rewriter's `__cugrade_chk` declaration at the top of the body, if any: [first, last].
  std::size_t check_first = 0;
  std::size_t check_last = 0;
  bool has_check = false;
  std::vector<region_piece> pieces;
};

/// The kernels of the (already rewritten) file that have a region form.
std::vector<region_kernel> region_kernels(const rewrite_context& ctx);

/// `#line N "file"` and a newline, the file name quoted as C++ wants it.
std::string line_directive(int line, std::string_view file_name);

/// The rewritten file with the region form of each kernel that has one, compiled unless
/// CUGRADE_EMU_NO_REGIONS is defined, after the kernel; line numbers stay the student's.
std::string add_region_forms(std::string_view rewritten, std::string_view file_name);

} // namespace cugrade::emu::detail
