#include "grader/leaderboard/name_folding.h"

#include "harness/core/error.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

namespace cugrade::leaderboard {

namespace {

const icu::Normalizer2& nfkc_casefold() {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* fold = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status) || fold == nullptr) {
    CUGRADE_THROW(std::string("ICU has no NFKC case folding (") + u_errorName(status) +
                  "); check the libicu installation");
  }
  return *fold;
}

} // namespace

std::string folded_for_matching(std::string_view utf8) {
  const auto text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString folded = nfkc_casefold().normalize(text, status);
  if (U_FAILURE(status)) {
    CUGRADE_THROW(std::string("ICU could not fold a nickname: ") + u_errorName(status));
  }
  icu::UnicodeString kept;
  for (int32_t i = 0; i < folded.length();) {
    const UChar32 c = folded.char32At(i);
    if (u_charType(c) != U_FORMAT_CHAR) {
      kept.append(c);
    }
    i += U16_LENGTH(c);
  }
  std::string out;
  return kept.toUTF8String(out);
}

} // namespace cugrade::leaderboard
