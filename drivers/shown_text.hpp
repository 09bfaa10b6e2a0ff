#pragma once
// Text from the user (a config line, an option's value) as it is quoted back in a
// message: control and other non-printable bytes escaped as \xNN and anything past
// `limit` characters cut with a note of the length, so that a message stays one short
// line on the terminal whatever was given (a 100,000-character line, binary bytes).
#include <string>
#include <string_view>

namespace vicont {

std::string shown_text(std::string_view text, size_t limit = 80);

}  // namespace vicont
