#include "host/play/terminal/human_game.hpp"

#include <cctype>

namespace sp::selfplay {

rollout::BackendOptions play_backend_options(const config::CampaignConfig& cfg) {
  const config::EngineConfig& e = cfg.engines[0];
  rollout::BackendOptions o;
  o.threads = cfg.backend.threads;
  o.device = cfg.backend.device;
  o.simd = rollout::simd_path_option(cfg.backend.simd, "backend.simd");
  // One engine's round: an MCTS round of leaves, or a flat engine's root moves sharing the budget.
  o.max_leaves = std::max<size_t>(
      {size_t{e.leaves_per_round} * e.fanout, static_cast<size_t>(std::max(cfg.max_moves, 0)), 64});
  o.max_rollouts = std::clamp<size_t>(
      std::max<size_t>(
          {size_t{e.leaves_per_round} * e.fanout * e.rollouts_per_leaf, e.rollouts_per_move, 4096}),
      1, size_t{1} << 31);
  return o;
}

namespace human_detail {

std::string trimmed_lower(const std::string& line) {
  size_t b = 0, e = line.size();
  while (b < e && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(line[e - 1]))) --e;
  std::string s = line.substr(b, e - b);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * p);
  return buf;
}

}  // namespace human_detail
}  // namespace sp::selfplay
