#pragma once
/// \file
/// Helpers the problem definitions share: buffers, argument checks, chunked generation and
/// the cast from a launcher's address to its contract signature.

#include "harness/problems/parallel.h"
#include "harness/problems/problem.h"
#include "harness/problems/rng.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::problems {

/// The size-limit advice (advice_topic::size_limit) for a kind with no more particular cause: the
/// usual ways a kernel covers a fixed amount of work.
[[nodiscard]] std::string fixed_work_advice();

/// A buffer of `count` zeroed elements.
[[nodiscard]] buffer make_buffer(element_type type, std::size_t count);

/// Throws unless the case belongs to `p`, names one of its distributions and has a valid shape.
void require_case(const problem& p, const test_case& c);
/// Throws unless `inputs` match p.inputs(c.dims) in number, types and counts.
void require_inputs(const problem& p, const test_case& c, const std::vector<buffer>& inputs);
/// Throws unless `actual` and `expected` both match p.output(c.dims).
void require_output(const problem& p, const test_case& c, const std::vector<double>& expected,
                    const buffer& actual);
/// Throws unless there is one device pointer per input and an output pointer.
void require_pointers(const problem& p, const shape& s, const std::vector<void*>& inputs,
                      const void* output);

/// Fills `out` with fill(chunk_span, rng), one fresh generator per chunk.
template <class T, class Fill> void fill_chunked(std::span<T> out, std::uint64_t seed, Fill fill) {
  const std::size_t chunks = chunk_count(out.size());
  for_parts(chunks, part_count(chunks, 4), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t c = begin; c < end; ++c) {
      const std::size_t first = c * generation_chunk;
      auto rng = chunk_stream(seed, c);
      fill(out.subspan(first, std::min(generation_chunk, out.size() - first)), rng);
    }
  });
}

/// The launcher's address as a pointer to its contract signature `Fn`. A memcpy rather than a
/// cast: object-to-function pointer casts are only conditionally supported by ISO C++.
template <class Fn> [[nodiscard]] Fn* as_launcher(void* address) {
  static_assert(sizeof(Fn*) == sizeof(void*));
  Fn* fn = nullptr;
  std::memcpy(&fn, &address, sizeof fn);
  return fn;
}

/// How the contract spells a launcher's parameter type; only the types launchers take.
template <class T> struct c_type_name;
template <> struct c_type_name<int> { static constexpr std::string_view value = "int"; };
template <> struct c_type_name<long> { static constexpr std::string_view value = "long"; };
template <> struct c_type_name<float*> { static constexpr std::string_view value = "float*"; };
template <> struct c_type_name<const float*> {
  static constexpr std::string_view value = "const float*";
};
template <> struct c_type_name<unsigned int*> {
  static constexpr std::string_view value = "unsigned int*";
};
template <> struct c_type_name<const unsigned char*> {
  static constexpr std::string_view value = "const unsigned char*";
};

/// The parameter list of a launcher of type `Fn` (void(Args...)) with these names:
/// launcher_signature<void(const float*, long)>::parameters({"input", "n"}) is
/// "const float* input, long n".
template <class Fn> struct launcher_signature;
template <class... Args> struct launcher_signature<void(Args...)> {
  static std::string parameters(const std::array<std::string_view, sizeof...(Args)>& names) {
    const std::array<std::string_view, sizeof...(Args)> types{c_type_name<Args>::value...};
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
      out += std::string(i == 0 ? "" : ", ") + std::string(types[i]) + " " + std::string(names[i]);
    }
    return out;
  }
};
/// Rows (or items) per thread part so that each part does at least ~2^18 inner operations.
[[nodiscard]] std::size_t min_rows_per_part(std::size_t work_per_row);

} // namespace cugrade::problems
