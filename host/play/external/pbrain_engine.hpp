// An external program speaking the Gomocup protocol as an Engine of the driver (`type: pbrain`),
// for games whose host part has the protocol's hooks (ProtocolGame, core/game_host.hpp):
// the protocol's lines over ProgramEngine (program_engine.hpp), which polls, forfeits and
// restarts the program as every external engine does. Per move BEGIN, TURN x,y, or BOARD with
// the stones in an order of play; the answer x,y is a move of the root or an illegal-move forfeit.
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "core/game_host.hpp"
#include "host/engines/search/engine.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/campaign_schema.hpp"
#include "host/play/external/engine_client.hpp"
#include "host/play/external/program_engine.hpp"

namespace sp::selfplay {

namespace pbrain_detail {

// "x,y" with optional blanks around the numbers; nullopt otherwise.
inline std::optional<std::pair<int, int>> parse_square(std::string_view text) {
  const size_t comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const auto number = [](std::string_view t) -> std::optional<int> {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    int v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc{} || end != t.data() + t.size()) return std::nullopt;
    return v;
  };
  const auto x = number(text.substr(0, comma)), y = number(text.substr(comma + 1));
  if (!x || !y) return std::nullopt;
  return std::pair{*x, *y};
}

}  // namespace pbrain_detail

template <ProtocolGame G>
class PbrainEngine final : public ProgramEngine<G> {
 public:
  using typename search::Engine<G>::State;
  using typename search::Engine<G>::Move;

  PbrainEngine(ClientSettings settings, const typename G::Rules& rules)
      : ProgramEngine<G>(for_rules(std::move(settings), rules)) {}

  // probe_program (program_engine.hpp) for these rules: START n for their board.
  static void probe(ClientSettings settings, const typename G::Rules& rules) {
    probe_program(for_rules(std::move(settings), rules));
  }

  void new_game() override {
    this->client_.start_game();
    synced_ = false;
    own_move_ = false;
    unseen_.clear();
    stones_.clear();
  }
  void game_started(const State& start) override {
    stones_ = alternating(GameHost<G>::pbrain_stones(start));
  }
  void begin(const State& root, const search::SearchIds&) override {
    std::vector<std::string> lines;
    // The stones in the order they were played: the start's alternately from the first player's
    // (managers send BOARD in move order, and engines such as PentaZen ignore the colour field
    // and take the stones alternately from Black), then the moves since. Without the start (a
    // driver that does not tell it) the root's stones alternately.
    std::vector<PbrainStone> stones = GameHost<G>::pbrain_stones(root);
    stones = stones.size() == stones_.size() ? stones_ : alternating(std::move(stones));
    // TURN when it knows the position but the opponent's move, as after its own last move, or
    // when that move is the only stone (the second player's first move of an empty-board game).
    if (unseen_.size() == 1 && (synced_ || stones.size() == 1)) {
      const auto [x, y] = GameHost<G>::pbrain_xy(unseen_[0]);
      lines.push_back("TURN " + std::to_string(x) + "," + std::to_string(y));
    } else {
      // The first request of a game, or moves it has not seen one by one: the whole position.
      if (stones.empty()) {
        lines.push_back("BEGIN");
      } else {
        const int me = G::side_to_move(root);
        lines.push_back("BOARD");
        for (const PbrainStone& st : stones)
          lines.push_back(std::to_string(st.x) + "," + std::to_string(st.y) + "," +
                          (st.player == me ? "1" : "2"));
        lines.push_back("DONE");
      }
    }
    unseen_.clear();
    synced_ = true;
    this->request(root, lines);
  }
  Move decision(search::MoveStats* stats) override {
    own_move_ = true;
    return ProgramEngine<G>::decision(stats);
  }
  void observe(Move move, const State& next_root) override {
    const auto [x, y] = GameHost<G>::pbrain_xy(move);
    stones_.push_back({x, y, 1 - G::side_to_move(next_root)});
    if (own_move_) {
      own_move_ = false;
      return;
    }
    unseen_.push_back(move);
  }

 private:
  static ClientSettings for_rules(ClientSettings settings, const typename G::Rules& rules) {
    settings.protocol = "pbrain";
    settings.start = "START " + std::to_string(GameHost<G>::pbrain_board_size(rules));
    settings.info = {
        "INFO timeout_turn " + std::to_string(settings.timeout_turn_ms),
        "INFO timeout_match " + std::to_string(settings.timeout_match_ms),
        "INFO max_memory 0",
        "INFO game_type 1",
        "INFO rule " + std::to_string(GameHost<G>::pbrain_rule_bits(rules)),
    };
    return settings;
  }

  // The stones of one position in an order of play: alternately from the side with more stones
  // (player 0 when both have as many), each side's in board order.
  static std::vector<PbrainStone> alternating(std::vector<PbrainStone> stones) {
    std::vector<PbrainStone> side[2];
    for (const PbrainStone& st : stones) side[st.player == 1].push_back(st);
    int p = side[1].size() > side[0].size() ? 1 : 0;
    std::vector<PbrainStone> out;
    size_t next[2] = {0, 0};
    // Counts that differ by more than one (not a position of play) end with the rest in board
    // order.
    while (next[0] < side[0].size() || next[1] < side[1].size()) {
      if (next[p] < side[p].size()) out.push_back(side[p][next[p]++]);
      p = 1 - p;
    }
    return out;
  }

  Move parse_answer(const std::string& line) const override {
    const std::optional<std::pair<int, int>> square = pbrain_detail::parse_square(line);
    if (!square) throw InputError("not a move x,y");
    return GameHost<G>::pbrain_move(this->root_, square->first, square->second);
  }

  bool synced_ = false;              // the program knows the position up to its own last move
  bool own_move_ = false;            // the next observe() is the move it chose
  std::vector<Move> unseen_;         // moves played since its last request
  std::vector<PbrainStone> stones_;  // the game's stones in the order of play
};

}  // namespace sp::selfplay
