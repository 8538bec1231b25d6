#include "host/play/selfplay/batch_sizing.hpp"

#include <sched.h>

#include <algorithm>

namespace sp::selfplay {

size_t max_round_leaves(const config::CampaignConfig& cfg) {
  return std::max<size_t>({size_t{cfg.engines[0].leaves_per_round} * cfg.engines[0].fanout,
                           size_t{cfg.engines[1].leaves_per_round} * cfg.engines[1].fanout,
                           static_cast<size_t>(cfg.max_moves)});
}

uint64_t max_round_rollouts(const config::CampaignConfig& cfg) {
  uint64_t most = 0;
  for (const config::EngineConfig& e : cfg.engines) {
    if (e.type == config::EngineType::kMcts)
      most =
          std::max<uint64_t>(most, uint64_t{e.leaves_per_round} * e.fanout * e.rollouts_per_leaf);
    else if (e.type == config::EngineType::kFlat)  // max(1, budget / moves) for each root move
      most = std::max<uint64_t>({most, e.rollouts_per_move, static_cast<uint64_t>(cfg.max_moves)});
  }
  return most;
}

uint64_t batch_target(const config::CampaignConfig& cfg, const rollout::BackendInfo& backend) {
  return cfg.backend.batch_rollouts ? cfg.backend.batch_rollouts
                                    : std::max<uint64_t>(1, backend.preferred_rollouts);
}

uint32_t auto_concurrency(const config::CampaignConfig& cfg, uint64_t target, uint64_t most) {
  // External engines think in processes of their own, one per game in flight: no more games at
  // once than the run's threads, so that they do not share cores and miss their times.
  if (config::is_external(cfg.engines[0].type) || config::is_external(cfg.engines[1].type)) {
    int cores = cfg.backend.threads;
    if (cores <= 0) {
      cpu_set_t set;
      cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    }
    most = std::min<uint64_t>(most, static_cast<uint64_t>(std::max(1, cores)));
  }
  const uint64_t round = std::max<uint64_t>(1, max_round_rollouts(cfg));
  const uint64_t wanted = (2 * target + round - 1) / round;
  return static_cast<uint32_t>(
      std::clamp<uint64_t>(std::min<uint64_t>({wanted, cfg.games, most}), 1, 65536));
}

std::string batch_shortfall(const config::CampaignConfig& cfg, uint64_t target) {
  const uint64_t round = max_round_rollouts(cfg);
  const uint64_t games = std::min<uint64_t>(cfg.concurrency, cfg.games);
  if (round == 0 || games * round >= target) return "";
  return "batches reach at most " + std::to_string(games * round / 2) + " rollouts (" +
         std::to_string(games) + " games in flight, half of them in each of 2 batches, x " +
         std::to_string(round) + " rollouts per round), under half the target of " +
         std::to_string(target) + ": the backend idles part of the time; raise " +
         // Every game already in flight: only more games help.
         (cfg.games <= cfg.concurrency ? std::string("campaign.games")
                                       : std::string("campaign.concurrency (or set it to auto)")) +
         ", engines.*.leaves_per_round or engines.*.rollouts_per_leaf, or lower "
         "backend.batch_rollouts";
}

}  // namespace sp::selfplay
