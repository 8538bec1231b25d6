#include <cstdio>
#include <string>

#include "games/common/errors.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/perft.hpp"
#include "host/app/commands.hpp"

namespace sp::app {

Runner add_perft(CLI::App& app) {
  struct Opts {
    std::string game = "ewn";
    std::string position;
    int depth = 1;
    bool divide = false;
    RuleFlags rules;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--game", o->game, "Game")->check(CLI::IsMember({"ewn"}))->capture_default_str();
  app.add_option("--position", o->position, "Position string with a rolled die, e.g. \"ABC2/DE3/F3f/3ed/2cba 0 1\"")
      ->required();
  app.add_option("--depth", o->depth, "Decision plies")->transform(integer_in(1, 12))->required();
  app.add_flag("--divide", o->divide, "One line per legal move: <move>: <count>");
  add_rule_flags(app, o->rules);
  return [o]() {
    const ewn::State s = ewn::parse_position(o->position);
    if (s.die == ewn::kNoDie)
      throw InputError("position \"" + o->position + "\": perft needs a rolled die (1-6), not '-'");
    const ewn::Rules rules = to_rules(o->rules);
    if (o->divide) {
      uint64_t total = 0;
      for (const auto& [move, nodes] : ewn::perft_divide(s, rules, o->depth)) {
        std::printf("%s: %llu\n", ewn::to_string(move).c_str(), static_cast<unsigned long long>(nodes));
        total += nodes;
      }
      std::printf("total: %llu\n", static_cast<unsigned long long>(total));
    } else {
      std::printf("%llu\n", static_cast<unsigned long long>(ewn::perft(s, rules, o->depth)));
    }
    return 0;
  };
}

}  // namespace sp::app
