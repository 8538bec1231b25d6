#include "games/checkers/openings.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/errors.hpp"
#include "games/checkers/notation.hpp"
#include "games/checkers/pdn.hpp"

namespace sp::checkers {
namespace {

const char* side_name(int side) { return side == 0 ? "Black" : "White"; }

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\n'; }

// The first text of the file, past blank lines and the `#` and `;` comment lines that FEN lines
// may carry, is a FEN: the file is FEN lines, not PDN.
bool starts_with_fen(std::string_view text) {
  size_t i = 0;
  for (;;) {
    while (i < text.size() && is_blank(text[i])) ++i;
    if (i == text.size() || (text[i] != '#' && text[i] != ';')) break;
    i = text.find('\n', i);
    if (i == std::string_view::npos) return false;
  }
  return i + 1 < text.size() && (text[i] == 'B' || text[i] == 'W') && text[i + 1] == ':';
}

struct Entry {
  State position;
  size_t line, column;  // 1-based
};

std::vector<Entry> fen_lines(std::string_view text, std::string_view name) {
  std::vector<Entry> out;
  size_t line = 0;
  for (size_t start = 0; start <= text.size();) {
    ++line;
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view content = text.substr(start, end - start);
    size_t first = 0;
    while (first < content.size() && is_blank(content[first])) ++first;
    size_t last = content.size();
    while (last > first && is_blank(content[last - 1])) --last;
    const std::string_view item = content.substr(first, last - first);
    if (!item.empty() && item[0] != ';' && item[0] != '#') {
      // The draw counters a FEN may carry are not an opening's: each game starts them at 0 under
      // its rules' limits. Refused rather than dropped, so that no one expects them kept.
      for (const std::string_view counter :
           {std::string_view(" ply="), std::string_view(" quiet=")})
        if (const size_t at = item.find(counter); at != std::string_view::npos)
          throw InputError(std::string(name) + ":" + std::to_string(line) + ":" +
                           std::to_string(first + at + 2) + ": an opening's " +
                           std::string(counter.substr(1, counter.size() - 2)) +
                           " counter is not kept: every game starts its counters at 0 under the "
                           "rules' limits; remove it");
      try {
        out.push_back(Entry{parse_position(item), line, first + 1});
      } catch (const InputError& e) {
        throw InputError(std::string(name) + ":" + std::to_string(line) + ":" +
                         std::to_string(first + 1) + ": " + e.what());
      }
    }
    start = end + 1;
  }
  return out;
}

std::vector<Entry> pdn_positions(std::string_view text, std::string_view name) {
  std::vector<Entry> out;
  for (const PdnGame& game : read_pdn(text, name)) {
    State s = game.start;
    for (const Move m : game.moves) apply(s, m);
    out.push_back(Entry{s, game.line, 1});
  }
  return out;
}

}  // namespace

OpeningDeck parse_openings(std::string_view text, std::string_view name) {
  const std::vector<Entry> entries =
      starts_with_fen(text) ? fen_lines(text, name) : pdn_positions(text, name);
  if (entries.empty()) throw InputError(std::string(name) + ": no position in the file");
  OpeningDeck deck;
  std::vector<std::string> fens;
  std::map<std::array<uint32_t, 4>, size_t> seen;  // position -> its first line
  for (const Entry& e : entries) {
    const auto where = [&] {
      return std::string(name) + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) +
             ": ";
    };
    State s = e.position;
    s.ply = s.quiet = 0;
    s.max_plies = State{}.max_plies;
    s.quiet_limit = State{}.quiet_limit;
    const std::string written = fen(s);
    if (!has_move(s))
      throw InputError(where() + "the opening " + written + " is over: " + side_name(s.side) +
                       " is to move and has no move");
    if (written.size() > 63)
      throw InputError(where() + "the opening's FEN " + written + " has " +
                       std::to_string(written.size()) +
                       " characters, more than the 63 that /games keeps of an opening");
    // same_position's fields as one key: a hash lookup an opening, not a scan of the deck.
    const auto [first, added] = seen.emplace(
        std::array<uint32_t, 4>{s.pieces[0], s.pieces[1], s.kings, static_cast<uint32_t>(s.side)},
        e.line);
    if (!added)
      throw InputError(where() + "the opening " + written + " is listed twice (first on line " +
                       std::to_string(first->second) + ")");
    deck.positions.push_back(s);
    fens.push_back(written);
  }
  deck.hash = lines_hash(fens);
  return deck;
}

OpeningDeck read_openings(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError("openings file " + path + " is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read openings file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError("cannot read openings file " + path);
  return parse_openings(text.str(), path);
}

}  // namespace sp::checkers
