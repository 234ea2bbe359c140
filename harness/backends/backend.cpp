#include "harness/backends/backend.h"

#include "harness/core/error.h"

#include <cstring>
#include <vector>

namespace cugrade::backends {

void* backend::allocate(std::size_t bytes) {
  void* p = do_allocate(bytes == 0 ? 1 : bytes);
  if (p == nullptr) {
    CUGRADE_THROW("the device could not allocate " + std::to_string(bytes) + " bytes");
  }
  return p;
}

bool backend::upload(void* device_dst, const void* host_src, std::size_t bytes) {
  return bytes == 0 || do_upload(device_dst, host_src, bytes);
}

bool backend::download(void* host_dst, const void* device_src, std::size_t bytes) {
  return bytes == 0 || do_download(host_dst, device_src, bytes);
}

bool backend::do_fill_words(void* dst, std::uint32_t word, std::size_t count) {
  const std::vector<std::uint32_t> words(count, word);
  return do_upload(dst, words.data(), count * sizeof(std::uint32_t));
}

bool backend::do_copy_on_device(void* dst, const void* src, std::size_t bytes) {
  std::vector<std::byte> staged(bytes);
  return do_download(staged.data(), src, bytes) && do_upload(dst, staged.data(), bytes);
}

bool backend::do_equal_on_device(const void* a, const void* b, std::size_t bytes, bool& equal) {
  std::vector<std::byte> first(bytes);
  std::vector<std::byte> second(bytes);
  if (!do_download(first.data(), a, bytes) || !do_download(second.data(), b, bytes)) {
    return false;
  }
  equal = first == second;
  return true;
}

bool backend::do_generate(const problems::float_recipe& recipe, void* dst) {
  std::vector<float> values(recipe.count);
  problems::fill_on_host(recipe, values);
  return upload(dst, values.data(), values.size() * sizeof(float));
}

bool backend::do_fingerprint(problems::element_type type, const void* src, std::size_t count,
                             std::size_t payload_bytes, std::size_t guard_bytes,
                             output_fingerprint& out) {
  std::vector<std::byte> bytes(payload_bytes + guard_bytes);
  if (!download(bytes.data(), src, bytes.size())) {
    return false;
  }
  out.digest = protocol::digest_of(type, bytes.data(), count);
  out.canaries_intact = true;
  for (std::size_t at = payload_bytes; at + 4 <= bytes.size(); at += 4) {
    std::uint32_t word = 0;
    std::memcpy(&word, bytes.data() + at, 4);
    out.canaries_intact = out.canaries_intact && word == problems::output_canary_word;
  }
  return true;
}

} // namespace cugrade::backends
