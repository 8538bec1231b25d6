#include "games/checkers/host.hpp"

#include <string>

namespace sp {
namespace checkers {

Start parse_start(std::string_view text) {
  if (text == "standard") return Start{};
  if (text == "ballots") return Start{StartKind::kBallots, initial_state()};
  if (text == "file") return Start{StartKind::kFile, initial_state()};
  const State s = parse_position(text);
  if (s.ply != 0 || s.quiet != 0 || s.max_plies != State{}.max_plies ||
      s.quiet_limit != State{}.quiet_limit)
    throw InputError("start \"" + excerpt(text) +
                     "\": a FEN without ply= or quiet= (the rules section sets the draw limits)");
  const std::string written = fen(s);
  if (written.size() > 63)
    throw InputError("start \"" + excerpt(text) + "\": its FEN " + written + " has " +
                     std::to_string(written.size()) +
                     " characters, more than the 63 that /games keeps of an opening");
  if (!has_move(s))
    throw InputError("start \"" + excerpt(text) + "\": the side to move has no move");
  return Start{StartKind::kFen, s};
}

std::string start_text(const Start& start) {
  switch (start.kind) {
    case StartKind::kStandard:
      return "standard";
    case StartKind::kBallots:
      return "ballots";
    case StartKind::kFile:
      return "file";
    case StartKind::kFen:
      break;
  }
  return fen(start.position);
}

Opening parse_opening(std::string_view text) {
  Opening o;
  if (text.empty()) return o;
  if (text[0] == 'B' || text[0] == 'W') {
    o.position = parse_position(text);
    return o;
  }
  const Ballot b = parse_ballot(text);
  o.moves.assign(b.moves.begin(), b.moves.end());
  return o;
}

std::string pdn_date(std::string_view t) {
  const auto digits = [&](size_t from, size_t n) {
    for (size_t i = from; i < from + n; ++i)
      if (i >= t.size() || t[i] < '0' || t[i] > '9') return false;
    return true;
  };
  if (!digits(0, 4) || t.size() < 10 || t[4] != '-' || !digits(5, 2) || t[7] != '-' ||
      !digits(8, 2))
    return "????.??.??";
  return std::string(t.substr(0, 4)) + "." + std::string(t.substr(5, 2)) + "." +
         std::string(t.substr(8, 2));
}

}  // namespace checkers

config::Section<checkers::Settings> GameHost<CheckersGame>::settings_section() {
  using S = checkers::Settings;
  config::Section<S> s;
  s.integer(
      "max_plies", [](S& g) -> uint16_t& { return g.rules.max_plies; }, 400, 1, 10000,
      "a draw when the game reaches this many plies");
  s.integer(
      "quiet_plies", [](S& g) -> uint8_t& { return g.rules.quiet_limit; }, 80, 0, 255,
      "a draw after this many plies in a row without a capture or a man move (80: the 40-move "
      "rule); 0 = never. Playouts end repeated king moves by this rule and max_plies alone");
  s.integer(
      "repetition", [](S& g) -> uint8_t& { return g.rules.repetition; }, 3, 0, 255,
      "a draw when the same position (pieces and side to move) occurs this many times: 3 = "
      "threefold repetition; 0 = never, 1 is refused. Applies to games and alpha-beta's search, "
      "not to playouts");
  s.check([](const S& g, const config::Document& doc, const std::string& path) {
    if (g.rules.repetition == 1)
      doc.fail_key(path + ".repetition",
                   "1 would draw every game at its first move: use 2 or more, or 0 for no rule");
  });
  s.custom("start", &S::start, "standard",
           "standard | ballots | file | a FEN such as W:W18,K30:B1,5", checkers::parse_start,
           checkers::start_text,
           "where every game starts: the standard position (Black moves first), the 3-move "
           "ballots built in from configs/checkers/ballots.txt (game k, or pair k when paired, "
           "plays ballot k mod N), the positions of the openings file (the same way), or a FEN");
  s.file("openings", &S::openings,
         "start: file: a PDN file of games or positions ([FEN \"...\"] *), or one FEN per line; "
         "each game's position after its moves is an opening",
         [](S& g, const std::string& path) {
           g.deck =
               path.empty()
                   ? nullptr
                   : std::make_shared<const checkers::OpeningDeck>(checkers::read_openings(path));
         });
  s.check([](const S& g, const config::Document& doc, const std::string& path) {
    const bool file = g.start.kind == checkers::StartKind::kFile;
    if (file && !g.deck)
      doc.fail_key(path + ".openings", "start: file needs an openings file (PDN or FEN lines)");
    if (!file && g.deck)
      doc.fail_key(path + ".openings", "an openings file is read only with start: file");
  });
  return s;
}

config::Section<checkers::Policy> GameHost<CheckersGame>::policy_section() {
  using P = checkers::Policy;
  constexpr config::Range kWeightRange{0, checkers::kMaxWeight / double(checkers::kWeightOne), true,
                                       false};
  config::Section<P> s;
  s.choice(
      "policy", &P::kind, checkers::PolicyKind::kUniform,
      {{"uniform", checkers::PolicyKind::kUniform}, {"weighted", checkers::PolicyKind::kWeighted}},
      "playouts: uniform random moves, or weighted (the weights below)");
  s.fixed_point("advance_weight", &P::advance_weight, 2.0, kWeightRange, checkers::kWeightOne,
                "weighted playouts: weight of a man's step (a king's step weighs 1)");
  s.fixed_point("crown_weight", &P::crown_weight, 4.0, kWeightRange, checkers::kWeightOne,
                "weighted playouts: weight factor of a move that crowns a man");
  s.fixed_point("capture_weight", &P::capture_weight, 2.0, kWeightRange, checkers::kWeightOne,
                "weighted playouts: weight factor per piece a capture takes beyond the first");
  return s;
}

checkers::State GameHost<CheckersGame>::start(const checkers::Settings& settings, uint64_t,
                                              uint32_t stream_game, std::string* opening) {
  switch (settings.start.kind) {
    case checkers::StartKind::kStandard:
      break;
    case checkers::StartKind::kFen:
      if (opening) *opening = checkers::fen(settings.start.position);
      return checkers::with_rules(settings.start.position, settings.rules);
    case checkers::StartKind::kFile: {
      const std::vector<checkers::State>& positions = settings.deck->positions;
      const checkers::State& s = positions[stream_game % positions.size()];
      if (opening) *opening = checkers::fen(s);
      return checkers::with_rules(s, settings.rules);
    }
    case checkers::StartKind::kBallots: {
      const std::vector<checkers::Ballot>& deck = checkers::shipped_ballots();
      const checkers::Ballot& ballot = deck[stream_game % deck.size()];
      if (opening) *opening = checkers::ballot_text(ballot);
      return checkers::ballot_position(ballot, settings.rules);
    }
  }
  if (opening) opening->clear();
  return checkers::initial_state(settings.rules);
}

std::string GameHost<CheckersGame>::describe_rules(const checkers::Rules& r) {
  return "max_plies=" + std::to_string(r.max_plies) +
         " quiet_plies=" + std::to_string(r.quiet_limit) +
         " repetition=" + std::to_string(r.repetition);
}

std::vector<std::pair<std::string, std::string>> GameHost<CheckersGame>::settings_identity(
    const checkers::Settings& settings) {
  using checkers::StartKind;
  if (settings.start.kind == StartKind::kFile && settings.deck)
    return {{"openings",
             deck_identity(settings.deck->positions.size(), "positions", settings.deck->hash)}};
  if (settings.start.kind == StartKind::kBallots) {
    std::vector<std::string> lines;
    for (const checkers::Ballot& b : checkers::shipped_ballots())
      lines.push_back(checkers::ballot_text(b));
    return {{"openings", deck_identity(lines.size(), "ballots", lines_hash(lines))}};
  }
  return {};
}

std::string GameHost<CheckersGame>::game_file_text(const GameFileRecord& game, std::string_view) {
  using namespace checkers;
  const std::string which = "game " + std::to_string(game.game_id);
  Opening opening;
  try {
    opening = parse_opening(game.opening);
  } catch (const InputError& e) {
    throw InputError(which + ": opening \"" + excerpt(game.opening) + "\": " + e.what());
  }
  PdnGame pdn;
  pdn.start = without_draw_limits(opening.position);
  pdn.moves = opening.moves;
  State s = pdn.start;
  for (const Move m : opening.moves) apply(s, m);
  if (s.side != game.first_player)
    throw InputError(which + ": first player " + std::to_string(game.first_player) +
                     ", but its opening leaves player " + std::to_string(s.side) + " to move");
  for (size_t ply = 0; ply < game.moves.size(); ++ply) {
    // Stored moves are full paths (move_text); anything else is not this program's record.
    MoveList legal;
    generate_moves(s, legal);
    int found = -1;
    for (int k = 0; k < legal.size && found < 0; ++k)
      if (to_string(legal.moves[k]) == game.moves[ply]) found = k;
    if (found < 0)
      throw InputError(which + ", ply " + std::to_string(ply) + ": move \"" +
                       excerpt(game.moves[ply]) + "\" is not legal in " + fen(s) +
                       " (legal: " + legal_moves_text(s) + ")");
    pdn.moves.push_back(legal.moves[found]);
    apply(s, legal.moves[found]);
  }
  const auto tag = [&](const char* name, std::string value) {
    pdn.tags.push_back(PdnTag{name, std::move(value)});
  };
  tag("Event", game.event);
  tag("Site", game.site.empty() ? "?" : game.site);
  tag("Date", pdn_date(game.start_time));
  tag("Round", std::to_string(game.game_id));
  tag("Black", game.players[0].empty() ? "?" : game.players[0]);
  tag("White", game.players[1].empty() ? "?" : game.players[1]);
  tag("GameType", "21");
  if (!game.program.empty()) tag("Program", game.program);
  pdn.result = pdn_result(game.winner == 0 || game.winner == 1 ? game.winner : kNoWinner);
  return write_pdn(pdn);
}

BoardFrame GameHost<CheckersGame>::board_frame(const checkers::Rules&) {
  using namespace checkers;
  BoardFrame f;
  f.style = "checkers";
  f.width = f.height = 8;
  for (int file = 0; file < 8; ++file) f.columns.emplace_back(1, static_cast<char>('a' + file));
  for (int row = 0; row < 8; ++row) f.rows.push_back(std::to_string(8 - row));
  for (int row = 0; row < 8; ++row)
    for (int file = 0; file < 8; ++file) {
      const int sq = square_at(row, file);
      f.squares.push_back(sq < 0 ? std::string() : square_text(sq));
    }
  return f;
}

BoardPicture GameHost<CheckersGame>::picture(const checkers::State& s) {
  using namespace checkers;
  BoardPicture p;
  for (int row = 0; row < 8; ++row)
    for (int file = 0; file < 8; ++file) {
      const int sq = square_at(row, file);
      if (sq < 0) {
        p.cells += '-';
        continue;
      }
      const uint32_t bit = 1u << sq;
      const bool king = (s.kings & bit) != 0;
      p.cells += (s.pieces[0] & bit)   ? (king ? 'B' : 'b')
                 : (s.pieces[1] & bit) ? (king ? 'W' : 'w')
                                       : '.';
    }
  return p;
}

std::string GameHost<CheckersGame>::board_text(const checkers::State& s) {
  using namespace checkers;
  // The pieces on the left, the square numbers of the same diagram on the right.
  std::string out = "     a b c d e f g h\n";
  for (int row = 0; row < 8; ++row) {
    std::string pieces, numbers;
    for (int file = 0; file < 8; ++file) {
      const int sq = square_at(row, file);
      if (sq < 0) {
        pieces += "  ";
        numbers += "  ";
        continue;
      }
      const uint32_t bit = 1u << sq;
      const bool king = (s.kings & bit) != 0;
      const char piece = (s.pieces[0] & bit)   ? (king ? 'B' : 'b')
                         : (s.pieces[1] & bit) ? (king ? 'W' : 'w')
                                               : '.';
      pieces += ' ';
      pieces += piece;
      const std::string n = square_text(sq);
      numbers += std::string(2 - n.size(), ' ') + n;
    }
    std::string line = "  " + std::to_string(8 - row) + " " + pieces + "     " + numbers;
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

std::string GameHost<CheckersGame>::side_name(int side) {
  return side == 0 ? "Black (men b, kings B; moves first, down the board toward 29-32)"
                   : "White (men w, kings W; up the board toward 1-4)";
}

std::string GameHost<CheckersGame>::move_help() {
  return "  11-15        move the piece on square 11 to 15 (the numbers beside the board)\n"
         "  22x15        a capture; a multi-jump names every landing square (9x18x27),\n"
         "               or its start and end alone when one jump path fits (9x27)\n";
}

std::string GameHost<CheckersGame>::rules_help(const checkers::Rules& rules) {
  std::string out =
      "Rules: men move one square diagonally forward, kings (B, W) forward or back. Capturing is\n"
      "compulsory (any capture, not necessarily the longest), a multi-jump is one move, and a\n"
      "man that reaches the far row becomes a king and ends its move there. A side without a\n"
      "move loses. A draw at ply " +
      std::to_string(rules.max_plies);
  if (rules.quiet_limit != 0)
    out +=
        " or after " + std::to_string(rules.quiet_limit) + " plies without a capture or a man move";
  if (rules.repetition != 0)
    out += ",\nor when the same position (with the same side to move) occurs " +
           std::to_string(rules.repetition) + " times";
  return out + ".\n";
}

std::string GameHost<CheckersGame>::win_reason(const checkers::State& before, checkers::Move move,
                                               bool human) {
  checkers::State after = before;
  checkers::apply(after, move);
  const bool none_left = after.pieces[after.side] == 0;
  if (human)
    return none_left ? "you took the engine's last piece"
                     : "the engine's pieces are blocked, it has no move";
  return none_left ? "it took your last piece" : "your pieces are blocked, you have no move";
}

}  // namespace sp
