#include "games/ewn/host.hpp"

namespace sp {

using ewn::Arrangement;
using ewn::FirstPlayer;
using ewn::SetupKind;

config::Section<ewn::Settings> GameHost<EwnGame>::settings_section() {
  using S = ewn::Settings;
  config::Section<S> s;
  s.boolean(
      "capture_own", [](S& g) -> bool& { return g.rules.capture_own; }, true,
      "a cube may move onto a cube of its own side, removing it; false forbids that");
  s.choice(
      "substitution", [](S& g) -> ewn::Substitution& { return g.rules.substitution; },
      ewn::Substitution::kNextLowerOrHigher,
      {{"next_lower_or_higher", ewn::Substitution::kNextLowerOrHigher},
       {"nearest", ewn::Substitution::kNearest}},
      "which cube may move when the rolled one is gone");
  s.choice("first_player", &S::first_player, FirstPlayer::kPlayer0,
           {{"0", FirstPlayer::kPlayer0},
            {"1", FirstPlayer::kPlayer1},
            {"alternate", FirstPlayer::kAlternate}},
           "who moves first; alternate switches from game to game");
  s.choice("setup", &S::setup, SetupKind::kRandom,
           {{"random", SetupKind::kRandom},
            {"mirrored", SetupKind::kMirrored},
            {"fixed", SetupKind::kFixed},
            {"explicit", SetupKind::kExplicit}},
           "start arrangements: random per game, mirrored, fixed (123456 both), explicit (below)");
  const auto parse = [](std::string_view text) { return ewn::parse_arrangement(text); };
  const auto format = [](const Arrangement& a) { return ewn::to_string(a); };
  s.custom("setup_p0", &S::setup_p0, "123456", "six digits 1-6, each once", parse, format,
           "player 0's cube number on each start square; used only with setup: explicit");
  s.custom("setup_p1", &S::setup_p1, "123456", "six digits 1-6, each once", parse, format,
           "player 1's cube number on each start square; used only with setup: explicit");
  return s;
}

config::Section<ewn::PlayoutPolicy> GameHost<EwnGame>::policy_section() {
  using P = ewn::PlayoutPolicy;
  constexpr config::Range kWeightRange{0, ewn::kMaxWeight / double(ewn::kWeightOne), true, false};
  config::Section<P> s;
  s.choice("policy", &P::kind, ewn::PolicyKind::kUniform,
           {{"uniform", ewn::PolicyKind::kUniform}, {"heavy", ewn::PolicyKind::kHeavy}},
           "playouts: uniform random moves, or heavy (wins first, then weighted moves)");
  s.fixed_point("goal_weight", &P::goal_weight, 2.0, kWeightRange, ewn::kWeightOne,
                "heavy playouts: weight of a move that brings its cube nearer the goal");
  s.fixed_point("capture_weight", &P::capture_weight, 2.0, kWeightRange, ewn::kWeightOne,
                "heavy playouts: weight factor of a move that captures an enemy cube");
  return s;
}

ewn::State GameHost<EwnGame>::start(const ewn::Settings& settings, uint64_t seed,
                                    uint32_t stream_game, std::string* opening) {
  Arrangement setup[2];
  WordStream rng({seed, stream_game, 0, kLeafSetup, 0});
  switch (settings.setup) {
    case SetupKind::kRandom:
      setup[0] = ewn::random_arrangement(rng);
      setup[1] = ewn::random_arrangement(rng);
      break;
    case SetupKind::kMirrored:
      setup[0] = setup[1] = ewn::random_arrangement(rng);
      break;
    case SetupKind::kFixed:
      setup[0] = setup[1] = Arrangement{};
      break;
    case SetupKind::kExplicit:
      setup[0] = settings.setup_p0;
      setup[1] = settings.setup_p1;
      break;
  }
  int first = 0;
  switch (settings.first_player) {
    case FirstPlayer::kPlayer0:
      first = 0;
      break;
    case FirstPlayer::kPlayer1:
      first = 1;
      break;
    case FirstPlayer::kAlternate:
      first = static_cast<int>(stream_game & 1u);
      break;
  }
  if (opening) *opening = ewn::to_string(setup[0]) + "/" + ewn::to_string(setup[1]);
  return ewn::initial_state(setup[0], setup[1], first);
}

std::string GameHost<EwnGame>::describe_rules(const ewn::Rules& r) {
  return std::string("capture_own=") + (r.capture_own ? "true" : "false") + " substitution=" +
         (r.substitution == ewn::Substitution::kNearest ? "nearest" : "next_lower_or_higher");
}

std::optional<ewn::Rules> GameHost<EwnGame>::parse_rules(std::string_view text) {
  ewn::Rules rules;
  bool capture = false, substitution = false;
  while (!text.empty()) {
    const size_t space = text.find(' ');
    const std::string_view item = text.substr(0, space);
    text.remove_prefix(space == std::string_view::npos ? text.size() : space + 1);
    if (item.empty()) continue;
    if (item == "capture_own=true" || item == "capture_own=false") {
      rules.capture_own = item == "capture_own=true";
      capture = true;
    } else if (item == "substitution=nearest" || item == "substitution=next_lower_or_higher") {
      rules.substitution = item == "substitution=nearest" ? ewn::Substitution::kNearest
                                                          : ewn::Substitution::kNextLowerOrHigher;
      substitution = true;
    } else {
      return std::nullopt;
    }
  }
  if (!capture || !substitution) return std::nullopt;
  return rules;
}

ewn::State GameHost<EwnGame>::opening_position(std::string_view opening, int first_player) {
  const size_t slash = opening.find('/');
  if (slash == std::string_view::npos) throw InputError("expected two arrangements joined by '/'");
  return ewn::initial_state(ewn::parse_arrangement(opening.substr(0, slash)),
                            ewn::parse_arrangement(opening.substr(slash + 1)), first_player);
}

// Terminal play

BoardFrame GameHost<EwnGame>::board_frame(const ewn::Rules&) {
  BoardFrame f;
  f.style = "ewn";
  f.width = f.height = ewn::kSize;
  for (int col = 0; col < ewn::kSize; ++col)
    f.columns.emplace_back(1, static_cast<char>('a' + col));
  for (int row = 0; row < ewn::kSize; ++row) f.rows.push_back(std::to_string(ewn::kSize - row));
  return f;
}

BoardPicture GameHost<EwnGame>::picture(const ewn::State& s) {
  BoardPicture p;
  p.cells.assign(ewn::kSize * ewn::kSize, '.');
  for (int sq = 0; sq < ewn::kSize * ewn::kSize; ++sq)
    for (int side = 0; side < 2; ++side)
      if (s.occ[side] & (1u << sq))
        p.cells[sq] = static_cast<char>((side == 0 ? 'A' : 'a') + ewn::cube_on(s, side, sq));
  return p;
}

std::string GameHost<EwnGame>::side_name(int side) {
  return side == 0 ? "player 0 (cubes A-F, from the top-left corner to e1)"
                   : "player 1 (cubes a-f, from the bottom-right corner to a5)";
}

std::string GameHost<EwnGame>::move_help() {
  return "  <from>-<to>  play a move, e.g. b4-c3 (files a-e left to right, ranks 1-5 bottom to "
         "top)\n"
         "  pass         when it is the only legal move\n";
}

std::string GameHost<EwnGame>::rules_help(const ewn::Rules& rules) {
  std::string out =
      rules.substitution == ewn::Substitution::kNearest
          ? "The die picks the cube: if it is gone, the nearest by number you still have moves "
            "(either one on a tie).\n"
          : "The die picks the cube: if it is gone, the next lower or higher one you still have "
            "moves.\n";
  out += rules.capture_own
             ? "A cube moving onto any cube, yours or the engine's, captures it.\n"
             : "A cube moving onto an enemy cube captures it; it may not move onto its own (a "
               "player whose cubes are all blocked passes).\n";
  return out;
}

std::string GameHost<EwnGame>::win_reason(const ewn::State& before, ewn::Move move, bool human) {
  if (!move.is_pass() && move.to == ewn::goal_square(before.side))
    return std::string(human ? "your" : "its") + " cube reached " + ewn::square_name(move.to);
  return human ? "you captured all the engine's cubes" : "it captured all your cubes";
}

}  // namespace sp
