#include "grader/leaderboard/pseudonym.h"

#include "harness/core/error.h"

#include <array>
#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace cugrade::leaderboard {

namespace {

constexpr std::size_t pseudonym_hex_digits = 10; // 40 bits: collisions in a class are negligible

} // namespace

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  const unsigned char* ok =
      HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest.data(),
           &length);
  if (ok == nullptr) {
    CUGRADE_THROW("OpenSSL HMAC-SHA256 failed");
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(hex[digest[i] >> 4]);
    out.push_back(hex[digest[i] & 0xf]);
  }
  return out;
}

std::string pseudonym(std::string_view salt, std::string_view student) {
  return "entrant-" + hmac_sha256_hex(salt, student).substr(0, pseudonym_hex_digits);
}

} // namespace cugrade::leaderboard
