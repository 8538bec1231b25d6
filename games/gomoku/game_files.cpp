#include "games/gomoku/game_files.hpp"

#include <algorithm>
#include <bitset>
#include <charconv>
#include <climits>
#include <cstdio>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "core/text_lines.hpp"
#include "games/gomoku/notation.hpp"

namespace sp::gomoku {
namespace {

// A square as the notation writes it ("h8": column letter, row from 1); InputError otherwise.
Move square_from_text(std::string_view text) {
  const auto fail = [&]() -> Move {
    throw InputError("move " + excerpt(text) + " is not a square (a column letter and a row " +
                     "number, h8)");
  };
  if (text.size() < 2 || text.size() > 3 || text[0] < 'a' || text[0] > 'z') return fail();
  int y = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9' || (i == 1 && text[i] == '0')) return fail();
    y = y * 10 + (text[i] - '0');
  }
  if (y < 1 || y > kMaxSize) return fail();
  return Move{static_cast<uint8_t>(text[0] - 'a'), static_cast<uint8_t>(y - 1)};
}

// The game's stones in order: the opening's, then each ply's, each on the board of `size`.
std::vector<Move> stones_of(const GameFileRecord& game, int size) {
  std::vector<Move> out;
  if (!game.opening.empty()) out = read_openings(game.opening, "the opening").openings.at(0).moves;
  for (const std::string& move : game.moves) out.push_back(square_from_text(move));
  for (const Move m : out)
    if (m.x >= size || m.y >= size)
      throw InputError("game " + std::to_string(game.game_id) + ": square " + to_string(m) +
                       " is not on the " + std::to_string(size) + "x" + std::to_string(size) +
                       " board");
  return out;
}

// A text on one line (a name in psq): line breaks become spaces, "" becomes "?".
std::string one_line(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out.empty() ? "?" : out;
}

// An SGF property value: '\' and ']' escaped.
std::string sgf_value(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == ']') out += '\\';
    out += c;
  }
  return out;
}

std::string where(std::string_view name, int line, int column) {
  return std::string(name) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

size_t skip_blanks(std::string_view text, size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' ||
                             text[i] == '\n' || text[i] == '\f' || text[i] == '\v'))
    ++i;
  return i;
}

// The stones of one opening as it is read, with where each was read: a square placed twice is an
// error at its place. Constant work a stone (readers of many games stay linear).
class OpeningBuilder {
 public:
  OpeningBuilder(std::string_view name, const TextLines& lines) : name_(name), lines_(lines) {}
  void add(Move m, size_t at) {
    const auto [line, column] = lines_.position(at);
    const size_t square = static_cast<size_t>(m.y) * kMaxSize + m.x;
    if (placed_[square])
      throw InputError(where(name_, line, column) + "square " + to_string(m) +
                       " is placed twice in one game");
    placed_[square] = true;
    o_.moves.push_back(m);
    o_.columns.push_back(column);
    if (o_.line == 0) o_.line = line;
  }
  const Opening& opening() const { return o_; }
  Opening take() { return std::move(o_); }

 private:
  std::string_view name_;
  const TextLines& lines_;
  Opening o_;
  std::bitset<kMaxSize * kMaxSize> placed_;
};

}  // namespace

std::string write_psq(const GameFileRecord& game, int size) {
  const std::vector<Move> stones = stones_of(game, size);
  const size_t opening = stones.size() - game.moves.size();
  std::string out =
      "Piskvorky " + std::to_string(size) + "x" + std::to_string(size) + ", 11:11, 0\n";
  for (size_t k = 0; k < stones.size(); ++k) {
    const float ms =
        k >= opening && k - opening < game.times_ms.size() ? game.times_ms[k - opening] : 0.0f;
    const long time = ms > 0 && ms < 2e9f ? static_cast<long>(ms + 0.5f) : 0;
    out += std::to_string(stones[k].x + 1) + "," + std::to_string(stones[k].y + 1) + "," +
           std::to_string(time) + "\n";
  }
  out += one_line(game.players[0]) + "\n" + one_line(game.players[1]) + "\n-1\n";
  return out;
}

std::string write_sgf(const GameFileRecord& game, int size, std::string_view rule) {
  const std::vector<Move> stones = stones_of(game, size);
  std::string out = "(;FF[4]GM[4]CA[UTF-8]AP[selfplay]SZ[" + std::to_string(size) + "]";
  out += "GN[" + sgf_value("game " + std::to_string(game.game_id)) + "]";
  if (!game.event.empty()) out += "EV[" + sgf_value(game.event) + "]";
  if (!game.site.empty()) out += "PC[" + sgf_value(game.site) + "]";
  if (game.start_time.size() >= 10) out += "DT[" + sgf_value(game.start_time.substr(0, 10)) + "]";
  out += "PB[" + sgf_value(game.players[0]) + "]PW[" + sgf_value(game.players[1]) + "]";
  out += std::string("RE[") + (game.winner == 0 ? "B+" : game.winner == 1 ? "W+" : "Draw") + "]";
  out += "C[" +
         sgf_value("rule " + std::string(rule) +
                   (game.opening.empty() ? "" : ", opening " + game.opening) +
                   (game.program.empty() ? "" : ", played by " + game.program)) +
         "]\n";
  for (size_t k = 0; k < stones.size(); ++k) {
    out += k % 2 == 0 ? ";B[" : ";W[";
    out += static_cast<char>('a' + stones[k].x);
    out += static_cast<char>('a' + stones[k].y);
    out += "]";
    if (k % 10 == 9 || k + 1 == stones.size()) out += "\n";
  }
  return out + ")\n";
}

bool is_psq(std::string_view text) {
  return text.substr(skip_blanks(text, 0)).starts_with("Piskvorky");
}

bool is_sgf(std::string_view text) {
  const size_t i = skip_blanks(text, 0);
  return i < text.size() && text[i] == '(';
}

namespace {

// A decimal number with no sign, at most `max`; nothing when the text is not one or is larger
// (no wrap-around: "4294967304" is not 8).
std::optional<long> number_at_most(std::string_view text, long max) {
  long value = 0;
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range) return max + 1;
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value > max ? max + 1 : value;
}

// The text with blanks (spaces, tabs) trimmed at both ends.
std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// The comma-separated fields of a psq line, trimmed.
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> out;
  for (;;) {
    const size_t comma = line.find(',');
    out.push_back(trimmed(line.substr(0, comma)));
    if (comma == std::string_view::npos) return out;
    line.remove_prefix(comma + 1);
  }
}

}  // namespace

OpeningFile read_psq_openings(std::string_view text, std::string_view name) {
  OpeningFile file;
  file.name = std::string(name);
  const TextLines lines(text);
  size_t i = skip_blanks(text, 0);
  size_t end = text.find('\n', i);
  if (end == std::string_view::npos) end = text.size();
  std::string_view header = text.substr(i, end - i);
  if (!header.empty() && header.back() == '\r') header.remove_suffix(1);
  const auto [header_line, header_column] = lines.position(i);
  // "Piskvorky WIDTHxHEIGHT, ..." (the rest, the clock and a count, is not read).
  constexpr std::string_view kMagic = "Piskvorky ";
  const size_t x_at = header.find('x', kMagic.size());
  const size_t comma = header.find(',', kMagic.size());
  std::optional<long> width, height;
  if (header.starts_with(kMagic) && x_at != std::string_view::npos &&
      comma != std::string_view::npos && x_at < comma) {
    width = number_at_most(header.substr(kMagic.size(), x_at - kMagic.size()), 1000);
    height = number_at_most(header.substr(x_at + 1, comma - x_at - 1), 1000);
  }
  if (!width || !height)
    throw InputError(where(name, header_line, header_column) +
                     "a psq file starts \"Piskvorky WIDTHxHEIGHT, 11:11, 0\"");
  if (*width != *height || *width < 5 || *width > kMaxSize)
    throw InputError(where(name, header_line, header_column) + "a " +
                     (*width > 1000 ? std::string("huge") : std::to_string(*width)) + "x" +
                     (*height > 1000 ? std::string("huge") : std::to_string(*height)) +
                     " board: Gomoku plays square boards up to " + std::to_string(kMaxSize) + "x" +
                     std::to_string(kMaxSize));
  const int size = static_cast<int>(*width);
  file.board_size = size;
  file.board_size_line = header_line;
  file.board_size_column = header_column;
  OpeningBuilder o(name, lines);
  // The moves: "x,y" or "x,y,time" lines of decimal numbers, until the first line that is not one
  // (the names).
  for (size_t at = end + 1; at < text.size();) {
    size_t stop = text.find('\n', at);
    if (stop == std::string_view::npos) stop = text.size();
    std::string_view item = text.substr(at, stop - at);
    if (!item.empty() && item.back() == '\r') item.remove_suffix(1);
    const size_t first = at;
    at = stop + 1;
    const std::vector<std::string_view> fields = fields_of(item);
    const bool numbers = (fields.size() == 2 || fields.size() == 3) &&
                         std::all_of(fields.begin(), fields.end(), [](std::string_view f) {
                           // The time may be written negative by some tools.
                           if (f.size() > 1 && f[0] == '-') f.remove_prefix(1);
                           return number_at_most(f, LONG_MAX - 1).has_value();
                         });
    if (!numbers) {
      if (trimmed(item).empty() && o.opening().moves.empty()) continue;
      break;
    }
    const std::optional<long> x = number_at_most(fields[0], size),
                              y = number_at_most(fields[1], size);
    const auto [row, column] = lines.position(first);
    if (*x < 1 || *y < 1 || *x > size || *y > size)
      throw InputError(where(name, row, column) + "square " + excerpt(fields[0]) + "," +
                       excerpt(fields[1]) + " is not on the " + std::to_string(size) + "x" +
                       std::to_string(size) + " board (psq counts from 1)");
    o.add(Move{static_cast<uint8_t>(*x - 1), static_cast<uint8_t>(*y - 1)}, first);
  }
  if (o.opening().moves.empty())
    throw InputError(where(name, header_line, header_column) + "the psq file has no stones");
  file.openings.push_back(o.take());
  return file;
}

OpeningFile read_sgf_openings(std::string_view text, std::string_view name) {
  OpeningFile file;
  file.name = std::string(name);
  const TextLines lines(text);
  const auto fail = [&](size_t at, const std::string& what) {
    const auto [line, column] = lines.position(at);
    throw InputError(where(name, line, column) + what);
  };
  size_t i = skip_blanks(text, 0);
  while (i < text.size()) {
    if (text[i] != '(') fail(i, "expected '(' to start an SGF game tree");
    const size_t tree = i;
    // The main line: the nodes of this tree and of each first variation; later variations are
    // skipped whole.
    OpeningBuilder o(name, lines);
    std::vector<std::pair<Move, size_t>> black_setup, white_setup;
    int depth = 0;
    bool in_main = true;        // false inside a variation after the first of its parent
    std::vector<int> children;  // per depth: variations seen
    int size = 15;
    int expected = 0;  // the side of the next move: Black first
    for (;;) {
      i = skip_blanks(text, i);
      if (i >= text.size()) fail(tree, "the game tree is not closed with ')'");
      const char c = text[i];
      if (c == '(') {
        if (depth > 0) {
          if (static_cast<int>(children.size()) <= depth) children.resize(depth + 1, 0);
          if (children[depth]++ > 0) in_main = false;
        }
        ++depth;
        ++i;
        continue;
      }
      if (c == ')') {
        --depth;
        ++i;
        if (static_cast<int>(children.size()) > depth + 1) children.resize(depth + 1);
        if (depth == 0) break;
        continue;
      }
      if (c == ';') {
        ++i;
        continue;
      }
      if (!(c >= 'A' && c <= 'Z'))
        fail(i, "expected an SGF property (B[hh]), got '" + excerpt(text.substr(i, 1)) + "'");
      const size_t ident_at = i;
      std::string ident;
      while (i < text.size() &&
             ((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z')))
        ident += text[i++];
      std::vector<std::pair<std::string, size_t>> values;
      for (i = skip_blanks(text, i); i < text.size() && text[i] == '['; i = skip_blanks(text, i)) {
        const size_t value_at = ++i;
        std::string value;
        while (i < text.size() && text[i] != ']') {
          if (text[i] == '\\' && i + 1 < text.size()) ++i;
          value += text[i++];
        }
        if (i >= text.size())
          fail(value_at - 1, "the value of " + ident + " is not closed with ']'");
        ++i;
        values.emplace_back(value, value_at);
      }
      if (values.empty()) fail(ident_at, "property " + ident + " has no value");
      if (!in_main) continue;
      if (ident == "SZ") {
        const std::optional<long> sz = number_at_most(trimmed(values[0].first), kMaxSize);
        if (!sz || *sz < 5 || *sz > kMaxSize)
          fail(values[0].second, "SZ[" + excerpt(values[0].first) +
                                     "]: Gomoku plays square boards from 5x5 up to " +
                                     std::to_string(kMaxSize) + "x" + std::to_string(kMaxSize));
        size = static_cast<int>(*sz);
        if (file.board_size != 0 && file.board_size != size)
          fail(values[0].second, "SZ[" + values[0].first + "], but the game tree of line " +
                                     std::to_string(file.board_size_line) + " is " +
                                     std::to_string(file.board_size) + "x" +
                                     std::to_string(file.board_size));
        if (file.board_size == 0) {
          file.board_size = size;
          std::tie(file.board_size_line, file.board_size_column) = lines.position(values[0].second);
        }
      } else if (ident == "GM") {
        if (values[0].first != "4")
          fail(values[0].second, "GM[" + values[0].first + "] is not Gomoku (GM[4])");
      } else if (ident == "B" || ident == "W" || ident == "AB" || ident == "AW") {
        const bool black = ident == "B" || ident == "AB";
        for (const auto& [value, at] : values) {
          if (value.size() != 2 || value[0] < 'a' || value[0] >= 'a' + size || value[1] < 'a' ||
              value[1] >= 'a' + size)
            fail(at, ident + "[" + excerpt(value) + "] is not a point of the " +
                         std::to_string(size) + "x" + std::to_string(size) + " board");
          const Move m{static_cast<uint8_t>(value[0] - 'a'), static_cast<uint8_t>(value[1] - 'a')};
          if (ident.size() == 2) {
            (black ? black_setup : white_setup).emplace_back(m, at);
            continue;
          }
          if (!black_setup.empty() || !white_setup.empty()) {
            // Setup stones before the moves: Black first, alternating.
            if (black_setup.size() != white_setup.size() &&
                black_setup.size() != white_setup.size() + 1)
              fail(black_setup.empty() ? white_setup[0].second : black_setup[0].second,
                   "the AB and AW stones cannot be played Black first, alternating (" +
                       std::to_string(black_setup.size()) + " Black, " +
                       std::to_string(white_setup.size()) + " White)");
            for (size_t k = 0; k < black_setup.size() + white_setup.size(); ++k) {
              const auto& [sm, sat] = k % 2 == 0 ? black_setup[k / 2] : white_setup[k / 2];
              o.add(sm, sat);
            }
            expected = static_cast<int>(o.opening().moves.size() % 2);
            black_setup.clear();
            white_setup.clear();
          }
          if ((black ? 0 : 1) != expected)
            fail(at - ident.size() - 1,
                 ident + "[" + value + "]: " + (expected == 0 ? "Black" : "White") + " is to move");
          o.add(m, at);
          expected = 1 - expected;
        }
      }
    }
    if (!black_setup.empty() || !white_setup.empty()) {
      if (black_setup.size() != white_setup.size() && black_setup.size() != white_setup.size() + 1)
        fail(tree, "the AB and AW stones cannot be played Black first, alternating");
      for (size_t k = 0; k < black_setup.size() + white_setup.size(); ++k) {
        const auto& [sm, sat] = k % 2 == 0 ? black_setup[k / 2] : white_setup[k / 2];
        o.add(sm, sat);
      }
    }
    if (o.opening().moves.empty()) fail(tree, "the game tree has no stones");
    file.openings.push_back(o.take());
    i = skip_blanks(text, i);
  }
  if (file.openings.empty()) throw InputError(std::string(name) + ": no game in the SGF file");
  return file;
}

}  // namespace sp::gomoku
