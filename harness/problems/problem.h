#pragma once
/// \file
/// Problem definitions: what "correct" means for each kind of kernel the course teaches.
///
/// One `problem` per kind (matmul, histogram, reduction) owns input generation from a 64-bit seed,
/// the CPU reference (double accumulation; exact integers), the comparison and its tolerance
/// policy, the test shapes, and FLOP/byte counts. Host-only C++: the runner (which runs student
/// code) uses it to generate inputs and call launchers; the grader (which never runs student
/// code) uses it to compute references and compare.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::problems {

enum class kind { matmul, histogram, reduction };

[[nodiscard]] std::string_view to_string(kind k);
[[nodiscard]] std::optional<kind> kind_from_string(std::string_view name);

/// Sizes of one case: matmul uses j, k, l (M is j x k, N is k x l); histogram and reduction use n.
struct shape {
  long j = 0;
  long k = 0;
  long l = 0;
  long n = 0;
  bool operator==(const shape&) const = default;
};

/// "17x33x9" for matmul, "n=1000" otherwise.
[[nodiscard]] std::string describe(kind k, const shape& s);

enum class element_type { f32, u8, u32 };
[[nodiscard]] std::size_t element_size(element_type t);

/// One device buffer a launcher receives.
struct buffer_spec {
  std::string name;
  element_type type = element_type::f32;
  std::size_t count = 0;
};

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
  kind problem = kind::matmul;
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

  [[nodiscard]] virtual kind id() const = 0;
  /// The contract's launcher names, e.g. {"matmul_naive", "matmul_tiled", "matmul_dynamic"}.
  [[nodiscard]] virtual std::vector<std::string> launchers() const = 0;
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
  /// The exact answer, one double per output element (double accumulation; integers exact).
  [[nodiscard]] virtual std::vector<double> reference(const test_case& c,
                                                      const std::vector<buffer>& inputs) const = 0;
  /// Compares `actual` with `expected` under the tolerance policy (see docs/tolerances.md).
  [[nodiscard]] virtual comparison compare(const test_case& c, const std::vector<buffer>& inputs,
                                           const std::vector<double>& expected,
                                           const buffer& actual) const = 0;
  [[nodiscard]] virtual work_counts work(const shape& s) const = 0;

  /// Calls a launcher with this problem's contract signature. `launcher` is the address of the
  /// student's `extern "C"` function; pointers are device pointers. Runner side only.
  virtual void invoke(void* launcher, const std::vector<void*>& device_inputs, void* device_output,
                      const shape& s) const = 0;
};

/// The definition of one kind; lives for the whole program.
[[nodiscard]] const problem& get(kind k);

/// Concrete cases from templates: names are "<describe(shape)>/<distribution>" and each seed is
/// derived from `base_seed` and the name, so adding a case never changes another's inputs.
[[nodiscard]] std::vector<test_case> make_cases(kind k, const std::vector<case_template>& templates,
                                                std::uint64_t base_seed);

/// Every edge shape crossed with every distribution.
[[nodiscard]] std::vector<case_template> edge_templates(kind k);

} // namespace cugrade::problems
