#include "util/xml_text.h"

#include <gtest/gtest.h>

namespace dlbench {
namespace {

TEST(XmlText, EscapesMarkupAndQuotesAndCopiesTheRest) {
  EXPECT_EQ(XmlEscape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
  EXPECT_EQ(XmlEscape("key/with'apostrophe\xc3\xa9"), "key/with'apostrophe\xc3\xa9");
  EXPECT_EQ(XmlEscape(""), "");
}

}  // namespace
}  // namespace dlbench
