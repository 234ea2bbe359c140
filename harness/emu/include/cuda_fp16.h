#pragma once
/// \file
/// Stands in for CUDA's <cuda_fp16.h>: `__half` and `__half2` with the conversions, arithmetic,
/// comparisons and paired operations course code uses, on GCC's `_Float16` (IEEE binary16, as
/// CUDA's half is). Each operation rounds its exact result to the nearest half, as the GPU's half
/// instructions do: GCC computes a `_Float16` operation in float and rounds once, and float holds
/// every sum, product and quotient of two halves closely enough that the rounding is the same.
/// So a kernel that accumulates in half loses what it loses on a GPU, and fails the course's
/// tolerances in emulation as it does there, rather than failing to build. Not here: the
/// directed roundings of arithmetic (`__hadd_rz` ...), half math beyond square root and
/// absolute value, and `__nv_bfloat16` (<cuda_bf16.h>).
#include "cugrade_emu.h"

struct __half {
  _Float16 value;

  __half() = default;
  constexpr __half(float f) : value(static_cast<_Float16>(f)) {}
  constexpr __half(double d) : value(static_cast<_Float16>(d)) {}
  constexpr __half(int i) : value(static_cast<_Float16>(i)) {}
  constexpr __half(unsigned int i) : value(static_cast<_Float16>(i)) {}
  constexpr __half(long long i) : value(static_cast<_Float16>(i)) {}
  constexpr __half(unsigned long long i) : value(static_cast<_Float16>(i)) {}
  constexpr __half(short i) : value(static_cast<_Float16>(i)) {}
  constexpr __half(unsigned short i) : value(static_cast<_Float16>(i)) {}
  constexpr operator float() const { return static_cast<float>(value); }

  __half& operator+=(const __half& o) { value = value + o.value; return *this; }
  __half& operator-=(const __half& o) { value = value - o.value; return *this; }
  __half& operator*=(const __half& o) { value = value * o.value; return *this; }
  __half& operator/=(const __half& o) { value = value / o.value; return *this; }
  __half& operator++() { value = value + static_cast<_Float16>(1); return *this; }
  __half& operator--() { value = value - static_cast<_Float16>(1); return *this; }
};
static_assert(sizeof(__half) == 2 && alignof(__half) == 2);

struct __half2 {
  __half x;
  __half y;
  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  __half2& operator+=(const __half2& o) { x += o.x; y += o.y; return *this; }
  __half2& operator-=(const __half2& o) { x -= o.x; y -= o.y; return *this; }
  __half2& operator*=(const __half2& o) { x *= o.x; y *= o.y; return *this; }
  __half2& operator/=(const __half2& o) { x /= o.x; y /= o.y; return *this; }
};
static_assert(sizeof(__half2) == 4);

typedef __half half;
typedef __half2 half2;

namespace cugrade::emu::detail {
constexpr __half make_half(_Float16 v) {
  __half h{};
  h.value = v;
  return h;
}
} // namespace cugrade::emu::detail

// Arithmetic and comparisons of two halves, each rounded to half.
inline __half operator+(const __half& a, const __half& b) {
  return ::cugrade::emu::detail::make_half(a.value + b.value);
}
inline __half operator-(const __half& a, const __half& b) {
  return ::cugrade::emu::detail::make_half(a.value - b.value);
}
inline __half operator*(const __half& a, const __half& b) {
  return ::cugrade::emu::detail::make_half(a.value * b.value);
}
inline __half operator/(const __half& a, const __half& b) {
  return ::cugrade::emu::detail::make_half(a.value / b.value);
}
inline __half operator-(const __half& a) { return ::cugrade::emu::detail::make_half(-a.value); }
inline __half operator+(const __half& a) { return a; }
inline bool operator==(const __half& a, const __half& b) { return a.value == b.value; }
inline bool operator!=(const __half& a, const __half& b) { return a.value != b.value; }
inline bool operator<(const __half& a, const __half& b) { return a.value < b.value; }
inline bool operator>(const __half& a, const __half& b) { return a.value > b.value; }
inline bool operator<=(const __half& a, const __half& b) { return a.value <= b.value; }
inline bool operator>=(const __half& a, const __half& b) { return a.value >= b.value; }

inline __half2 operator+(const __half2& a, const __half2& b) { return {a.x + b.x, a.y + b.y}; }
inline __half2 operator-(const __half2& a, const __half2& b) { return {a.x - b.x, a.y - b.y}; }
inline __half2 operator*(const __half2& a, const __half2& b) { return {a.x * b.x, a.y * b.y}; }
inline __half2 operator/(const __half2& a, const __half2& b) { return {a.x / b.x, a.y / b.y}; }
inline __half2 operator-(const __half2& a) { return {-a.x, -a.y}; }

// Conversions. The integer and float conversions round to nearest; `_rz`/`_rd`/`_ru` from float
// to half round as named.
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline float __half2float(__half h) { return static_cast<float>(h.value); }
inline __half __int2half_rn(int i) { return __half(i); }
inline __half __uint2half_rn(unsigned int i) { return __half(i); }
inline __half __short2half_rn(short i) { return __half(i); }
inline int __half2int_rn(__half h) { return static_cast<int>(__builtin_rintf(__half2float(h))); }
inline int __half2int_rz(__half h) { return static_cast<int>(__half2float(h)); }
inline int __half2int_rd(__half h) { return static_cast<int>(__builtin_floorf(__half2float(h))); }
inline int __half2int_ru(__half h) { return static_cast<int>(__builtin_ceilf(__half2float(h))); }

inline unsigned short __half_as_ushort(__half h) {
  unsigned short u;
  __builtin_memcpy(&u, &h, 2);
  return u;
}
inline short __half_as_short(__half h) { return static_cast<short>(__half_as_ushort(h)); }
inline __half __ushort_as_half(unsigned short u) {
  __half h;
  __builtin_memcpy(&h, &u, 2);
  return h;
}
inline __half __short_as_half(short s) { return __ushort_as_half(static_cast<unsigned short>(s)); }

namespace cugrade::emu::detail {
// The next half above (`up`) or below `h`: halves are ordered as their magnitude bits, so one
// step is one unit of the encoding, away from zero or towards it by the sign.
inline __half next_half(__half h, bool up) {
  unsigned short bits = __half_as_ushort(h);
  const bool negative = (bits & 0x8000u) != 0;
  if ((bits & 0x7fffu) == 0) {
    bits = up ? 0x0001u : 0x8001u; // from either zero to the smallest subnormal
  } else {
    bits = static_cast<unsigned short>(up != negative ? bits + 1u : bits - 1u);
  }
  return __ushort_as_half(bits);
}
// `f` rounded to half towards zero ('z'), up ('u') or down ('d'), as rounded_float rounds to
// float (device_math.h): the nearest half, stepped back one when it went past.
inline __half rounded_half(float f, char mode) {
  const __half h(f);
  const float v = h;
  if (mode == 'z' && __builtin_fabsf(v) > __builtin_fabsf(f)) {
    return next_half(h, f < 0.0f);
  }
  if (mode == 'u' && v < f) {
    return next_half(h, true);
  }
  if (mode == 'd' && v > f) {
    return next_half(h, false);
  }
  return h;
}
} // namespace cugrade::emu::detail

inline __half __float2half_rz(float f) { return ::cugrade::emu::detail::rounded_half(f, 'z'); }
inline __half __float2half_rd(float f) { return ::cugrade::emu::detail::rounded_half(f, 'd'); }
inline __half __float2half_ru(float f) { return ::cugrade::emu::detail::rounded_half(f, 'u'); }

// Half arithmetic by name.
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) { return a < __half(0.0f) ? -a : a; }
/// One rounding of a*b+c, as the GPU's fused half multiply-add: the exact product of two halves
/// fits a float, so fmaf rounds the sum once to float and the conversion to half rounds again;
/// the two roundings give the nearest half except in rare ties.
inline __half __hfma(__half a, __half b, __half c) {
  return __half(__builtin_fmaf(__half2float(a), __half2float(b), __half2float(c)));
}
inline __half __hmax(__half a, __half b) { return a < b ? b : a; }
inline __half __hmin(__half a, __half b) { return b < a ? b : a; }
inline __half hsqrt(__half a) { return __half(__builtin_sqrtf(__half2float(a))); }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hisnan(__half a) { return a.value != a.value; }
inline bool __hisinf(__half a) {
  return __half2float(a) == __builtin_huge_valf() || __half2float(a) == -__builtin_huge_valf();
}

// Pairs.
inline __half2 make_half2(__half x, __half y) { return {x, y}; }
inline __half2 __halves2half2(__half lo, __half hi) { return {lo, hi}; }
inline __half2 __half2half2(__half a) { return {a, a}; }
inline __half2 __float2half2_rn(float f) { return {__half(f), __half(f)}; }
inline __half2 __floats2half2_rn(float lo, float hi) { return {__half(lo), __half(hi)}; }
inline __half2 __float22half2_rn(float2 f) { return {__half(f.x), __half(f.y)}; }
inline float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float __low2float(__half2 h) { return __half2float(h.x); }
inline float __high2float(__half2 h) { return __half2float(h.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
inline __half2 __low2half2(__half2 h) { return {h.x, h.x}; }
inline __half2 __high2half2(__half2 h) { return {h.y, h.y}; }
inline __half2 __lowhigh2highlow(__half2 h) { return {h.y, h.x}; }
inline __half2 __hadd2(__half2 a, __half2 b) { return a + b; }
inline __half2 __hsub2(__half2 a, __half2 b) { return a - b; }
inline __half2 __hmul2(__half2 a, __half2 b) { return a * b; }
inline __half2 __h2div(__half2 a, __half2 b) { return a / b; }
inline __half2 __hneg2(__half2 a) { return -a; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}

// Atomics on halves (compute capability 7.0 and later), by compare-and-swap.
inline __half atomicAdd(__half* a, __half v, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(a, [v](__half o) { return o + v; });
}
inline __half2 atomicAdd(__half2* a, __half2 v, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(a, [v](__half2 o) { return o + v; });
}
