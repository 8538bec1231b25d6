// The plain reference programs that `selfplay bench` measures the packed playouts against (issue
// 15: "x array program"), game-neutral side. A game with one specializes ArrayPlayouts<Game> in a
// host-only header of its folder (games/<game>/array_playout.hpp, listed in
// games/array_playouts.hpp): a playout written the way a straightforward program would write it
// (a board of cells, a list of the legal moves), which takes the same words of the same stream as
// Game::playout and so ends every rollout the same way, so that the ratio compares equal work. The
// experiments/<game>-playouts benchmarks measure the same program. A specialization provides:
//   kAvailable = true;
//   kName: what the program is, one short phrase for bench's report;
//   Board, board(state): the position in the program's representation (made once per leaf);
//   handles(policy): whether the program plays this policy (else bench does not measure it);
//   playout(board, rules, policy, rng): a Game::Result equal to Game::playout(state, rules,
//   policy, rng) for every state, rules and handled policy (tests/game_contract_test.cpp).
#pragma once

namespace sp::rollout {

template <class Game>
struct ArrayPlayouts {
  static constexpr bool kAvailable = false;
};

}  // namespace sp::rollout
