// The excerpt of input text that messages quote (cli/src/input_excerpt.hpp): short, escaped, cut between characters.
#include <gtest/gtest.h>

#include <string>

#include "../src/input_excerpt.hpp"

namespace {

using dbdf_cli::input_excerpt;
using dbdf_cli::quoted_input;

TEST(InputExcerpt, ShortTextIsShownWhole) {
    EXPECT_EQ(input_excerpt(""), "");
    EXPECT_EQ(input_excerpt("1.5e3"), "1.5e3");
    EXPECT_EQ(quoted_input("x"), "'x'");
    EXPECT_EQ(quoted_input(std::string(40, 'x')), "'" + std::string(40, 'x') + "'");
}

TEST(InputExcerpt, LongTextIsCutAndItsLengthGiven) {
    EXPECT_EQ(input_excerpt(std::string(41, 'x')), std::string(40, 'x') + "... (41 bytes)");
    EXPECT_EQ(quoted_input(std::string(10 << 20, '7')), "'" + std::string(40, '7') + "'... (10485760 bytes)");
    // A character that would cross the 40th byte is left out whole rather than cut.
    EXPECT_EQ(input_excerpt(std::string(39, 'a') + "\xc3\xa9"), std::string(39, 'a') + "... (41 bytes)");
}

TEST(InputExcerpt, ControlCharactersAndBytesThatAreNotUtf8AreEscaped) {
    EXPECT_EQ(input_excerpt("a\nb\r\tc\\"), "a\\nb\\r\\tc\\\\");
    EXPECT_EQ(input_excerpt("\x1b[31m\x7f"), "\\x1b[31m\\x7f");
    EXPECT_EQ(input_excerpt(std::string("\0", 1)), "\\x00");
    EXPECT_EQ(input_excerpt("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    EXPECT_EQ(input_excerpt("\xff\xfe"), "\\xff\\xfe");
    EXPECT_EQ(input_excerpt("\xc2\x9b[2J"), "\\u009b[2J");                 // C1 CSI, which some terminals obey
    EXPECT_EQ(input_excerpt("\xc3"), "\\xc3");                             // a sequence cut short
    EXPECT_EQ(input_excerpt("\xc0\xaf"), "\\xc0\\xaf");                    // an overlong form of '/'
    EXPECT_EQ(input_excerpt("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
    EXPECT_EQ(input_excerpt("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
}

}  // namespace
