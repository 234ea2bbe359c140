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

/// Read-only-cache loads are plain loads on the CPU, aligned as on a GPU (the line is unknown).
template <class T> inline T __ldg(const T* p) {
  cugrade::emu::detail::check_alignment(*p, cugrade::emu::detail::t_ctx.check_shared, 0);
  return *p;
}
template <class T> inline T __ldcg(const T* p) {
  cugrade::emu::detail::check_alignment(*p, cugrade::emu::detail::t_ctx.check_shared, 0);
  return *p;
}
template <class T> inline T __ldca(const T* p) {
  cugrade::emu::detail::check_alignment(*p, cugrade::emu::detail::t_ctx.check_shared, 0);
  return *p;
}
template <class T> inline T __ldcs(const T* p) {
  cugrade::emu::detail::check_alignment(*p, cugrade::emu::detail::t_ctx.check_shared, 0);
  return *p;
}

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
