#include "harness/roofline/ceiling.cuh"

#include "harness/core/error.h"

#include <map>
#include <string>

namespace cugrade::roofline {

namespace {

std::map<std::string, ceiling_fn, std::less<>>& ceilings() {
  static std::map<std::string, ceiling_fn, std::less<>> registered;
  return registered;
}

} // namespace

device_memory upload(const problems::buffer& b) {
  device_memory d(b.bytes.size());
  CUGRADE_CUDA_CHECK(
      cudaMemcpy(d.as<void>(), b.bytes.data(), b.bytes.size(), cudaMemcpyHostToDevice));
  return d;
}

ceiling_registrar::ceiling_registrar(std::string_view problem, ceiling_fn fn) {
  if (!ceilings().emplace(std::string(problem), fn).second) {
    CUGRADE_THROW("two library ceilings for problem " + std::string(problem));
  }
}

ceiling_fn find_ceiling(std::string_view problem) {
  const auto it = ceilings().find(problem);
  return it == ceilings().end() ? nullptr : it->second;
}

} // namespace cugrade::roofline
