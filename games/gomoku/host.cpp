#include "games/gomoku/host.hpp"

#include <cstdlib>
#include <string>

#include "core/deck_identity.hpp"
#include "games/gomoku/game_files.hpp"
#include "games/gomoku/pattern_engine.hpp"

namespace sp {
namespace gomoku {

WinRule parse_win_rule(std::string_view text) {
  if (text == "freestyle") return WinRule::kFreestyle;
  if (text == "standard") return WinRule::kStandard;
  if (text == "renju") throw InputError("renju is not supported; use freestyle or standard");
  throw InputError("\"" + excerpt(text) +
                   "\" is no rule; use freestyle (five or more wins) or standard (exactly five)");
}

std::string win_rule_text(WinRule rule) {
  return rule == WinRule::kStandard ? "standard" : "freestyle";
}

State random_opening(const Rules& rules, int moves, WordStream& rng, std::string* text) {
  State s = initial_state(rules);
  const int centre = rules.size / 2;
  std::vector<Move> played;
  for (int i = 0; i < moves; ++i) {
    // The empty squares of the central block where the side to move would not win.
    MoveList allowed;
    for (int y = centre - kOpeningRadius; y <= centre + kOpeningRadius; ++y)
      for (int x = centre - kOpeningRadius; x <= centre + kOpeningRadius; ++x) {
        const int sq = y * s.size + x;
        if (test_square(s.stones[0], sq) || test_square(s.stones[1], sq)) continue;
        if (makes_five(s.stones[s.side], s.size, s.rule, x, y)) continue;
        allowed.push(Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
      }
    const Move m = allowed.moves[rng.below(static_cast<uint32_t>(allowed.size))];
    apply(s, m);
    played.push_back(m);
  }
  if (text) *text = moves_text(played);
  return s;
}

}  // namespace gomoku

config::Section<gomoku::Settings> GameHost<GomokuGame>::settings_section() {
  using S = gomoku::Settings;
  config::Section<S> s;
  s.choice(
      "board_size", [](S& g) -> uint8_t& { return g.rules.size; }, uint8_t{15},
      {{"15", uint8_t{15}}, {"20", uint8_t{20}}},
      "board size: 15 (15x15) or 20 (20x20, as Gomocup's freestyle)");
  s.custom(
      "rule", [](S& g) -> gomoku::WinRule& { return g.rules.rule; }, "freestyle",
      "freestyle | standard", gomoku::parse_win_rule, gomoku::win_rule_text,
      "who wins: freestyle (five or more in a row) or standard (exactly five; six or more is no "
      "win); renju is not supported");
  s.choice("opening", &S::opening, gomoku::OpeningKind::kEmpty,
           {{"empty", gomoku::OpeningKind::kEmpty},
            {"random", gomoku::OpeningKind::kRandom},
            {"file", gomoku::OpeningKind::kFile}},
           "where every game starts: the empty board (Black moves first); random: "
           "opening_moves stones on random squares within 3 of the centre (a 7x7 block), drawn "
           "per game (per pair in paired campaigns); or file: opening k mod N of the openings "
           "file in game k (both games of pair k in paired campaigns and matches)");
  s.integer("opening_moves", &S::opening_moves, 4, 1, 20,
            "stones a random opening places, Black first (an odd number leaves White to move); "
            "used only with opening: random");
  s.file("openings", &S::openings_path,
         "opening: file: the openings, one per line in Gomocup's pos format (h8i9g7; # starts a "
         "comment); empty for configs/gomoku/openings.pos, built into the program",
         [](S& g, const std::string& path) {
           g.openings =
               path.empty()
                   ? gomoku::shipped_openings()
                   : std::make_shared<const gomoku::OpeningFile>(gomoku::load_openings(path));
         });
  // The openings file is read before the board size and rule may be known: its squares and
  // winning rows are checked against them once the section is read.
  s.check([](const S& g, const config::Document& doc, const std::string& path) {
    if (g.opening != gomoku::OpeningKind::kFile || !g.openings) return;
    const std::string key = config::detail::join(path, "openings");
    try {
      gomoku::check_openings(*g.openings, g.rules);
    } catch (const InputError& e) {
      doc.fail_key(key, e.what());
    }
    for (const gomoku::Opening& o : g.openings->openings)
      if (gomoku::moves_text(o.moves).size() > gomoku::kMaxOpeningText)
        doc.fail_key(key, g.openings->name + ":" + std::to_string(o.line) + ": an opening of " +
                              std::to_string(o.moves.size()) + " stones is longer than the " +
                              std::to_string(gomoku::kMaxOpeningText) +
                              " characters /games stores as a game's opening");
  });
  return s;
}

config::Section<gomoku::Policy> GameHost<GomokuGame>::policy_section() {
  using P = gomoku::Policy;
  constexpr config::Range kWeightRange{0, gomoku::kMaxWeight / double(gomoku::kWeightOne), false,
                                       false};
  config::Section<P> s;
  s.choice("policy", &P::kind, gomoku::PolicyKind::kUniform,
           {{"uniform", gomoku::PolicyKind::kUniform},
            {"weighted", gomoku::PolicyKind::kWeighted},
            {"pattern", gomoku::PolicyKind::kPattern}},
           "playouts: uniform random moves; weighted (a winning move when there is one, else a "
           "block of the opponent's winning square, else the weights below); or pattern (the "
           "weighted playout's weights times exp(move score / temperature), the pattern search's "
           "move scores)");
  s.fixed_point(
      "adjacent_weight", &P::adjacent_weight, 16.0, kWeightRange, gomoku::kWeightOne,
      "weighted and pattern playouts: weight of an empty square next to a stone (a square "
      "farther than two from every stone weighs 1)");
  s.fixed_point(
      "near_weight", &P::near_weight, 4.0, kWeightRange, gomoku::kWeightOne,
      "weighted and pattern playouts: weight of an empty square whose nearest stone is two "
      "squares away");
  constexpr config::Range kTemperatureRange{1, gomoku::kMaxTemperature / double(gomoku::kWeightOne),
                                            false, false};
  s.fixed_point("temperature", &P::temperature,
                gomoku::kDefaultTemperature / double(gomoku::kWeightOne), kTemperatureRange,
                gomoku::kWeightOne,
                "pattern playouts: move-score units per factor e of a square's weight (lower: "
                "the strongest squares more often)");
  return s;
}

gomoku::State GameHost<GomokuGame>::start(const gomoku::Settings& settings, uint64_t seed,
                                          uint32_t stream_game, std::string* opening) {
  if (settings.opening == gomoku::OpeningKind::kEmpty) {
    if (opening) opening->clear();
    return gomoku::initial_state(settings.rules);
  }
  if (settings.opening == gomoku::OpeningKind::kFile) {
    const std::shared_ptr<const gomoku::OpeningFile> file =
        settings.openings ? settings.openings : gomoku::shipped_openings();
    const gomoku::Opening& o = file->openings[stream_game % file->openings.size()];
    if (opening) *opening = gomoku::moves_text(o.moves);
    return gomoku::opening_state(o, settings.rules);
  }
  WordStream rng({seed, stream_game, 0, kLeafSetup, 0});
  return gomoku::random_opening(settings.rules, settings.opening_moves, rng, opening);
}

std::string GameHost<GomokuGame>::describe_rules(const gomoku::Rules& r) {
  return "board_size=" + std::to_string(r.size) + " rule=" + gomoku::win_rule_text(r.rule);
}

// Terminal play

std::string GameHost<GomokuGame>::game_file_text(const GameFileRecord& game,
                                                 std::string_view format) {
  // The rules as describe_rules writes them: "board_size=15 rule=freestyle".
  int size = gomoku::Rules{}.size;
  std::string rule = gomoku::win_rule_text(gomoku::Rules{}.rule);
  for (size_t at = 0; at < game.rules.size();) {
    size_t end = game.rules.find(' ', at);
    if (end == std::string::npos) end = game.rules.size();
    const std::string item = game.rules.substr(at, end - at);
    if (item.starts_with("board_size=")) size = std::atoi(item.c_str() + 11);
    if (item.starts_with("rule=")) rule = item.substr(5);
    at = end + 1;
  }
  if (size != 15 && size != 20)
    throw InputError("rules \"" + game.rules + "\": no board size of 15 or 20");
  return format == "psq" ? gomoku::write_psq(game, size) : gomoku::write_sgf(game, size, rule);
}

BoardFrame GameHost<GomokuGame>::board_frame(const gomoku::Rules& rules) {
  BoardFrame f;
  f.style = "gomoku";
  f.width = f.height = rules.size;
  for (int x = 0; x < rules.size; ++x) f.columns.emplace_back(1, static_cast<char>('a' + x));
  for (int y = 0; y < rules.size; ++y) f.rows.push_back(std::to_string(y + 1));
  return f;
}

BoardPicture GameHost<GomokuGame>::picture(const gomoku::State& s) {
  using namespace gomoku;
  const int n = s.size;
  BoardPicture p;
  p.cells.assign(n * n, '.');
  for (int sq = 0; sq < n * n; ++sq)
    p.cells[sq] = test_square(s.stones[0], sq) ? 'x' : test_square(s.stones[1], sq) ? 'o' : '.';
  if (s.winner != kNoWinner) {
    // Every stone of the winner that stands in a winning row along a line, in square order.
    const uint64_t* own = s.stones[s.winner];
    const bool exact = s.rule == WinRule::kStandard;
    std::vector<bool> marked(n * n, false);
    for (int sq = 0; sq < n * n; ++sq) {
      if (!test_square(own, sq)) continue;
      const int x = sq % n, y = sq / n;
      for (int d = 0; d < kDirections; ++d) {
        const int dx = direction_dx(d), dy = direction_dy(d);
        // Only from a row's first stone: the one behind it is not the winner's.
        const int bx = x - dx, by = y - dy;
        if (on_board(n, bx, by) && test_square(own, by * n + bx)) continue;
        int len = 0;
        for (int cx = x, cy = y; on_board(n, cx, cy) && test_square(own, cy * n + cx);
             cx += dx, cy += dy)
          ++len;
        if (exact ? len != 5 : len < 5) continue;
        for (int k = 0; k < len; ++k) marked[(y + k * dy) * n + (x + k * dx)] = true;
      }
    }
    for (int sq = 0; sq < n * n; ++sq)
      if (marked[sq]) p.marks.push_back(sq);
  }
  return p;
}

std::string GameHost<GomokuGame>::board_text(const gomoku::State& s) {
  std::string letters = "   ";
  for (int x = 0; x < s.size; ++x) {
    letters += ' ';
    letters += static_cast<char>('a' + x);
  }
  letters += '\n';
  std::string out = letters;
  for (int y = 0; y < s.size; ++y) {
    std::string row = std::to_string(y + 1);
    out += std::string(3 - row.size(), ' ') + row;
    for (int x = 0; x < s.size; ++x) {
      const int sq = y * s.size + x;
      out += ' ';
      out += gomoku::test_square(s.stones[0], sq)   ? 'x'
             : gomoku::test_square(s.stones[1], sq) ? 'o'
                                                    : '.';
    }
    out += ' ' + row + '\n';
  }
  return out + letters;
}

std::string GameHost<GomokuGame>::move_help() {
  return "  <square>     place a stone, e.g. h8 (columns a-o from the left, rows 1-15 from the "
         "top on 15x15; a-t, 1-20 on 20x20)\n";
}

std::string GameHost<GomokuGame>::moves_hint(const gomoku::State& s) {
  using namespace gomoku;
  const int n = s.size;
  std::string out = "Moves: any of the " + std::to_string(n * n - s.ply) +
                    " empty squares, a column a-" + static_cast<char>('a' + n - 1) +
                    " from the left and a row 1-" + std::to_string(n) + " from the top (" +
                    square_name(n / 2, n / 2) + " is the centre)\n";
  const auto list = [&](const uint64_t(&squares)[kWords]) {
    std::string names;
    for (int w = 0; w < kWords; ++w)
      for (uint64_t b = squares[w]; b; b &= b - 1) {
        const Move m = move_at(n, 64 * w + lsb64(b));
        names += (names.empty() ? "" : ", ") + to_string(m);
      }
    return names;
  };
  uint64_t squares[kWords];
  winning_squares(s, s.side, squares);
  std::string names = list(squares);
  if (!names.empty()) return out + "Five in a row at: " + names + "\n";
  winning_squares(s, s.side ^ 1, squares);
  names = list(squares);
  if (!names.empty())
    return out + (s.side == 0 ? "White" : "Black") + " threatens five at: " + names +
           " (it wins there next move unless blocked)\n";
  return out;
}

std::string GameHost<GomokuGame>::rules_help(const gomoku::Rules& rules) {
  return std::string("Five in a row (across, down or diagonally) wins") +
         (rules.rule == gomoku::WinRule::kStandard ? ", exactly five: six or more does not.\n"
                                                   : "; so do six or more.\n") +
         "A full board is a draw.\n";
}

std::string GameHost<GomokuGame>::win_reason(const gomoku::State& before, gomoku::Move move,
                                             bool human) {
  using namespace gomoku;
  State after = before;
  apply(after, move);
  const uint64_t* own = after.stones[before.side];
  const auto has = [&](int x, int y) {
    return on_board(after.size, x, y) && test_square(own, y * after.size + x);
  };
  for (int d = 0; d < kDirections; ++d) {
    const int dx = direction_dx(d), dy = direction_dy(d);
    int back = 0, ahead = 0;
    while (has(move.x - (back + 1) * dx, move.y - (back + 1) * dy)) ++back;
    while (has(move.x + (ahead + 1) * dx, move.y + (ahead + 1) * dy)) ++ahead;
    const int len = 1 + back + ahead;
    if (after.rule == WinRule::kStandard ? len != 5 : len < 5) continue;
    static constexpr const char* kCount[] = {"five", "six", "seven", "eight", "nine"};
    return std::string(human ? "your " : "its ") + kCount[len - 5] + " in a row " +
           square_name(move.x - back * dx, move.y - back * dy) + "-" +
           square_name(move.x + ahead * dx, move.y + ahead * dy);
  }
  return "";
}

gomoku::Rules GameHost<GomokuGame>::pbrain_board(const gomoku::Rules& rules, int width,
                                                 int height) {
  if (width != height || !gomoku::is_board_size(width))
    throw InputError("a " + std::to_string(width) + "x" + std::to_string(height) +
                     " board is not supported; Gomoku plays 15x15 and 20x20");
  gomoku::Rules out = rules;
  out.size = static_cast<uint8_t>(width);
  return out;
}

gomoku::Rules GameHost<GomokuGame>::pbrain_rule(const gomoku::Rules& rules, int64_t bits) {
  constexpr int64_t kExactFive = 1, kContinuous = 2, kRenju = 4, kCaro = 8;
  if (bits & kRenju) throw InputError("renju is not supported; freestyle and exactly five are");
  if (bits & kCaro) throw InputError("caro is not supported; freestyle and exactly five are");
  if (bits < 0 || (bits & ~(kExactFive | kContinuous)) != 0)
    throw InputError("rule " + std::to_string(bits) +
                     " has unknown bits; known: 1 exactly five, 2 continuous, 4 renju, 8 caro");
  gomoku::Rules out = rules;
  out.rule = bits & kExactFive ? gomoku::WinRule::kStandard : gomoku::WinRule::kFreestyle;
  return out;
}

gomoku::Move GameHost<GomokuGame>::pbrain_move(const gomoku::State& s, int64_t x, int64_t y) {
  const int n = s.size;
  if (x < 0 || y < 0 || x >= n || y >= n)
    throw InputError(std::to_string(x) + "," + std::to_string(y) + " is off the " +
                     std::to_string(n) + "x" + std::to_string(n) + " board (x and y 0-" +
                     std::to_string(n - 1) + ")");
  const gomoku::Move m{static_cast<uint8_t>(x), static_cast<uint8_t>(y)};
  const std::string name =
      std::to_string(x) + "," + std::to_string(y) + " (" + gomoku::to_string(m) + ")";
  if (gomoku::is_over(s)) {
    const char* how = s.winner == gomoku::kNoWinner ? "a draw: the board is full"
                      : s.winner == 0               ? "Black won"
                                                    : "White won";
    throw InputError(std::string("the game is over (") + how + ")");
  }
  for (int side = 0; side < 2; ++side)
    if (gomoku::test_square(s.stones[side], gomoku::square_of(s, m)))
      throw InputError(name + " is taken by a " + (side == 0 ? "Black" : "White") + " stone");
  return m;
}

std::vector<std::pair<std::string, std::string>> GameHost<GomokuGame>::settings_identity(
    const gomoku::Settings& settings) {
  if (settings.opening != gomoku::OpeningKind::kFile) return {{"openings", ""}};
  const auto file = settings.openings ? settings.openings : gomoku::shipped_openings();
  std::vector<std::string> lines;
  for (const gomoku::Opening& o : file->openings) lines.push_back(gomoku::moves_text(o.moves));
  return {{"openings", deck_identity(lines.size(), "openings", lines_hash(lines))}};
}

std::vector<PbrainStone> GameHost<GomokuGame>::pbrain_stones(const gomoku::State& s) {
  std::vector<PbrainStone> out;
  for (int y = 0; y < s.size; ++y)
    for (int x = 0; x < s.size; ++x)
      for (int p = 0; p < 2; ++p)
        if (gomoku::test_square(s.stones[p], y * s.size + x)) out.push_back({x, y, p});
  return out;
}

std::string GameHost<GomokuGame>::check_native_engine(const search::NativeEngineSpec& spec) {
  if (!spec.has_weights)
    return "pattern: the pattern search needs weights (e.g. configs/gomoku/weights/pattern.yaml)";
  for (int i = 0; i < gomoku::kFirstPatternFeature; ++i)
    if (spec.weights[static_cast<size_t>(i)] != 0)
      return "pattern: the pattern search weighs only the own_to_*/opp_to_* features, but " +
             spec.weights_path + " gives " + std::string(gomoku::kFeatureNames[i]) +
             " a weight (set the window features to 0, as configs/gomoku/weights/pattern.yaml "
             "does)";
  return "";
}

std::unique_ptr<search::Engine<GomokuGame>> GameHost<GomokuGame>::native_engine(
    const search::NativeEngineSpec& spec, const gomoku::Rules&) {
  if (const std::string why = check_native_engine(spec); !why.empty())
    throw InputError("search: " + why);
  gomoku::PatternEngineOptions options;
  options.time_ms = spec.time_ms;
  options.search.depth = static_cast<int>(spec.depth);
  options.search.tt_size_mb = spec.tt_size_mb;
  options.search.vcf_nodes = spec.threat_nodes;
  options.search.root_vcf_nodes = spec.threat_nodes * 1024;
  options.search.root_vct_nodes = spec.threat_nodes * 512;
  options.search.forced_extension = spec.forced_extension;
  options.search.futility = spec.futility;
  options.search.razoring = spec.razoring;
  options.search.move_count_pruning = spec.move_count_pruning;
  options.search.time_management = spec.time_management;
  options.search.score_reductions = spec.score_reductions;
  options.search.opponent_vct = spec.opponent_vct;
  const std::vector<double> weights(spec.weights.begin() + gomoku::kFirstPatternFeature,
                                    spec.weights.end());
  return std::make_unique<gomoku::PatternEngine>(weights, options, spec.evaluation_name,
                                                 spec.move_scores);
}

}  // namespace sp
