#include <cstdio>
#include <string>

#include "games/common/philox.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/playout.hpp"
#include "host/app/commands.hpp"

namespace sp::app {

Runner add_demo(CLI::App& app) {
  struct Opts {
    int games = 3;
    uint64_t seed = 1;
    RuleFlags rules;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--games", o->games, "Number of games")
      ->transform(integer_in(1, 1000))
      ->capture_default_str();
  app.add_option("--seed", o->seed, "Seed")
      ->transform(integer_in(0, UINT64_MAX))
      ->capture_default_str();
  add_rule_flags(app, o->rules);
  return [o]() {
    const ewn::Rules rules = to_rules(o->rules);
    for (int g = 0; g < o->games; ++g) {
      const auto game = static_cast<uint32_t>(g);
      WordStream setup({o->seed, game, 0, kLeafSetup, 0});
      const ewn::Arrangement a0 = ewn::random_arrangement(setup), a1 = ewn::random_arrangement(setup);
      ewn::State s = ewn::initial_state(a0, a1, 0);
      std::printf("game %d: setup %s %s\n%s", g, ewn::to_string(a0).c_str(), ewn::to_string(a1).c_str(),
                  ewn::board_diagram(s).c_str());
      WordStream dice({o->seed, game, 0, kLeafDice, 0});
      WordStream choice({o->seed, game, 0, kLeafSearch, 0});
      std::string record;
      int plies = 0;
      while (!ewn::is_over(s)) {
        s.die = static_cast<uint8_t>(1 + dice.below(6));
        ewn::MoveList moves;
        ewn::generate_moves(s, rules, moves);
        const ewn::Move m = moves.moves[choice.below(static_cast<uint32_t>(moves.size))];
        if (!record.empty()) record += ' ';
        record += ewn::ply_to_string(s.die, m);
        ewn::apply(s, m);
        ++plies;
      }
      std::printf("record: %s\nwinner: player %d after %d plies; final position %s\n\n", record.c_str(),
                  s.winner, plies, ewn::to_string(s).c_str());
    }
    return 0;
  };
}

}  // namespace sp::app
