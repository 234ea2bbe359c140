#pragma once
/// \file
/// CUDA's dimension and vector types (`dim3`, `uint3`, `float4`, ...) with CUDA's names, layouts
/// and alignments, and their `make_*` constructors. Host-only C++; no CUDA toolkit needed.

// Vector types: CUDA aligns some of them beyond their members (float4 to 16 bytes, float2 to 8);
// copying them keeps that alignment, so code reinterpreting buffers behaves as under nvcc.
#define CUGRADE_EMU_VEC1(T, N, A)                                                                  \
  struct alignas(A) N##1 {                                                                         \
    T x;                                                                                           \
  };                                                                                               \
  inline constexpr N##1 make_##N##1(T x) {                                                         \
    return N##1 {x};                                                                               \
  }
#define CUGRADE_EMU_VEC2(T, N, A)                                                                  \
  struct alignas(A) N##2 {                                                                         \
    T x, y;                                                                                        \
  };                                                                                               \
  inline constexpr N##2 make_##N##2(T x, T y) {                                                    \
    return N##2 {x, y};                                                                            \
  }
#define CUGRADE_EMU_VEC3(T, N, A)                                                                  \
  struct alignas(A) N##3 {                                                                         \
    T x, y, z;                                                                                     \
  };                                                                                               \
  inline constexpr N##3 make_##N##3(T x, T y, T z) {                                               \
    return N##3 {x, y, z};                                                                         \
  }
#define CUGRADE_EMU_VEC4(T, N, A)                                                                  \
  struct alignas(A) N##4 {                                                                         \
    T x, y, z, w;                                                                                  \
  };                                                                                               \
  inline constexpr N##4 make_##N##4(T x, T y, T z, T w) {                                          \
    return N##4 {x, y, z, w};                                                                      \
  }
#define CUGRADE_EMU_VECS(T, N, A1, A2, A3, A4)                                                     \
  CUGRADE_EMU_VEC1(T, N, A1)                                                                       \
  CUGRADE_EMU_VEC2(T, N, A2) CUGRADE_EMU_VEC3(T, N, A3) CUGRADE_EMU_VEC4(T, N, A4)

CUGRADE_EMU_VECS(signed char, char, 1, 2, 1, 4)
CUGRADE_EMU_VECS(unsigned char, uchar, 1, 2, 1, 4)
CUGRADE_EMU_VECS(short, short, 2, 4, 2, 8)
CUGRADE_EMU_VECS(unsigned short, ushort, 2, 4, 2, 8)
CUGRADE_EMU_VECS(int, int, 4, 8, 4, 16)
CUGRADE_EMU_VECS(unsigned int, uint, 4, 8, 4, 16)
CUGRADE_EMU_VECS(long, long, 8, 16, 8, 16)
CUGRADE_EMU_VECS(unsigned long, ulong, 8, 16, 8, 16)
CUGRADE_EMU_VECS(long long, longlong, 8, 16, 8, 16)
CUGRADE_EMU_VECS(unsigned long long, ulonglong, 8, 16, 8, 16)
CUGRADE_EMU_VECS(float, float, 4, 8, 4, 16)
CUGRADE_EMU_VECS(double, double, 8, 16, 8, 16)

#undef CUGRADE_EMU_VECS
#undef CUGRADE_EMU_VEC1
#undef CUGRADE_EMU_VEC2
#undef CUGRADE_EMU_VEC3
#undef CUGRADE_EMU_VEC4

/// Grid and block extents; unspecified dimensions are 1, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
