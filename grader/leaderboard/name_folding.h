#pragma once
/// \file
/// Text as the nickname check compares it (public_names.h): a nickname must not name a student,
/// however it is spelt. Unicode's NFKC case folding (ICU) makes fullwidth and other compatibility
/// letters plain, removes case and drops the default ignorable characters (zero-width spaces and
/// joiners, soft hyphens, bidirectional marks); every format character left (Unicode category Cf)
/// is dropped too. So "s2001-\u200Bbob", "ｓ２００１-ｂｏｂ" and "S2001-BOB" all fold to
/// "s2001-bob".

#include <string>
#include <string_view>

namespace cugrade::leaderboard {

/// `utf8` folded for matching: NFKC case folded, format characters removed. Bytes that are not
/// UTF-8 become U+FFFD.
[[nodiscard]] std::string folded_for_matching(std::string_view utf8);

} // namespace cugrade::leaderboard
