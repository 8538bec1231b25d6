#include "host/play/selfplay/driver.hpp"

namespace sp::selfplay {

uint32_t stream_game(const config::CampaignConfig& cfg, uint32_t game_id) {
  return cfg.paired ? game_id / 2 : game_id;
}

int engine_for_player(const config::CampaignConfig& cfg, uint32_t game_id, int player) {
  return cfg.paired && (game_id & 1u) ? player ^ 1 : player;
}

}  // namespace sp::selfplay
