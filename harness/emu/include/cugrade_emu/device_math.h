#pragma once
/// \file
/// CUDA's device math: the fast intrinsics (`__expf`, `__fdividef`, ...) computed with the
/// ordinary libm functions (more accurate than a GPU's, never less), rounding-mode variants as
/// round-to-nearest, bit-casting and integer intrinsics, and CUDA's `min`/`max` overload set
/// (non-templates, so they win over std::min under `using namespace std`, as with nvcc).

#include <math.h>
#include <stdlib.h>

#include <cstdint>

#include "cugrade_emu/shared_access.h"

inline float rsqrtf(float x) {
  return 1.0f / sqrtf(x);
}
// CUDA overloads rsqrt for float too, so rsqrt of an int is ambiguous there as here.
inline float rsqrt(float x) {
  return 1.0f / sqrtf(x);
}
inline double rsqrt(double x) {
  return 1.0 / sqrt(x);
}
inline float rcbrtf(float x) {
  return 1.0f / cbrtf(x);
}
inline float fdividef(float a, float b) {
  return a / b;
}
inline float __fdividef(float a, float b) {
  return a / b;
}
inline float __expf(float x) {
  return expf(x);
}
inline float __exp10f(float x) {
  return powf(10.0f, x);
}
inline float __logf(float x) {
  return logf(x);
}
inline float __log2f(float x) {
  return log2f(x);
}
inline float __log10f(float x) {
  return log10f(x);
}
inline float __sinf(float x) {
  return sinf(x);
}
inline float __cosf(float x) {
  return cosf(x);
}
inline float __tanf(float x) {
  return tanf(x);
}
inline float __powf(float a, float b) {
  return powf(a, b);
}
inline void __sincosf(float x, float* s, float* c) {
  *s = sinf(x);
  *c = cosf(x);
}
inline float exp10f(float x) {
  return powf(10.0f, x);
}
inline float __saturatef(float x) {
  return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}

// Rounding-mode arithmetic: only round-to-nearest exists on the CPU path; the others are
// computed the same way (documented difference).
#define CUGRADE_EMU_ROUNDED(suffix)                                                                \
  inline float __fadd_##suffix(float a, float b) {                                                 \
    return a + b;                                                                                  \
  }                                                                                                \
  inline float __fsub_##suffix(float a, float b) {                                                 \
    return a - b;                                                                                  \
  }                                                                                                \
  inline float __fmul_##suffix(float a, float b) {                                                 \
    return a * b;                                                                                  \
  }                                                                                                \
  inline float __fdiv_##suffix(float a, float b) {                                                 \
    return a / b;                                                                                  \
  }                                                                                                \
  inline float __fmaf_##suffix(float a, float b, float c) {                                        \
    return fmaf(a, b, c);                                                                          \
  }                                                                                                \
  inline float __frcp_##suffix(float a) {                                                          \
    return 1.0f / a;                                                                               \
  }                                                                                                \
  inline float __fsqrt_##suffix(float a) {                                                         \
    return sqrtf(a);                                                                               \
  }                                                                                                \
  inline double __dadd_##suffix(double a, double b) {                                              \
    return a + b;                                                                                  \
  }                                                                                                \
  inline double __dsub_##suffix(double a, double b) {                                              \
    return a - b;                                                                                  \
  }                                                                                                \
  inline double __dmul_##suffix(double a, double b) {                                              \
    return a * b;                                                                                  \
  }                                                                                                \
  inline double __ddiv_##suffix(double a, double b) {                                              \
    return a / b;                                                                                  \
  }                                                                                                \
  inline double __fma_##suffix(double a, double b, double c) {                                     \
    return fma(a, b, c);                                                                           \
  }
CUGRADE_EMU_ROUNDED(rn)
CUGRADE_EMU_ROUNDED(rz)
CUGRADE_EMU_ROUNDED(ru)
CUGRADE_EMU_ROUNDED(rd)
#undef CUGRADE_EMU_ROUNDED

inline int __float_as_int(float x) {
  return __builtin_bit_cast(int, x);
}
inline unsigned int __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned int, x);
}
inline float __int_as_float(int x) {
  return __builtin_bit_cast(float, x);
}
inline float __uint_as_float(unsigned int x) {
  return __builtin_bit_cast(float, x);
}
inline long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x);
}
inline double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x);
}

inline int __float2int_rn(float x) {
  return static_cast<int>(nearbyintf(x));
}
inline int __float2int_rz(float x) {
  return static_cast<int>(x);
}
inline int __float2int_ru(float x) {
  return static_cast<int>(ceilf(x));
}
inline int __float2int_rd(float x) {
  return static_cast<int>(floorf(x));
}
inline unsigned int __float2uint_rn(float x) {
  return static_cast<unsigned int>(nearbyintf(x));
}
inline unsigned int __float2uint_rz(float x) {
  return static_cast<unsigned int>(x);
}
inline float __int2float_rn(int x) {
  return static_cast<float>(x);
}
inline float __uint2float_rn(unsigned int x) {
  return static_cast<float>(x);
}
inline float __double2float_rn(double x) {
  return static_cast<float>(x);
}

namespace cugrade::emu::detail {
/// `exact` (an integer, exact in a long double) rounded to a float: nearest even ('n'), toward
/// zero ('z'), up ('u') or down ('d'), as the _rn, _rz, _ru and _rd conversions round.
inline float rounded_float(long double exact, char mode) {
  float f = static_cast<float>(exact);
  if (mode == 'z' && fabsl(f) > fabsl(exact)) {
    f = nextafterf(f, 0.0f);
  } else if (mode == 'u' && f < exact) {
    f = nextafterf(f, __builtin_inff());
  } else if (mode == 'd' && f > exact) {
    f = nextafterf(f, -__builtin_inff());
  }
  return f;
}
/// A float rounded to an integral value in the same four ways.
inline float rounded_integral(float x, char mode) {
  return mode == 'n' ? nearbyintf(x) : mode == 'z' ? truncf(x) : mode == 'u' ? ceilf(x) : floorf(x);
}
} // namespace cugrade::emu::detail

#define CUGRADE_EMU_INT_CONVERSIONS(mode)                                                         \
  inline float __ll2float_r##mode(long long x) {                                                   \
    return cugrade::emu::detail::rounded_float(x, #mode[0]);                                       \
  }                                                                                                \
  inline float __ull2float_r##mode(unsigned long long x) {                                         \
    return cugrade::emu::detail::rounded_float(x, #mode[0]);                                       \
  }                                                                                                \
  inline long long __float2ll_r##mode(float x) {                                                   \
    return static_cast<long long>(cugrade::emu::detail::rounded_integral(x, #mode[0]));            \
  }                                                                                                \
  inline unsigned long long __float2ull_r##mode(float x) {                                         \
    return static_cast<unsigned long long>(cugrade::emu::detail::rounded_integral(x, #mode[0]));   \
  }
CUGRADE_EMU_INT_CONVERSIONS(n)
CUGRADE_EMU_INT_CONVERSIONS(z)
CUGRADE_EMU_INT_CONVERSIONS(u)
CUGRADE_EMU_INT_CONVERSIONS(d)
#undef CUGRADE_EMU_INT_CONVERSIONS
#define CUGRADE_EMU_INT2FLOAT(mode)                                                               \
  inline float __int2float_r##mode(int x) {                                                        \
    return cugrade::emu::detail::rounded_float(x, #mode[0]);                                       \
  }                                                                                                \
  inline float __uint2float_r##mode(unsigned int x) {                                              \
    return cugrade::emu::detail::rounded_float(x, #mode[0]);                                       \
  }
CUGRADE_EMU_INT2FLOAT(z)
CUGRADE_EMU_INT2FLOAT(u)
CUGRADE_EMU_INT2FLOAT(d)
#undef CUGRADE_EMU_INT2FLOAT
inline float __frsqrt_rn(float x) {
  return static_cast<float>(1.0 / sqrt(static_cast<double>(x)));
}

inline int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
inline int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x));
}
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) {
  return __builtin_ffs(x);
}
inline int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  return __builtin_bswap32(x);
}
inline int __mul24(int a, int b) {
  return (a << 8 >> 8) * (b << 8 >> 8);
}
inline unsigned int __umul24(unsigned int a, unsigned int b) {
  return (a & 0xFFFFFFu) * (b & 0xFFFFFFu);
}
inline int __mulhi(int a, int b) {
  return static_cast<int>((static_cast<long long>(a) * b) >> 32);
}
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline unsigned int __sad(int a, int b, unsigned int c) {
  return c + static_cast<unsigned int>(a > b ? a - b : b - a);
}
inline unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a > b ? a - b : b - a);
}
/// The 64-bit value hi:lo shifted, its upper (l) or lower (r) 32 bits: the shift wraps at 32
/// (plain) or is clamped to 32 (the c forms).
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift > 32u ? 32u : shift)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift > 32u ? 32u : shift));
}
/// Byte i of the result is byte (s >> 4i) & 7 of y:x (bytes 0-3 from x, 4-7 from y).
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int out = 0;
  for (unsigned int i = 0; i < 4; ++i) {
    out |= static_cast<unsigned int>((v >> (8u * ((s >> (4u * i)) & 7u))) & 0xFFu) << (8u * i);
  }
  return out;
}
/// Four 8-bit products summed into c.
inline int __dp4a(int a, int b, int c) {
  for (int i = 0; i < 32; i += 8) {
    c += static_cast<signed char>(a >> i) * static_cast<signed char>(b >> i);
  }
  return c;
}
inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (unsigned int i = 0; i < 32; i += 8) {
    c += ((a >> i) & 0xFFu) * ((b >> i) & 0xFFu);
  }
  return c;
}

/// Read-only-cache and cache-hinted loads are plain loads on the CPU, aligned as on a GPU (the
/// line is unknown).
#define CUGRADE_EMU_LOAD(name)                                                                    \
  template <class T> inline T name(const T* p) {                                                   \
    cugrade::emu::detail::check_alignment(*p, cugrade::emu::detail::t_ctx.check_shared, 0);       \
    return *p;                                                                                     \
  }
CUGRADE_EMU_LOAD(__ldg)
CUGRADE_EMU_LOAD(__ldcg)
CUGRADE_EMU_LOAD(__ldca)
CUGRADE_EMU_LOAD(__ldcs)
CUGRADE_EMU_LOAD(__ldlu)
CUGRADE_EMU_LOAD(__ldcv)
#undef CUGRADE_EMU_LOAD
/// Cache-hinted stores: plain stores here, aligned as on a GPU.
#define CUGRADE_EMU_STORE(name)                                                                   \
  template <class T> inline void name(T* p, T value) {                                             \
    cugrade::emu::detail::check_alignment(*p, cugrade::emu::detail::t_ctx.check_shared, 0);       \
    *p = value;                                                                                    \
  }
CUGRADE_EMU_STORE(__stwb)
CUGRADE_EMU_STORE(__stcg)
CUGRADE_EMU_STORE(__stcs)
CUGRADE_EMU_STORE(__stwt)
#undef CUGRADE_EMU_STORE

#define CUGRADE_EMU_MINMAX(R, A, B)                                                                \
  inline R min(A a, B b) {                                                                         \
    return static_cast<R>(a) < static_cast<R>(b) ? a : b;                                          \
  }                                                                                                \
  inline R max(A a, B b) {                                                                         \
    return static_cast<R>(a) > static_cast<R>(b) ? a : b;                                          \
  }
CUGRADE_EMU_MINMAX(int, int, int)
CUGRADE_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
CUGRADE_EMU_MINMAX(unsigned int, int, unsigned int)
CUGRADE_EMU_MINMAX(unsigned int, unsigned int, int)
CUGRADE_EMU_MINMAX(long, long, long)
CUGRADE_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
CUGRADE_EMU_MINMAX(unsigned long, long, unsigned long)
CUGRADE_EMU_MINMAX(unsigned long, unsigned long, long)
CUGRADE_EMU_MINMAX(long long, long long, long long)
CUGRADE_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
CUGRADE_EMU_MINMAX(unsigned long long, long long, unsigned long long)
CUGRADE_EMU_MINMAX(unsigned long long, unsigned long long, long long)
#undef CUGRADE_EMU_MINMAX
// Floating-point min/max ignore a NaN operand, as fminf/fmaxf (and CUDA) do.
inline float min(float a, float b) {
  return fminf(a, b);
}
inline float max(float a, float b) {
  return fmaxf(a, b);
}
inline double min(double a, double b) {
  return fmin(a, b);
}
inline double max(double a, double b) {
  return fmax(a, b);
}
inline double min(float a, double b) {
  return fmin(a, b);
}
inline double max(float a, double b) {
  return fmax(a, b);
}
inline double min(double a, float b) {
  return fmin(a, b);
}
inline double max(double a, float b) {
  return fmax(a, b);
}
inline unsigned int umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
inline unsigned int umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
inline long long llmin(long long a, long long b) {
  return a < b ? a : b;
}
inline long long llmax(long long a, long long b) {
  return a > b ? a : b;
}
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
