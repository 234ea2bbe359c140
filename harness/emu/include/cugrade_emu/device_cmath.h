#pragma once
/// \file
/// The C math functions as device code sees them with nvcc. CUDA gives device code their float
/// and double overloads only; an integer argument (`log2(blockDim.x)`, `sqrt(n)`, `ceil(n / 2)`)
/// or a float mixed with a double (`fmax(x, 0.0)`) reaches libstdc++'s constexpr host template
/// instead, and nvcc stops: "calling a constexpr __host__ function("log2") from a __global__
/// function is not allowed". g++ accepts both, so the rewriter sends the calls of __global__
/// and __device__ functions here (never host code's, nor __host__ __device__ functions', where
/// nvcc only warns): float and double compute as before, and every other argument type is a
/// deleted overload, a build error at the student's line that compile_messages rephrases.
/// `pow` is not here: CUDA's overloads accept integers.

#include <math.h>

#include <type_traits>

namespace cugrade::emu::detail {
/// Nanoseconds of the host's monotonic clock (the emulator's runtime library).
__attribute__((visibility("default"))) long long device_clock();
/// Device code's heap: the host's, each block remembered as memory a kernel may reach
/// (src/memory_reach.cpp), as a GPU's device heap is.
__attribute__((visibility("default"))) void* device_malloc(unsigned long bytes);
__attribute__((visibility("default"))) void device_free(void* p);
} // namespace cugrade::emu::detail

namespace cugrade::emu::device_cmath {

template <class T>
concept not_float_or_double =
    std::is_arithmetic_v<T> && !std::is_same_v<T, float> && !std::is_same_v<T, double>;
template <class A, class B>
concept not_one_floating_type = std::is_arithmetic_v<A> && std::is_arithmetic_v<B> &&
                                !(std::is_same_v<A, B> && !not_float_or_double<A>);
template <class A, class B>
concept not_two_floating = std::is_arithmetic_v<A> && std::is_arithmetic_v<B> &&
                           (not_float_or_double<A> || not_float_or_double<B>);

#define CUGRADE_EMU_DEVICE_UNARY(name, float_result, double_result)                                \
  inline float_result name(float x) {                                                              \
    return ::name##f(x);                                                                           \
  }                                                                                                \
  inline double_result name(double x) {                                                            \
    return ::name(x);                                                                              \
  }                                                                                                \
  template <not_float_or_double T> double name(T) = delete;
// Two floats or two doubles: what every two-argument function takes in device code.
#define CUGRADE_EMU_DEVICE_SAME_TYPES(name)                                                        \
  inline float name(float a, float b) {                                                            \
    return ::name##f(a, b);                                                                        \
  }                                                                                                \
  inline double name(double a, double b) {                                                         \
    return ::name(a, b);                                                                           \
  }
#define CUGRADE_EMU_DEVICE_BINARY(name)                                                            \
  CUGRADE_EMU_DEVICE_SAME_TYPES(name)                                                              \
  template <class A, class B>                                                                      \
    requires not_one_floating_type<A, B>                                                           \
  double name(A, B) = delete;
// copysign: CUDA overloads it for a float and a double too; integers stay refused.
#define CUGRADE_EMU_DEVICE_BINARY_MIXED(name)                                                      \
  CUGRADE_EMU_DEVICE_SAME_TYPES(name)                                                              \
  inline double name(float a, double b) {                                                          \
    return ::name(static_cast<double>(a), b);                                                      \
  }                                                                                                \
  inline double name(double a, float b) {                                                          \
    return ::name(a, static_cast<double>(b));                                                      \
  }                                                                                                \
  template <class A, class B>                                                                      \
    requires not_two_floating<A, B>                                                                \
  double name(A, B) = delete;

CUGRADE_EMU_DEVICE_UNARY(sqrt, float, double)
CUGRADE_EMU_DEVICE_UNARY(cbrt, float, double)
CUGRADE_EMU_DEVICE_UNARY(exp, float, double)
CUGRADE_EMU_DEVICE_UNARY(exp2, float, double)
CUGRADE_EMU_DEVICE_UNARY(expm1, float, double)
CUGRADE_EMU_DEVICE_UNARY(log, float, double)
CUGRADE_EMU_DEVICE_UNARY(log2, float, double)
CUGRADE_EMU_DEVICE_UNARY(log10, float, double)
CUGRADE_EMU_DEVICE_UNARY(log1p, float, double)
CUGRADE_EMU_DEVICE_UNARY(logb, float, double)
CUGRADE_EMU_DEVICE_UNARY(ilogb, int, int)
CUGRADE_EMU_DEVICE_UNARY(sin, float, double)
CUGRADE_EMU_DEVICE_UNARY(cos, float, double)
CUGRADE_EMU_DEVICE_UNARY(tan, float, double)
CUGRADE_EMU_DEVICE_UNARY(asin, float, double)
CUGRADE_EMU_DEVICE_UNARY(acos, float, double)
CUGRADE_EMU_DEVICE_UNARY(atan, float, double)
CUGRADE_EMU_DEVICE_UNARY(sinh, float, double)
CUGRADE_EMU_DEVICE_UNARY(cosh, float, double)
CUGRADE_EMU_DEVICE_UNARY(tanh, float, double)
CUGRADE_EMU_DEVICE_UNARY(asinh, float, double)
CUGRADE_EMU_DEVICE_UNARY(acosh, float, double)
CUGRADE_EMU_DEVICE_UNARY(atanh, float, double)
CUGRADE_EMU_DEVICE_UNARY(ceil, float, double)
CUGRADE_EMU_DEVICE_UNARY(floor, float, double)
CUGRADE_EMU_DEVICE_UNARY(round, float, double)
CUGRADE_EMU_DEVICE_UNARY(trunc, float, double)
CUGRADE_EMU_DEVICE_UNARY(rint, float, double)
CUGRADE_EMU_DEVICE_UNARY(nearbyint, float, double)
CUGRADE_EMU_DEVICE_UNARY(fabs, float, double)
CUGRADE_EMU_DEVICE_UNARY(erf, float, double)
CUGRADE_EMU_DEVICE_UNARY(erfc, float, double)
CUGRADE_EMU_DEVICE_UNARY(tgamma, float, double)
CUGRADE_EMU_DEVICE_UNARY(lgamma, float, double)
CUGRADE_EMU_DEVICE_UNARY(lround, long, long)
CUGRADE_EMU_DEVICE_UNARY(llround, long long, long long)
CUGRADE_EMU_DEVICE_UNARY(lrint, long, long)
CUGRADE_EMU_DEVICE_UNARY(llrint, long long, long long)
CUGRADE_EMU_DEVICE_BINARY(fmod)
CUGRADE_EMU_DEVICE_BINARY(fmax)
CUGRADE_EMU_DEVICE_BINARY(fmin)
CUGRADE_EMU_DEVICE_BINARY(atan2)
CUGRADE_EMU_DEVICE_BINARY(hypot)
CUGRADE_EMU_DEVICE_BINARY_MIXED(copysign)
CUGRADE_EMU_DEVICE_BINARY(fdim)
CUGRADE_EMU_DEVICE_BINARY(remainder)
CUGRADE_EMU_DEVICE_BINARY(nextafter)

#undef CUGRADE_EMU_DEVICE_UNARY
#undef CUGRADE_EMU_DEVICE_BINARY
#undef CUGRADE_EMU_DEVICE_BINARY_MIXED
#undef CUGRADE_EMU_DEVICE_SAME_TYPES

/// The SM's cycle counter, as device code reads it (`clock()`, `clock64()`): here the host's
/// monotonic clock in nanoseconds, a counter that only grows. In host code `clock()` stays the C
/// library's, which the contract forbids in launchers.
inline long clock() {
  return static_cast<long>(::cugrade::emu::detail::device_clock());
}
inline long long clock64() {
  return ::cugrade::emu::detail::device_clock();
}

/// `malloc` and `free` in device code: the device heap's (device_malloc).
inline void* malloc(unsigned long bytes) {
  return ::cugrade::emu::detail::device_malloc(bytes);
}
inline void free(void* p) {
  ::cugrade::emu::detail::device_free(p);
}

} // namespace cugrade::emu::device_cmath
