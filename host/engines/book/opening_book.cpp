#include "host/engines/book/opening_book.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "host/base/system/atomic_file.hpp"

namespace sp::book {
namespace {

constexpr const char* kColumns = "position\trank\tmove\tgames\tscore";
constexpr const char* kFirstLine =
    "# selfplay opening book (selfplay book build; docs/engines-and-matches.md \"Opening books\")";

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string_view::npos ? line.npos : tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

template <class T>
bool parse_number(std::string_view text, T& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

}  // namespace

const BookEntry* OpeningBook::find(std::string_view position) const {
  const auto it = by_position_.find(std::string(position));
  return it == by_position_.end() ? nullptr : &entries[it->second];
}

void OpeningBook::index() {
  by_position_.clear();
  by_position_.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) by_position_.emplace(entries[i].position, i);
}

std::string OpeningBook::text() const {
  std::string out = std::string(kFirstLine) + "\n";
  out += "game\t" + game + "\n";
  out += "rules\t" + rules + "\n";
  out += "plies\t" + std::to_string(plies) + "\n";
  out += "built\t" + built + "\n";
  out += std::string(kColumns) + "\n";
  for (const BookEntry& e : entries)
    for (size_t r = 0; r < e.moves.size(); ++r)
      out += fmt::format("{}\t{}\t{}\t{}\t{:.4f}\n", e.position, r, e.moves[r].move,
                         e.moves[r].games, e.moves[r].score);
  return out;
}

std::string OpeningBook::digest() const {
  uint64_t h = 0xcbf29ce484222325ull;
  const std::string t = text();
  bool comment = false, line_start = true;
  for (const char c : t) {
    if (line_start) comment = c == '#';
    line_start = c == '\n';
    if (comment) continue;
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

OpeningBook parse_book(const std::string& text, const std::string& name) {
  OpeningBook book;
  book.source = name;
  std::istringstream in(text);
  std::string raw;
  size_t line_no = 0;
  bool columns = false;
  bool has_game = false, has_rules = false, has_plies = false;
  const auto fail = [&](const std::string& what) {
    throw InputError(name + ":" + std::to_string(line_no) + ": " + what);
  };
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = raw;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> fields = split_tabs(line);
    if (!columns) {
      if (line == kColumns) {
        if (!has_game || !has_rules || !has_plies)
          fail(std::string("the header lacks ") +
               (!has_game    ? "game"
                : !has_rules ? "rules"
                             : "plies") +
               " (a book starts with its game, rules, plies and built lines)");
        columns = true;
        continue;
      }
      if (fields.size() != 2)
        fail("\"" + excerpt(line) +
             "\" is no header line (a key, a tab and its value) and not the columns line \"" +
             "position<TAB>rank<TAB>move<TAB>games<TAB>score\"");
      const std::string_view key = fields[0], value = fields[1];
      if (key == "game") {
        book.game = value;
        has_game = !value.empty();
        if (!has_game) fail("game is empty");
      } else if (key == "rules") {
        book.rules = value;
        has_rules = true;
      } else if (key == "plies") {
        if (!parse_number(value, book.plies) || book.plies < 1 || book.plies > 1000)
          fail("plies \"" + excerpt(value) + "\" is not a count of 1 to 1000");
        has_plies = true;
      } else if (key == "built") {
        book.built = value;
      } else {
        fail("unknown header key \"" + excerpt(key) + "\" (known: game, rules, plies, built)");
      }
      continue;
    }
    if (fields.size() != 5)
      fail("a row has five tab-separated fields (position, rank, move, games, score); this one " +
           std::to_string(fields.size()));
    size_t rank = 0;
    if (!parse_number(fields[1], rank)) fail("rank \"" + excerpt(fields[1]) + "\" is no count");
    BookMove move;
    move.move = fields[2];
    if (move.move.empty()) fail("the move is empty");
    if (!parse_number(fields[3], move.games) || move.games == 0)
      fail("games \"" + excerpt(fields[3]) + "\" is not a count of 1 or more");
    if (!parse_number(fields[4], move.score) || !std::isfinite(move.score) || move.score < 0 ||
        move.score > 1)
      fail("score \"" + excerpt(fields[4]) + "\" is not a number from 0 to 1");
    if (fields[0].empty()) fail("the position is empty");
    if (rank == 0) {
      book.entries.push_back({std::string(fields[0]), {}, line_no});
    } else if (book.entries.empty() || book.entries.back().position != fields[0] ||
               book.entries.back().moves.size() != rank) {
      fail("rank " + std::to_string(rank) + " does not follow rank " + std::to_string(rank - 1) +
           " of the same position: each position's rows come together, ranked 0, 1, ...");
    }
    for (const BookMove& m : book.entries.back().moves)
      if (m.move == move.move) fail("move " + excerpt(move.move) + " is listed twice");
    book.entries.back().moves.push_back(std::move(move));
  }
  if (!columns)
    throw InputError(name + ": no columns line \"position<TAB>rank<TAB>move<TAB>games<TAB>score\"" +
                     " (is this an opening book? `selfplay book build` writes them)");
  if (book.entries.empty()) throw InputError(name + ": the book has no positions");
  book.index();
  for (size_t i = 0; i < book.entries.size(); ++i)
    if (book.find(book.entries[i].position) != &book.entries[i])
      throw InputError(name + ":" + std::to_string(book.entries[i].line) + ": position " +
                       excerpt(book.entries[i].position) + " is listed twice (first at line " +
                       std::to_string(book.find(book.entries[i].position)->line) + ")");
  return book;
}

OpeningBook read_book(const std::string& path) {
  // A device or a FIFO named by mistake (/dev/zero) would never end: only regular files are read.
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw InputError("cannot read " + excerpt(path) + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + excerpt(path) + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError("cannot read " + excerpt(path) + ": " + std::strerror(errno));
  return parse_book(text.str(), path);
}

void write_book(const std::string& path, const OpeningBook& book) {
  write_file_atomically(path, book.text());
}

}  // namespace sp::book
