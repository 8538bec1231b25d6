// Typed errors raised at the edges (notation, configs, files, protocols). Inside the engine,
// contracts are asserts; bad input from a user becomes one of these, never a crash.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sp {

// Malformed or illegal input. The message names what is wrong and where.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How much of a user's input an error message quotes by default.
inline constexpr size_t kExcerptBytes = 200;

// Text from a user (a config value, a notation string, a line of a file, a path) made safe to
// quote in a one-line message: control bytes (C0, DEL, C1) and bytes that are not part of valid
// UTF-8 become \xNN, so a terminal never sees an escape sequence and the message stays one line;
// output longer than about max_bytes is cut (never inside a character or an escape) and ends in
// "...". Valid UTF-8 such as "wuerfelt" with an umlaut is kept as it is.
inline std::string excerpt(std::string_view text, size_t max_bytes = kExcerptBytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const auto escape = [&](unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  size_t i = 0;
  while (i < text.size() && out.size() < max_bytes) {
    const auto c = static_cast<unsigned char>(text[i]);
    // The length of the UTF-8 sequence starting at i; 0 when it is not one.
    size_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xe  ? 3
                 : (c >> 3) == 0x1e ? 4
                                    : 0;
    if (len == 2 && c < 0xc2) len = 0;  // overlong
    for (size_t k = 1; k < len; ++k)
      if (i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) len = 0;
    const bool c1 = len == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
    if (len == 1 && (c < 0x20 || c == 0x7f)) {
      escape(c);
    } else if (len == 0) {
      escape(c);
      len = 1;
    } else if (c1) {
      escape(c);
      escape(static_cast<unsigned char>(text[i + 1]));
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace sp
