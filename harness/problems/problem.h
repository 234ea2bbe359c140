#pragma once
/// \file
/// Problem definitions: what "correct" means for each kind of kernel the course teaches.
///
/// The registry of problem kinds. One `problem` per kind owns everything about itself: its shape
/// parameters (named; their text and JSON forms follow from the list), input generation from a
/// 64-bit seed, the CPU reference (double accumulation; exact integers), the comparison and its
/// tolerance policy, the test, benchmark and sanitizer shapes, FLOP/byte counts and whether it is
/// compute- or memory-bound, how a timed output is checked, and the words of its hints. Its
/// library ceiling lives in harness/roofline/ceilings/<name>.cu (CUDA, picked up by name).
/// Everything else asks this registry (`all()`, `get()`, `find_kind()`); no list of problem names
/// and no `switch` over kinds exists outside harness/problems/. A kind is not an enum: it is a
/// registered problem, named by its `name()`, and only the registry makes one (`find_kind()`,
/// `kind_named()`, `problem::id()`), so no spelling of a name that is not registered becomes a
/// kind. Adding a kind: a `<name>_problem` pair here (CMakeLists.txt globs its source) and its
/// line in `all()` (problem.cpp, the one registration list); docs/architecture.md lists the rest.
///
/// Host-only C++: the runner (which runs student code) uses it to generate inputs and call
/// launchers; the grader (which never runs student code) uses it to compute references and
/// compare.

#include "harness/core/result.h"
#include "harness/problems/float_fill.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::problems {

class problem;

/// A problem kind: one registered problem, written by its name ("matmul") in specs, plans, case
/// keys and reports. A small value (the registered problem's address): equal when the problem is
/// the same, `get()` without a search. Only the registry makes one, so every kind that exists is
/// registered; a default-constructed kind is "no kind", which compares unequal to every
/// registered one and makes `get()`, `to_string()` and `require_case()` throw: a case, plan or
/// spec whose kind was never set is a bug caught where it is first used, never a silent matmul.
class kind {
public:
  kind() = default;
  /// Whether this is a registered kind (false only for a default-constructed one).
  [[nodiscard]] bool registered() const noexcept { return m_problem != nullptr; }
  friend bool operator==(kind, kind) noexcept = default;

private:
  friend class problem;
  explicit kind(const problem& p) noexcept : m_problem(&p) {}
  friend const problem& get(kind k);
  const problem* m_problem = nullptr;
};

/// The kind's registered name, e.g. "matmul".
[[nodiscard]] std::string_view to_string(kind k);
/// The kind registered under `name`, or an error that names every registered kind.
[[nodiscard]] result<kind> find_kind(std::string_view name);
/// The kind registered under `name`; throws (cugrade::error, naming every registered kind) for
/// a name that is not registered. For names the program itself spells, such as tests'.
[[nodiscard]] kind kind_named(std::string_view name);

/// Sizes of one case. Which of them a kind uses, and what they mean, is its `shape_params()`
/// (matmul: j, k, l; histogram, reduction, scan: n); the others stay 0.
struct shape {
  long j = 0;
  long k = 0;
  long l = 0;
  long n = 0;
  bool operator==(const shape&) const = default;
};

/// One named size of a kind's shapes: where it lives, its largest value (what the launcher's
/// argument type holds) and an example value for messages.
using size_field = long shape::*;
struct shape_param {
  std::string name;
  size_field field = nullptr;
  long largest = 0;
  long example = 0;
  bool tiled =
      true; ///< a size tiles or blocks cover (not a mask radius): all_multiples_of reads it
};

/// Which roofline ceiling a kind's performance is measured against.
enum class boundness { memory, compute };

/// How the output of a timed (benchmark) call is checked, grader/perf/output_check.cpp:
/// the whole output against the reference; sampled rows of a row-major matrix output (rows of
/// the first input give rows of the output); or a single sum, keeping only sum|x| of the input.
enum class timed_check { whole_output, sampled_rows, single_sum };

/// What the generic hints (grader/core diagnosis) ask a kind to say in its own words.
enum class advice_topic {
  boundary,  ///< the last partial tile/block/section, and what must happen at the edge
  race,      ///< what a race in this kernel most likely is
  barrier,   ///< which __syncthreads() every thread must reach
  size_limit ///< what makes a kernel right only up to some size (a fixed grid, a fixed second
             ///< level)
};

/// "17x33x9" for several parameters (their values joined by x), "n=1000" for one.
[[nodiscard]] std::string describe(kind k, const shape& s);
/// The inverse of describe(); nullopt unless every size is a whole number from 1.
[[nodiscard]] std::optional<shape> parse_description(kind k, std::string_view text);
/// Whether every size of the shape that tiles cover (shape_param::tiled) is a multiple of m.
[[nodiscard]] bool all_multiples_of(kind k, const shape& s, long m);

enum class element_type { f32, u8, u32 };
[[nodiscard]] std::size_t element_size(element_type t);

/// One device buffer a launcher receives.
struct buffer_spec {
  std::string name; ///< as the contract's signature names it: "P", "bins", "input"
  element_type type = element_type::f32;
  std::size_t count = 0;
  std::size_t columns = 0; ///< a row-major matrix's row length (P is j x l: l); 0 for 1-D
};
/// The bytes of a buffer for `spec`: count elements of its type.
[[nodiscard]] std::size_t byte_size(const buffer_spec& spec);

/// Host bytes of one buffer.
struct buffer {
  element_type type = element_type::f32;
  std::vector<std::byte> bytes;

  [[nodiscard]] std::size_t count() const { return bytes.size() / element_size(type); }
  template <class T> [[nodiscard]] std::span<T> as() {
    return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
  template <class T> [[nodiscard]] std::span<const T> as() const {
    return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
};

/// A shape and an input distribution, before a seed makes it a concrete case.
struct case_template {
  shape dims;
  std::string distribution;
};

/// One concrete correctness or benchmark case.
struct test_case {
  std::string name; ///< e.g. "17x33x9/real"; unique within a run
  kind problem;     ///< no default: a case must say its kind (see `kind`)
  shape dims;
  std::string distribution;
  std::uint64_t seed = 0;
};

struct mismatch {
  std::size_t index = 0;
  double expected = 0;
  double got = 0;
};

/// The outcome of comparing one output with the reference.
struct comparison {
  bool passed = false;
  std::size_t mismatches = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  std::optional<mismatch> first;
  std::size_t nan_count = 0;    ///< NaN or Inf elements that are not poison
  std::size_t poison_count = 0; ///< elements still holding the output poison word
  std::size_t element_count = 0;
  /// Problem-specific evidence for diagnosis, e.g. histogram "counts total 990 of n = 1000".
  std::optional<double> total_expected;
  std::optional<double> total_got;
  std::string note;
};

/// Minimal work of one call, for roofline figures.
struct work_counts {
  double flops = 0; ///< floating-point (or counting) operations
  double bytes = 0; ///< bytes that must move to and from device memory at least once
};

/// What the lecture's technique for one kernel moves through global memory on a shape, derived
/// from the reference kernel (reference/<name>.cu): the excess_traffic insight compares a
/// kernel's traffic with it (docs/insight.md, "How causes are ranked").
struct technique_traffic {
  double bytes_per_minimum = 0; ///< global bytes, in whole 32-byte sectors, over work().bytes
  std::string technique;        ///< a plural noun phrase for "... where 16x16 tiles move 5.7x"
  std::string advice;           ///< what to check in a kernel that moves far more
};

/// The CPU emulator's pace on a kind's kernels: what spec sanity (grader/spec/emulation_cost.h)
/// divides a case's work by to estimate, before anything runs, how long it takes in emulation.
struct emulation_pace {
  std::string_view unit;       ///< what the work is counted in, e.g. "multiply-adds"
  double flops_per_unit = 1;   ///< work().flops in one unit: 2 for a multiply-add
  double units_per_second = 0; ///< one emulator worker, set below the pace measured
};

/// The 32-bit word written over every output element before every call: a signalling NaN as a
/// float, an absurd count as an unsigned. Arithmetic never produces it, so an element that still
/// holds it after a call was not written.
inline constexpr std::uint32_t output_poison_word = 0x7fbadbadu;
/// Written after the end of every output (a guard region) to catch stores past the end.
inline constexpr std::uint32_t output_canary_word = 0x7fca11edu;
/// Written after the end of every input, so out-of-bounds reads produce wrong answers.
inline constexpr std::uint32_t input_padding_word = 0x7fc00badu; ///< a quiet NaN as a float
inline constexpr std::uint8_t input_padding_byte = 0xa5u;

class problem {
public:
  virtual ~problem() = default;

  /// This problem as a kind; throws if it is not in the registry's `all()`.
  [[nodiscard]] kind id() const;
  /// The kind's name in specs, reports and case keys, e.g. "matmul".
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// The sizes its shapes have, in their text order; default: n, the number of input elements.
  [[nodiscard]] virtual std::vector<shape_param> shape_params() const;
  /// What the sizes mean, for messages: "shapes have n, the number of input elements".
  [[nodiscard]] virtual std::string shape_words() const;
  /// Small, awkward shapes a sanitizer (10 to 100 times slower) runs in seconds.
  [[nodiscard]] virtual std::vector<shape> sanitizer_shapes() const = 0;
  /// The one shape whose memory behaviour is profiled for insights (docs/insight.md): multiples
  /// of the usual tiles and blocks, so every warp is full, and small enough for the emulator's
  /// warp profiler to count in seconds.
  [[nodiscard]] virtual shape profile_shape() const = 0;
  [[nodiscard]] virtual boundness bound() const { return boundness::memory; }
  [[nodiscard]] virtual timed_check timed_output_check() const { return timed_check::whole_output; }
  /// The kind's words for a generic hint (see advice_topic).
  [[nodiscard]] virtual std::string advice(advice_topic topic) const = 0;
  /// The contract's launcher names, e.g. {"matmul_naive", "matmul_tiled", "matmul_dynamic"}.
  [[nodiscard]] virtual std::vector<std::string> launchers() const = 0;
  /// The parameter list every launcher of this kind has, as the contract writes it: "const
  /// float* M, const float* N, float* P, int j, int k, int l". Spelled from the function type
  /// invoke() calls the launcher as (launcher_signature, support.h), so the two agree.
  [[nodiscard]] virtual std::string launcher_parameters() const = 0;
  /// Names of the input distributions, e.g. {"real", "integer"}.
  [[nodiscard]] virtual std::vector<std::string> distributions() const = 0;
  /// Deliberately awkward shapes: 1, 2, 7, 15, 16, 17, 31, 33, ..., primes, rectangular, large.
  [[nodiscard]] virtual std::vector<shape> edge_shapes() const = 0;
  /// The benchmark cases (large shapes with their distribution).
  [[nodiscard]] virtual std::vector<case_template> benchmark_cases() const = 0;

  /// Inputs in the launcher's argument order.
  [[nodiscard]] virtual std::vector<buffer_spec> inputs(const shape& s) const = 0;
  /// The single output (P, bins or result).
  [[nodiscard]] virtual buffer_spec output(const shape& s) const = 0;

  /// Deterministic inputs: the same case (seed, shape, distribution) gives the same bytes.
  [[nodiscard]] virtual std::vector<buffer> generate(const test_case& c) const = 0;
  /// generate()'s inputs as recipes a device can run itself (float_fill.h), one per input, when
  /// every input is made that way; none otherwise (the default), and the inputs go up from the
  /// host.
  [[nodiscard]] virtual std::optional<std::vector<float_recipe>>
  float_recipes(const test_case& c) const;
  /// The exact answer, one double per output element (double accumulation; integers exact).
  [[nodiscard]] virtual std::vector<double> reference(const test_case& c,
                                                      const std::vector<buffer>& inputs) const = 0;
  /// Compares `actual` with `expected` under the tolerance policy (see docs/tolerances.md).
  [[nodiscard]] virtual comparison compare(const test_case& c, const std::vector<buffer>& inputs,
                                           const std::vector<double>& expected,
                                           const buffer& actual) const = 0;
  [[nodiscard]] virtual work_counts work(const shape& s) const = 0;
  /// What the lecture's technique for `launcher` moves at `s`; none (the default) where no
  /// expectation can be stated, and then no excess_traffic insight is said.
  [[nodiscard]] virtual std::optional<technique_traffic> expected_traffic(std::string_view launcher,
                                                                          const shape& s) const;
  /// How fast the CPU emulator gets through this kind's work with one worker: a round figure
  /// below the reference kernels' measured pace (docs/assignments.md, "Shapes emulation cannot
  /// finish").
  [[nodiscard]] virtual emulation_pace emulated_pace() const = 0;

  /// Calls a launcher with this problem's contract signature. `launcher` is the address of the
  /// student's `extern "C"` function; pointers are device pointers. Runner side only.
  virtual void invoke(void* launcher, const std::vector<void*>& device_inputs, void* device_output,
                      const shape& s) const = 0;
};

/// The definition of one kind; lives for the whole program. Throws for "no kind".
[[nodiscard]] const problem& get(kind k);
/// Every kind, in the registry's order: the one registration list (problem.cpp).
[[nodiscard]] const std::vector<const problem*>& all();
/// Every kind's name, in the registry's order ("matmul", "histogram", ...).
[[nodiscard]] std::vector<std::string> names();

/// Concrete cases from templates: names are "<describe(shape)>/<distribution>" and each seed is
/// derived from `base_seed` and the name, so adding a case never changes another's inputs.
[[nodiscard]] std::vector<test_case> make_cases(kind k, const std::vector<case_template>& templates,
                                                std::uint64_t base_seed);

/// Every edge shape crossed with every distribution.
[[nodiscard]] std::vector<case_template> edge_templates(kind k);

} // namespace cugrade::problems
