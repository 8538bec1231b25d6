#include "games/common/errors.hpp"
#include "host/app/commands.hpp"

namespace sp::app {

void add_rule_flags(CLI::App& cmd, RuleFlags& flags) {
  cmd.add_flag("--no-capture-own", flags.no_capture_own,
               "Variant: a cube may not move onto its own cube (a blocked player passes)");
  cmd.add_option("--substitution", flags.substitution,
                 "Which cube moves when the rolled one is gone")
      ->check(CLI::IsMember({"next_lower_or_higher", "nearest"}))
      ->capture_default_str();
}

ewn::Rules to_rules(const RuleFlags& flags) {
  ewn::Rules rules;
  rules.capture_own = !flags.no_capture_own;
  rules.substitution = flags.substitution == "nearest" ? ewn::Substitution::kNearest
                                                       : ewn::Substitution::kNextLowerOrHigher;
  return rules;
}

}  // namespace sp::app
