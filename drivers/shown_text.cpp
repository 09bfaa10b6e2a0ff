#include "shown_text.hpp"

#include <cstdio>

namespace vicont {

std::string shown_text(std::string_view text, size_t limit) {
  std::string shown;
  for (size_t i = 0; i < text.size(); ++i) {
    if (shown.size() >= limit) {
      shown += "... (" + std::to_string(text.size()) + " bytes in all)";
      break;
    }
    const auto byte = static_cast<unsigned char>(text[i]);
    // Printable ASCII only: bytes above it may be half a UTF-8 sequence or, read as
    // Latin-1, terminal controls (0x80-0x9f); every name and number vicont takes is ASCII.
    if (byte >= 0x20 && byte < 0x7f) {
      shown += static_cast<char>(byte);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      shown += escaped;
    }
  }
  return shown;
}

}  // namespace vicont
