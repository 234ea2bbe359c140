#pragma once
/// \file
/// Per-block shared memory, as the rewriter emits it. A function-scope declaration
/// `__shared__ float Mds[16][16];` becomes `auto& Mds = ::cugrade::emu::block_shared<float[16][16],
/// 3>("Mds");` (3 being a number unique within the file); `extern __shared__ float s[];` becomes
/// a pointer to the launch's dynamic shared memory. File-scope declarations become the small
/// objects below, which resolve to the current block's storage on every use.
///
/// Storage is shared by all threads of a block, fresh for every block, and filled with a garbage
/// pattern (never zeros) when the block first uses it. Every array ends where an inaccessible page
/// begins, so an access just past its end stops the kernel, naming the array.

#include <cstddef>
#include <type_traits>

#include "cugrade_emu/context.h"

namespace cugrade::emu::detail {

/// A `__shared__` declaration as the diagnostics name it: `Mds`, floats, 16 x 16.
struct shared_array_info {
  const char* name;
  const char* element; ///< the element's type as written ("float", "unsigned int")
  std::size_t element_size;
  unsigned rank;          ///< 0 for a scalar
  std::size_t extents[3]; ///< the first three dimensions (a fourth and later ones multiply in)
};

/// The current block's storage for the declaration identified by `key` (allocated and
/// garbage-filled on first use within the block).
#pragma GCC visibility push(default)
void* shared_slot(const void* key, std::size_t size, std::size_t align,
                  const shared_array_info* info);
/// The current block's dynamic shared memory (the third launch parameter's bytes), declared as
/// an array of `element_size`-byte elements called `name`.
void* dynamic_shared_base(const char* name, const char* element, std::size_t element_size);
#pragma GCC visibility pop

template <class T, int Id> struct shared_key { static inline const char tag = 0; };

template <class T> constexpr shared_array_info array_info(const char* name, const char* element) {
  shared_array_info info{name, element, sizeof(std::remove_all_extents_t<T>), 0, {1, 1, 1}};
  info.rank = static_cast<unsigned>(std::rank_v<T>);
  if constexpr (std::rank_v<T> >= 1) {
    info.extents[0] = std::extent_v<T, 0>;
  }
  if constexpr (std::rank_v<T> >= 2) {
    info.extents[1] = std::extent_v<T, 1>;
  }
  if constexpr (std::rank_v<T> >= 3) {
    info.extents[2] = sizeof(T) / sizeof(std::remove_all_extents_t<T>) /
                      (std::extent_v<T, 0> * std::extent_v<T, 1>);
  }
  if (info.rank > 3) {
    info.rank = 3;
  }
  return info;
}

} // namespace cugrade::emu::detail

namespace cugrade::emu {

/// The current block's instance of the `Id`-th `__shared__` declaration of the file, called
/// `name`, its elements of type `element`.
template <class T, int Id> inline T& block_shared(const char* name = "", const char* element = "") {
  const void* key = &detail::shared_key<T, Id>::tag;
  const auto& cached = detail::t_ctx.shared_cache[detail::shared_cache_line(key)];
  if (cached.key == key && cached.block_serial == detail::t_ctx.block_serial) {
    return *static_cast<T*>(cached.storage); // another thread of this block got there first
  }
  static const detail::shared_array_info info = detail::array_info<T>(name, element);
  return *static_cast<T*>(detail::shared_slot(key, sizeof(T), alignof(T), &info));
}

/// The current block's dynamic shared memory, viewed as an array of T called `name`.
template <class T> inline T* dynamic_shared(const char* name = "", const char* element = "") {
  return static_cast<T*>(detail::dynamic_shared_base(name, element, sizeof(T)));
}

/// A file-scope `__shared__ T name;`: every use refers to the running block's instance.
/// (`sizeof(name)` is not the array's size; use the element count instead.)
template <class T, int Id> struct file_shared {
  const char* name = "";
  const char* element = "";
  [[nodiscard]] T& get() const { return block_shared<T, Id>(name, element); }
  operator T&() const { return get(); }
  template <class U = T, std::enable_if_t<std::is_array_v<U>, int> = 0>
  operator std::decay_t<U>() const {
    return get();
  }
  template <class I> decltype(auto) operator[](I i) const { return get()[i]; }
  auto operator&() const { return &get(); }
  template <class U> T& operator=(U&& v) const { return get() = static_cast<U&&>(v); }
  template <class U> T& operator+=(U&& v) const { return get() += static_cast<U&&>(v); }
  template <class U> T& operator-=(U&& v) const { return get() -= static_cast<U&&>(v); }
  template <class U> T& operator*=(U&& v) const { return get() *= static_cast<U&&>(v); }
  template <class U> T& operator|=(U&& v) const { return get() |= static_cast<U&&>(v); }
  T& operator++() const { return ++get(); }
  T& operator--() const { return --get(); }
  template <class U = T> U operator++(int) const { return get()++; }
  template <class U = T> U operator--(int) const { return get()--; }
};

/// A file-scope `extern __shared__ T name[];`: the running block's dynamic shared memory.
template <class T> struct file_dynamic_shared {
  const char* name = "";
  const char* element = "";
  [[nodiscard]] T* get() const { return dynamic_shared<T>(name, element); }
  operator T*() const { return get(); }
  template <class I> T& operator[](I i) const { return get()[i]; }
};

} // namespace cugrade::emu

/// A `__shared__` the rewriter did not translate (for instance one spelled through a macro)
/// stops the build at that line instead of silently becoming per-thread or per-program storage.
#define __shared__                                                                                 \
  _Pragma("GCC error \"cugrade emulator: this __shared__ declaration was not translated; declare \
shared variables directly (not through a macro)\"")
