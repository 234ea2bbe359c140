#pragma once
/// \file
/// Kernel launches as the rewriter emits them: `k<<<g, b, s>>>(x, y)` becomes
/// `::cugrade::emu::launch(k, "k", __FILE__, __LINE__, g, b, s)(x, y)`. The arguments are converted
/// to the kernel's parameter types once, on the host, as CUDA does; each emulated thread then calls
/// the kernel with its own copies.

#include <cstddef>

#include "cugrade_emu/api.h"
#include "cugrade_emu/regions.h"

namespace cugrade::emu::detail {

/// Where a launch was written, for validation messages and diagnostics.
struct launch_site {
  const char* kernel_name;
  const char* file;
  int line;
  const void* kernel_key; ///< the kernel's address, the key of cudaFuncSetAttribute
};

using kernel_thunk = void (*)(const void* closure);

/// Validates the configuration and runs every block of the grid to completion (launches are
/// synchronous here); failures surface through cudaGetLastError and the diagnostics. `thunk`
/// runs the kernel as one thread; `block_thunk`, when the kernel has a region form, runs that
/// form once for a whole block (regions.h).
#pragma GCC visibility push(default)
void run_launch(const launch_site& site, dim3 grid, dim3 block, std::size_t shared_bytes,
                cudaStream_t stream, kernel_thunk thunk, const void* closure,
                kernel_thunk block_thunk = nullptr, const void* block_closure = nullptr);
#pragma GCC visibility pop

} // namespace cugrade::emu::detail

namespace cugrade::emu {

/// The callable a rewritten launch produces; calling it with the kernel's arguments runs the grid.
template <class... P> class launcher {
public:
  launcher(void (*kernel)(P...), detail::launch_site site, dim3 grid, dim3 block,
           std::size_t shared_bytes, cudaStream_t stream)
      : m_kernel(kernel), m_site(site), m_grid(grid), m_block(block), m_shared(shared_bytes),
        m_stream(stream) {}

  void operator()(P... args) const {
    const auto call = [kernel = m_kernel, args...]() { kernel(args...); };
    using call_type = decltype(call);
    auto* const form = reinterpret_cast<void (*)(P...)>(detail::region_form_of(m_site.kernel_key));
    const auto block_call = [form, args...]() { form(args...); };
    using block_type = decltype(block_call);
    const detail::kernel_thunk block_thunk = form == nullptr ? nullptr : +[](const void* closure) {
      (*static_cast<const block_type*>(closure))();
    };
    detail::run_launch(
        m_site, m_grid, m_block, m_shared, m_stream,
        [](const void* closure) { (*static_cast<const call_type*>(closure))(); }, &call,
        block_thunk, &block_call);
  }

private:
  void (*m_kernel)(P...);
  detail::launch_site m_site;
  dim3 m_grid;
  dim3 m_block;
  std::size_t m_shared;
  cudaStream_t m_stream;
};

template <class... P>
inline launcher<P...> launch(void (*kernel)(P...), const char* name, const char* file, int line,
                             dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr) {
  const detail::launch_site site{name, file, line, reinterpret_cast<const void*>(kernel)};
  return launcher<P...>(kernel, site, grid, block, shared_bytes, stream);
}

} // namespace cugrade::emu
