// Numeric command-line options read with the config's number syntax: CLI11's own conversion
// (strtoull/strtold) wraps "-1" to 2^64 - 1, clamps 23-digit numbers, reads "010" as octal and
// lets NaN through every range check, so each numeric option validates its text here first and
// hands CLI11 a canonical decimal it converts exactly.
#include <charconv>
#include <cmath>
#include <string>

#include "core/config/schema.hpp"
#include "core/errors.hpp"
#include "host/app/commands.hpp"

namespace sp::app {
namespace {

std::string bound(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ec == std::errc() ? end : buf);
}

}  // namespace

CLI::Validator integer_in(uint64_t lo, uint64_t hi) {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        bool negative = false, overflow = false;
        uint64_t magnitude = 0;
        if (!config::detail::parse_integer(text, negative, magnitude, overflow))
          return "expected an integer in " + range + ", found '" + excerpt(text) + "'";
        if (overflow || (negative && magnitude != 0) || magnitude < lo || magnitude > hi)
          return "must be in " + range + ", found '" + excerpt(text) + "'";
        text = std::to_string(magnitude);
        return {};
      },
      "in " + range);
}

CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "an empty path; give a path, or leave the option out" : "";
      },
      "PATH");
}

CLI::Validator real_in(double lo, double hi) {
  const std::string range = "[" + bound(lo) + ", " + bound(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        double value = 0;
        bool out_of_range = false;
        if (!config::detail::parse_real(text, value, out_of_range))
          return "expected a number in " + range + ", found '" + excerpt(text) + "'";
        // !(lo <= value) also refuses NaN, which no comparison admits.
        if (out_of_range || !std::isfinite(value) || !(lo <= value && value <= hi))
          return "must be a finite number in " + range + ", found '" + excerpt(text) + "'";
        text = bound(value);  // shortest text that reads back exactly
        return {};
      },
      "in " + range);
}

}  // namespace sp::app
