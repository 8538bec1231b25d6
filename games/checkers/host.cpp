#include "games/checkers/host.hpp"

#include <string>

namespace sp {
namespace checkers {

Start parse_start(std::string_view text) {
  if (text == "standard") return Start{};
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
  return Start{false, s};
}

std::string start_text(const Start& start) {
  return start.standard ? "standard" : fen(start.position);
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
      "rule); 0 = never. Threefold repetition is not detected (states keep no history): this rule "
      "ends repeated king moves");
  s.custom("start", &S::start, "standard", "standard | a FEN such as W:W18,K30:B1,5",
           checkers::parse_start, checkers::start_text,
           "where every game starts: the standard position (Black moves first) or a FEN");
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
                                              uint32_t, std::string* opening) {
  if (opening) *opening = settings.start.standard ? "" : checkers::fen(settings.start.position);
  return checkers::with_rules(settings.start.position, settings.rules);
}

std::string GameHost<CheckersGame>::describe_rules(const checkers::Rules& r) {
  return "max_plies=" + std::to_string(r.max_plies) +
         " quiet_plies=" + std::to_string(r.quiet_limit);
}

}  // namespace sp
