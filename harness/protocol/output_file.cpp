#include "harness/protocol/protocol.h"

#include <fstream>

namespace cugrade::protocol {

std::optional<problems::buffer> read_output(const std::filesystem::path& path,
                                            const problems::buffer_spec& spec) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  problems::buffer b{spec.type, std::vector<std::byte>(problems::byte_size(spec))};
  in.read(reinterpret_cast<char*>(b.bytes.data()), static_cast<std::streamsize>(b.bytes.size()));
  if (in.gcount() != static_cast<std::streamsize>(b.bytes.size())) {
    return std::nullopt;
  }
  return b;
}

} // namespace cugrade::protocol
