#include "host/engines/rollout/bench.hpp"

namespace sp::rollout {

void Totals::add(const std::vector<LeafStats>& stats) {
  for (const auto& s : stats) {
    rollouts += s.rollouts;
    plies += s.plies;
    wins0 += s.wins[0];
    wins1 += s.wins[1];
    draws += s.draws;
  }
}

}  // namespace sp::rollout
