#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/perft.hpp"
#include "games/hosts.hpp"
#include "host/app/commands.hpp"

namespace sp::app {

Runner add_perft(CLI::App& app) {
  struct Opts {
    std::string game;
    std::string position;
    int depth = 1;
    bool divide = false;
    std::vector<std::string> rules;
  };
  auto o = std::make_shared<Opts>();
  add_game_option(app, o->game, false);
  app.add_option("--position", o->position,
                 "Position in the game's notation, its chance outcome drawn (ewn: a rolled die, "
                 "e.g. \"ABC2/DE3/F3f/3ed/2cba 0 1\"), or `start`: the game's start under the "
                 "rules (games without chance)")
      ->required();
  // Any depth: the count is checked against 2^64 - 1 (checkers from the start reaches it past
  // depth 25), and runs longer than a few seconds say how far they are on stderr.
  app.add_option("--depth", o->depth, "Decision plies (a run over 2 s reports its progress)")
      ->transform(integer_in(1, 1000))
      ->required();
  app.add_flag("--divide", o->divide, "One line per legal move: <move>: <count>");
  add_key_value_option(app, "--rule", o->rules,
                       "A key of the game's rules: section, e.g. capture_own=false (repeatable)");
  return [o]() {
    return with_game(o->game, [&]<class G>() {
      const auto settings = rule_settings<G>(o->rules);
      const typename G::Rules& rules = GameHost<G>::rules_of(settings);
      const typename G::State s = [&] {
        if (o->position != "start") return GameHost<G>::parse_position(o->position);
        if constexpr (ChanceGame<G>)
          throw InputError(std::string("--position start: ") + GameHost<G>::kTitle +
                           " has no one start position (its chance decides the first move): "
                           "give a position in its notation");
        std::string opening;
        return GameHost<G>::start(settings, 0, 0, &opening);
      }();
      if constexpr (ChanceGame<G>)
        if (!G::is_over(s) && G::needs_chance(s))
          throw InputError("position \"" + excerpt(o->position) +
                           "\": perft needs a decision position, its chance outcome drawn");
      if (G::is_over(s))
        throw InputError("position \"" + excerpt(o->position) + "\": the game is over");
      using Clock = std::chrono::steady_clock;
      const Clock::time_point start = Clock::now();
      Clock::time_point next_report = start + std::chrono::seconds(2);
      uint64_t total = 0;
      const auto divide =
          perft_divide<G>(s, rules, o->depth, [&](int done, int moves, uint64_t nodes) {
            total = nodes;
            const Clock::time_point now = Clock::now();
            if (now < next_report || done == moves) return;
            next_report = now + std::chrono::seconds(2);
            const double seconds = std::chrono::duration<double>(now - start).count();
            std::fprintf(stderr, "perft: %d of %d root moves, %llu nodes, %.1f s\n", done, moves,
                         static_cast<unsigned long long>(nodes), seconds);
          });
      if (o->divide) {
        for (const auto& [move, nodes] : divide)
          std::printf("%s: %llu\n", GameHost<G>::move_text(s, move).c_str(),
                      static_cast<unsigned long long>(nodes));
        std::printf("total: %llu\n", static_cast<unsigned long long>(total));
      } else {
        std::printf("%llu\n", static_cast<unsigned long long>(total));
      }
      return 0;
    });
  };
}

}  // namespace sp::app
