// The text side of the Gomocup "pbrain" protocol (pbrain.hpp runs the session): reading a line,
// splitting it into a command and its arguments, the numbers of START, TURN, TAKEBACK and BOARD's
// x,y,f lines, INFO's key and value, and the text of replies. Pure text to data: nothing here
// knows the game, the engine or a session's state. selfplay's engine protocol (engine_session.hpp)
// and the input pump use read_line, parse_count and the reply text too.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/errors.hpp"

namespace sp::selfplay {
namespace pbrain_detail {

// The next protocol line of `in` into `line`, without its end: a line ends at "\n", "\r\n" or a
// bare "\r" (managers that write classic Mac line ends). It never reads past the end of a line,
// so it does not wait for input the manager has not sent yet: "\r\n" reads as a line and an
// empty one, which the sessions skip. False at the end of input with nothing read.
bool read_line(std::istream& in, std::string& line);

// A line split into its command word (upper case) and the rest, both trimmed (a '\r' before the
// newline included).
struct CommandLine {
  std::string word;
  std::string args;
  std::string text;  // the whole line, trimmed
};
CommandLine split_command(std::string_view line);

// The command word starts an x,y,f line (a digit or a minus sign), which only BOARD expects.
bool starts_number(std::string_view word);

// Throws InputError when a command that takes no arguments (RESTART, BEGIN, BOARD) got some.
void no_arguments(const CommandLine& c);

// Exactly `count` comma-separated integers ("7,7" or "7,7,1"; spaces around them allowed). Throws
// InputError naming the text and the expected form.
std::vector<int64_t> parse_numbers(std::string_view text, size_t count, const char* form);

// A non-negative integer (an INFO value); throws InputError naming the key.
int64_t parse_count(std::string_view key, std::string_view text);

// One x,y,f line of BOARD as the manager wrote it.
struct BoardLine {
  int64_t x = 0, y = 0;
  int64_t f = 0;  // 1: own stone, 2: the opponent's, 3: a continuous game's (ignored)
};

// The x,y,f line `text` (f 1, 2 or 3), or the message an ERROR answer gives for it (naming the
// line). Whether the square is on the board and free is the session's to check.
std::variant<BoardLine, std::string> parse_board_line(std::string_view text);

// INFO's arguments: the key, in lower case, and the value after the blanks that follow the key
// ("" when there is none).
struct InfoLine {
  std::string key;
  std::string value;
};

// INFO's arguments split into key and value; throws InputError when there is no key.
InfoLine split_info(std::string_view args);

// One line of text for the output: line breaks become spaces.
std::string one_line(std::string text);

// ABOUT's answer: name="selfplay", version="...", author="...".
std::string about_text();

}  // namespace pbrain_detail
}  // namespace sp::selfplay
