// The BOARD ... DONE command of the Gomocup protocol (pbrain.hpp's session uses it): the x,y,f
// lines collected and checked against the board as they come, and at DONE the moves that reach
// their position. A line that does not read, a square off the board or one given twice is reported
// at its line, and the whole BOARD is then ignored at DONE. It holds no session state: the rules
// are passed in.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "host/protocols/pbrain_parse.hpp"

namespace sp::selfplay {

template <ProtocolGame G>
class PbrainBoard {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Rules = typename G::Rules;

  // The position of a BOARD: its state and the moves from the empty board that reach it.
  struct Position {
    State state{};
    std::vector<Move> moves;
  };

  // BOARD: collects lines until DONE.
  void begin() {
    active_ = true;
    stones_.clear();
    bad_lines_ = 0;
  }
  // Whether lines are being collected.
  bool active() const { return active_; }
  // Stops collecting without a position (DONE with arguments, another command).
  void abandon() { active_ = false; }

  // One x,y,f line under rules: "" when it is taken, else what is wrong with it (counted: the
  // BOARD is then ignored at DONE).
  std::string line(const std::string& text, const Rules& rules) {
    const std::variant<pbrain_detail::BoardLine, std::string> parsed =
        pbrain_detail::parse_board_line(text);
    if (const auto* message = std::get_if<std::string>(&parsed)) return bad(*message);
    const pbrain_detail::BoardLine& v = std::get<pbrain_detail::BoardLine>(parsed);
    const std::string at = "x,y,f line \"" + excerpt(text) + "\": ";
    try {
      GameHost<G>::pbrain_move(GameHost<G>::pbrain_start(rules), v.x, v.y);
    } catch (const InputError& e) {
      return bad(at + e.what());
    }
    for (const Stone& s : stones_)
      if (s.x == v.x && s.y == v.y)
        return bad(at + std::to_string(v.x) + "," + std::to_string(v.y) + " is given twice");
    if (v.f != 3) stones_.push_back({v.x, v.y, v.f == 1});  // 3: continuous games only
    return "";
  }

  // DONE: the position of the lines under rules, the engine to move, or why the BOARD is ignored.
  // Collection ends either way.
  std::variant<Position, std::string> finish(const Rules& rules) {
    active_ = false;
    if (bad_lines_ > 0)
      return "BOARD ignored: " + std::to_string(bad_lines_) + " bad line" +
             (bad_lines_ == 1 ? "" : "s") + "; the position is unchanged";
    std::vector<const Stone*> own, opponent;
    for (const Stone& s : stones_) (s.own ? own : opponent).push_back(&s);
    if (own.size() != opponent.size() && own.size() + 1 != opponent.size())
      return "BOARD ignored: " + std::to_string(own.size()) + " own and " +
             std::to_string(opponent.size()) +
             " opponent stones; the side to move has as many as the other or one fewer";
    // The first player is the side with more stones, or the engine at equal counts; the stones are
    // played alternately in the order the lines gave them.
    const auto& first = own.size() == opponent.size() ? own : opponent;
    const auto& second = own.size() == opponent.size() ? opponent : own;
    Position p;
    p.state = GameHost<G>::pbrain_start(rules);
    try {
      for (size_t i = 0; i < first.size(); ++i)
        for (const auto* side : {&first, &second}) {
          if (i >= side->size()) continue;
          const Stone& s = *(*side)[i];
          const Move m = GameHost<G>::pbrain_move(p.state, s.x, s.y);
          G::apply(p.state, m);
          p.moves.push_back(m);
        }
      if (G::is_over(p.state)) throw InputError("the game is over on this board");
    } catch (const InputError& e) {
      return std::string("BOARD ignored: ") + e.what();
    }
    return p;
  }

 private:
  struct Stone {
    int64_t x = 0, y = 0;
    bool own = false;
  };

  std::string bad(std::string message) {
    ++bad_lines_;
    return message;
  }

  bool active_ = false;
  std::vector<Stone> stones_;
  int bad_lines_ = 0;
};

}  // namespace sp::selfplay
