#include <cstdio>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "core/repetition.hpp"
#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/play/terminal/human_game.hpp"

namespace sp::app {

Runner add_demo(CLI::App& app) {
  struct Opts {
    std::string game;
    int games = 3;
    uint64_t seed = 1;
    std::vector<std::string> rules;
  };
  auto o = std::make_shared<Opts>();
  add_game_option(app, o->game, false);
  app.add_option("--games", o->games, "Number of games")
      ->transform(integer_in(1, 1000))
      ->capture_default_str();
  app.add_option("--seed", o->seed, "Seed")
      ->transform(integer_in(0, UINT64_MAX))
      ->capture_default_str();
  add_key_value_option(app, "--rule", o->rules,
                       "A key of the game's rules: section, e.g. setup=mirrored (repeatable)");
  // Uniformly random moves from the game's openings: game g's chance outcomes come from the
  // stream (seed, g, 0, kLeafDice) and its moves from (seed, g, 0, kLeafSearch), one draw a ply.
  return [o]() {
    return with_game(o->game, [&]<class G>() {
      const auto settings = rule_settings<G>(o->rules);
      const typename G::Rules& rules = GameHost<G>::rules_of(settings);
      for (int g = 0; g < o->games; ++g) {
        const auto game = static_cast<uint32_t>(g);
        std::string opening;
        typename G::State s = GameHost<G>::start(settings, o->seed, game, &opening);
        std::printf("game %d: start %s", g, GameHost<G>::position_text(s).c_str());
        if (!opening.empty()) std::printf(" (opening %s)", opening.c_str());
        std::printf("\n%s", selfplay::board_text<G>(s).c_str());
        WordStream chance({o->seed, game, 0, kLeafDice, 0});
        WordStream choice({o->seed, game, 0, kLeafSearch, 0});
        std::string record;
        int plies = 0;
        PositionHistory<G> history(rules);
        history.reset(s);
        bool repeated = false;
        while (!G::is_over(s) && !repeated) {
          if constexpr (ChanceGame<G>)
            G::set_chance(s, static_cast<int>(chance.below(G::kChanceOutcomes)));
          typename G::MoveList moves;
          G::generate_moves(s, rules, moves);
          const typename G::Move m = moves.moves[choice.below(static_cast<uint32_t>(moves.size))];
          if (!record.empty()) record += ' ';
          record += ply_text<G>(s, m);
          G::apply(s, m);
          repeated = history.push(s);
          ++plies;
        }
        const int winner = G::is_over(s) ? G::winner(s) : G::kNoWinner;
        const std::string result = winner == 0 || winner == 1
                                       ? "winner: player " + std::to_string(winner)
                                   : repeated ? std::string("draw by repetition")
                                              : std::string("draw");
        std::printf("record: %s\n%s after %d plies; final position %s\n\n", record.c_str(),
                    result.c_str(), plies, GameHost<G>::position_text(s).c_str());
      }
      return 0;
    });
  };
}

}  // namespace sp::app
