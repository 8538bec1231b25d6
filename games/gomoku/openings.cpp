#include "games/gomoku/openings.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "games/gomoku/game_files.hpp"
#include "games/gomoku/notation.hpp"

namespace sp::gomoku {

// configs/gomoku/openings.pos, compiled in (games/CMakeLists.txt writes it into a source file).
extern const char kShippedOpeningsText[];

namespace {

std::string where(std::string_view name, int line, int column) {
  return std::string(name) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

// A position as a key for duplicates: each side's squares, sorted (letters a-z, rows up to the
// largest board).
std::vector<int> position_key(const std::vector<Move>& moves) {
  std::vector<int> side[2];
  for (size_t i = 0; i < moves.size(); ++i) side[i % 2].push_back(moves[i].y * 26 + moves[i].x);
  for (auto& v : side) std::sort(v.begin(), v.end());
  std::vector<int> key = side[0];
  key.push_back(-1);
  key.insert(key.end(), side[1].begin(), side[1].end());
  return key;
}

}  // namespace

void check_listed_once(const OpeningFile& file) {
  std::map<std::vector<int>, int> seen;  // position -> its first line
  for (const Opening& o : file.openings) {
    const auto [it, added] = seen.emplace(position_key(o.moves), o.line);
    if (!added)
      throw InputError(where(file.name, o.line, o.columns.empty() ? 1 : o.columns[0]) +
                       "the position of line " + std::to_string(it->second) +
                       " again (openings are listed once)");
  }
}

OpeningFile read_openings(std::string_view text, std::string_view name) {
  // A UTF-8 byte order mark, as some Windows editors write one, is not part of the text.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (is_psq(text)) return read_psq_openings(text, name);
  if (is_sgf(text)) {
    OpeningFile file = read_sgf_openings(text, name);
    check_listed_once(file);
    return file;
  }
  OpeningFile file;
  file.name = std::string(name);
  std::map<std::vector<int>, int> seen;  // position -> its first line
  int line = 0;
  for (size_t line_start = 0; line_start <= text.size();) {
    ++line;
    // A line ends at "\n", "\r\n" or a bare "\r" (classic Mac line ends).
    size_t end = text.find_first_of("\r\n", line_start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view content = text.substr(line_start, end - line_start);
    line_start = end + (text.substr(end, 2) == "\r\n" ? 2 : 1);
    if (const size_t hash = content.find('#'); hash != std::string_view::npos)
      content = content.substr(0, hash);
    size_t i = 0;
    while (i < content.size() && (content[i] == ' ' || content[i] == '\t')) ++i;
    size_t last = content.size();
    while (last > i && (content[last - 1] == ' ' || content[last - 1] == '\t')) --last;
    if (i == last) continue;
    const std::string_view item = content.substr(0, last);
    Opening o;
    o.line = line;
    while (i < item.size()) {
      const size_t start = i;
      const auto fail = [&](size_t column, const std::string& what) {
        throw InputError(where(name, line, static_cast<int>(column + 1)) + what);
      };
      const char c = item[i];
      if (c == ' ' || c == '\t') fail(i, "write the squares of an opening without spaces (h8i9g7)");
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
        fail(i, "expected a column letter, got '" + excerpt(item.substr(i, 1)) + "'");
      const int x = (c | 0x20) - 'a';
      if (++i == item.size() || item[i] < '0' || item[i] > '9')
        fail(i, "expected a row number after the column letter");
      if (item[i] == '0') fail(i, "a row number has no leading zero");
      int y = 0;
      for (; i < item.size() && item[i] >= '0' && item[i] <= '9'; ++i) {
        y = y * 10 + (item[i] - '0');
        if (y > kMaxSize)
          fail(start + 1, "row number above " + std::to_string(kMaxSize) + ", the largest board");
      }
      // Squares beyond the board of the rules are check_openings' to report, once the board is
      // known.
      const Move m{static_cast<uint8_t>(x), static_cast<uint8_t>(y - 1)};
      for (size_t k = 0; k < o.moves.size(); ++k)
        if (o.moves[k] == m)
          fail(start, "square " + to_string(m) + " is placed twice (first at column " +
                          std::to_string(o.columns[k]) + ")");
      o.moves.push_back(m);
      o.columns.push_back(static_cast<int>(start + 1));
    }
    const auto [it, added] = seen.emplace(position_key(o.moves), line);
    if (!added)
      throw InputError(where(name, line, o.columns[0]) + "the position of line " +
                       std::to_string(it->second) + " again (openings are listed once)");
    file.openings.push_back(std::move(o));
  }
  if (file.openings.empty()) throw InputError(std::string(name) + ": no opening in the file");
  return file;
}

void check_openings(const OpeningFile& file, const Rules& rules) {
  const int n = rules.size;
  const std::string board = std::to_string(n) + "x" + std::to_string(n);
  if (file.board_size != 0 && file.board_size != n)
    throw InputError(where(file.name, file.board_size_line, file.board_size_column) +
                     "the file is for a " + std::to_string(file.board_size) + "x" +
                     std::to_string(file.board_size) + " board, the rules play on " + board);
  for (const Opening& o : file.openings) {
    State s = initial_state(rules);
    for (size_t k = 0; k < o.moves.size(); ++k) {
      const Move m = o.moves[k];
      const int column = k < o.columns.size() ? o.columns[k] : 0;
      if (m.x >= n || m.y >= n)
        throw InputError(where(file.name, o.line, column) + "square " + to_string(m) +
                         " is not on the " + board + " board (columns a-" +
                         static_cast<char>('a' + n - 1) + ", rows 1-" + std::to_string(n) + ")");
      apply(s, m);
      if (s.winner != kNoWinner)
        throw InputError(where(file.name, o.line, column) + to_string(m) +
                         " makes a winning row for " + (s.winner == 0 ? "Black" : "White") +
                         ": an opening must leave the game to be played");
    }
    if (is_over(s)) throw InputError(where(file.name, o.line, 1) + "the opening fills the board");
  }
}

OpeningFile parse_openings(std::string_view text, std::string_view name, const Rules& rules) {
  OpeningFile file = read_openings(text, name);
  check_openings(file, rules);
  return file;
}

OpeningFile load_openings(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + excerpt(path) + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError("cannot read " + excerpt(path) + ": " + std::strerror(errno));
  return read_openings(text.str(), path);
}

State opening_state(const Opening& opening, const Rules& rules) {
  State s = initial_state(rules);
  for (const Move m : opening.moves) apply(s, m);
  return s;
}

std::string write_openings(const std::vector<std::vector<Move>>& openings,
                           std::string_view header) {
  std::string out;
  for (size_t start = 0; start < header.size();) {
    size_t end = header.find('\n', start);
    if (end == std::string_view::npos) end = header.size();
    const std::string_view line = header.substr(start, end - start);
    out += line.empty() ? "#\n" : "# " + std::string(line) + "\n";
    start = end + 1;
  }
  for (const auto& moves : openings) out += moves_text(moves) + "\n";
  return out;
}

std::string_view shipped_openings_text() { return kShippedOpeningsText; }

std::shared_ptr<const OpeningFile> shipped_openings() {
  static const std::shared_ptr<const OpeningFile> file = std::make_shared<const OpeningFile>(
      parse_openings(kShippedOpeningsText, kShippedOpeningsName, Rules{}));
  return file;
}

}  // namespace sp::gomoku
