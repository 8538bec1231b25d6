// How many games run at once and how full a batch gets: what one game adds to a batch, the
// rollouts a batch fills toward, campaign.concurrency auto, and the warning when batches stay
// short of the target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "host/engines/rollout/backend.hpp"
#include "host/play/config/campaign_config.hpp"

namespace sp::selfplay {

// The most leaves and rollouts one game adds to a batch at once: an MCTS round
// (leaves_per_round descents of up to fanout leaves of rollouts_per_leaf), or a flat engine's root
// moves sharing its budget (cfg.max_moves of the game at most). Backends are sized so that one game
// always fits a batch.
size_t max_round_leaves(const config::CampaignConfig& cfg);
uint64_t max_round_rollouts(const config::CampaignConfig& cfg);

// The rollouts per batch the driver fills toward: backend.batch_rollouts, or when that is 0 the
// backend's preferred_rollouts.
uint64_t batch_target(const config::CampaignConfig& cfg, const rollout::BackendInfo& backend);

// campaign.concurrency auto: two batches are in flight, so about half the games fill each; enough
// games that half of them reach `target` with full rounds, ceil(2 * target / max_round_rollouts),
// but no more than the games, than `most` (what memory allows) and 65536, and at least 1; with a
// pbrain engine, no more than backend.threads (0: the cores the process may run on).
uint32_t auto_concurrency(const config::CampaignConfig& cfg, uint64_t target, uint64_t most);

// "" when min(concurrency, games) games in flight, half of them in each batch, reach half of
// `target` rollouts per batch with full rounds (or when no engine plays out); otherwise one line
// with the numbers and the keys that change them, for a warning at the start of a run.
std::string batch_shortfall(const config::CampaignConfig& cfg, uint64_t target);

}  // namespace sp::selfplay
