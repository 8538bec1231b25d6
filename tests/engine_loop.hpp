// A minimal game loop for engine tests on deterministic games: engines decide through the Engine
// interface (begin, rounds of collect/absorb with rollouts on the CPU, decision, observe), one game
// at a time. The self-play driver does the same for many concurrent games.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "host/engines/rollout/cpu_backend_impl.hpp"
#include "host/engines/search/engine.hpp"

namespace sp::test {

template <class G>
struct PlayedGame {
  typename G::State final{};
  std::vector<typename G::Move> moves;
};

// Searches one move of `engine` at `root` and returns its decision.
template <class G>
typename G::Move decide(search::Engine<G>& engine, const typename G::State& root,
                        const search::SearchIds& ids, const rollout::PlayoutParams<G>& params,
                        search::MoveStats* stats = nullptr) {
  engine.begin(root, ids);
  std::vector<rollout::Leaf<G>> leaves;
  std::vector<rollout::LeafStats> results;
  WorkPool pool(1);
  for (int rounds = 0; !engine.decided(); ++rounds) {
    EXPECT_LT(rounds, 1000000) << "engine never decides";
    if (rounds >= 1000000) break;
    leaves.clear();
    engine.collect(leaves);
    results.assign(leaves.size(), rollout::LeafStats{});
    if (!leaves.empty()) rollout::run_rollouts_cpu<G>(leaves, params, results, pool);
    engine.absorb(results);
  }
  return engine.decision(stats);
}

// Plays one game from `start`, players[side] moving for side; game id `game` keys the streams.
template <DeterministicGame G>
PlayedGame<G> play_game(search::Engine<G>* players[2], const typename G::State& start,
                        const rollout::PlayoutParams<G>& params, uint32_t game) {
  PlayedGame<G> out;
  typename G::State s = start;
  players[0]->new_game();
  players[1]->new_game();
  for (uint32_t ply = 0; !G::is_over(s); ++ply) {
    const typename G::Move m = decide<G>(*players[G::side_to_move(s)], s,
                                         search::SearchIds{game, ply, params.seed}, params);
    typename G::MoveList legal;
    G::generate_moves(s, params.rules, legal);
    bool ok = false;
    for (int k = 0; k < legal.size; ++k) ok |= legal.moves[k] == m;
    EXPECT_TRUE(ok) << "illegal move at ply " << ply;
    if (!ok) break;
    G::apply(s, m);
    out.moves.push_back(m);
    players[0]->observe(m, s);
    if (players[1] != players[0]) players[1]->observe(m, s);
  }
  out.final = s;
  return out;
}

}  // namespace sp::test
