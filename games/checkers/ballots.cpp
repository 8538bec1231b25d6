#include "games/checkers/ballots.hpp"

#include <string>

#include "core/errors.hpp"
#include "games/checkers/notation.hpp"

namespace sp::checkers {

// configs/checkers/ballots.txt, compiled in (games/CMakeLists.txt writes it into a source file).
extern const char kShippedBallotsText[];

namespace {

const char* side_name(int side) { return side == 0 ? "Black" : "White"; }

// A ballot read from text, or where and why it is none.
struct ReadBallot {
  Ballot ballot{};
  bool ok = false;
  size_t column = 0;  // 0-based, when !ok
  std::string problem;
};

ReadBallot read_ballot(std::string_view text) {
  ReadBallot r;
  const auto fail = [&](size_t column, std::string problem) {
    r.column = column;
    r.problem = std::move(problem);
    return r;
  };
  State s = initial_state();
  size_t i = 0;
  for (int k = 0; k < 3; ++k) {
    while (i < text.size() && text[i] == ' ') ++i;
    if (i == text.size())
      return fail(i,
                  "a ballot has three moves (Black, White, Black), this one " + std::to_string(k));
    const size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    const std::string_view word = text.substr(start, i - start);
    const MoveText written = lex_move(word);
    if (!written.ok) return fail(start + written.column, written.problem);
    const std::vector<Move> fits = matching_moves(s, written);
    if (fits.empty())
      return fail(start, std::string(word) + " is not a legal move for " + side_name(s.side) +
                             " in " + fen(s) + " (legal: " + legal_moves_text(s) + ")");
    if (fits.size() > 1)
      return fail(start, std::string(word) + " fits " + std::to_string(fits.size()) +
                             " legal moves; write the full path");
    r.ballot.moves[k] = fits[0];
    apply(s, fits[0]);
  }
  while (i < text.size() && text[i] == ' ') ++i;
  if (i < text.size()) return fail(i, "more than three moves");
  r.ok = true;
  return r;
}

}  // namespace

std::vector<Ballot> three_ply_starts() {
  std::vector<Ballot> out;
  const State start = initial_state();
  MoveList first;
  generate_moves(start, first);
  for (int a = 0; a < first.size; ++a) {
    State s1 = start;
    apply(s1, first.moves[a]);
    MoveList second;
    generate_moves(s1, second);
    for (int b = 0; b < second.size; ++b) {
      State s2 = s1;
      apply(s2, second.moves[b]);
      MoveList third;
      generate_moves(s2, third);
      for (int c = 0; c < third.size; ++c)
        out.push_back(Ballot{{first.moves[a], second.moves[b], third.moves[c]}});
    }
  }
  return out;
}

std::string ballot_text(const Ballot& ballot) {
  return to_string(ballot.moves[0]) + " " + to_string(ballot.moves[1]) + " " +
         to_string(ballot.moves[2]);
}

State ballot_position(const Ballot& ballot, const Rules& rules) {
  State s = initial_state(rules);
  for (const Move m : ballot.moves) apply(s, m);
  return s;
}

Ballot parse_ballot(std::string_view text) {
  const ReadBallot r = read_ballot(text);
  if (!r.ok)
    throw InputError("ballot \"" + excerpt(text) + "\": column " + std::to_string(r.column + 1) +
                     ": " + r.problem);
  return r.ballot;
}

std::vector<Ballot> parse_ballots(std::string_view text, std::string_view name) {
  std::vector<Ballot> out;
  std::vector<size_t> lines;  // each ballot's line, for duplicates
  size_t line = 0;
  for (size_t line_start = 0; line_start <= text.size();) {
    ++line;
    size_t end = text.find('\n', line_start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view content = text.substr(line_start, end - line_start);
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    const size_t hash = content.find('#');
    if (hash != std::string_view::npos) content = content.substr(0, hash);
    const auto where = [&](size_t column) {
      return std::string(name) + ":" + std::to_string(line) + ":" + std::to_string(column + 1) +
             ": ";
    };
    size_t first = 0;
    while (first < content.size() && (content[first] == ' ' || content[first] == '\t')) ++first;
    if (first < content.size()) {
      size_t last = content.size();
      while (last > first && (content[last - 1] == ' ' || content[last - 1] == '\t')) --last;
      const std::string_view item = content.substr(first, last - first);
      if (const size_t tab = item.find('\t'); tab != std::string_view::npos)
        throw InputError(where(first + tab) + "separate the moves with spaces, not tabs");
      const ReadBallot r = read_ballot(item);
      if (!r.ok) throw InputError(where(first + r.column) + r.problem);
      for (size_t k = 0; k < out.size(); ++k)
        if (out[k] == r.ballot)
          throw InputError(where(first) + "ballot " + ballot_text(r.ballot) +
                           " is listed twice (first on line " + std::to_string(lines[k]) + ")");
      out.push_back(r.ballot);
      lines.push_back(line);
    }
    line_start = end + 1;
  }
  if (out.empty()) throw InputError(std::string(name) + ": no ballot in the file");
  return out;
}

std::string_view shipped_ballots_text() { return kShippedBallotsText; }

const std::vector<Ballot>& shipped_ballots() {
  static const std::vector<Ballot> deck =
      parse_ballots(kShippedBallotsText, "configs/checkers/ballots.txt (built in)");
  return deck;
}

}  // namespace sp::checkers
