// The identity of a deck of openings as a resume checks it: what the games start from, by content,
// whatever file it was read from (GameHost<G>::settings_identity of checkers and Gomoku).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace sp {

// FNV-1a 64 of lines joined by '\n' (each line followed by one).
inline uint64_t lines_hash(const std::vector<std::string>& lines) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const std::string& line : lines) {
    for (const char c : line) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    h = (h ^ static_cast<unsigned char>('\n')) * 0x100000001b3ull;
  }
  return h;
}

// "214 positions, fnv1a64 0123456789abcdef".
inline std::string deck_identity(size_t count, const char* what, uint64_t hash) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return std::to_string(count) + " " + what + ", fnv1a64 " + hex;
}

}  // namespace sp
