#include "host/play/selfplay/engine_factory.hpp"

namespace sp::selfplay {

search::MctsParams mcts_params(const config::EngineConfig& cfg) {
  search::MctsParams p;
  p.rollouts_per_move = cfg.rollouts_per_move;
  p.rollouts_per_leaf = cfg.rollouts_per_leaf;
  p.exploration = cfg.exploration;
  p.virtual_loss = cfg.virtual_loss;
  p.leaves_per_round = cfg.leaves_per_round;
  p.fanout = cfg.fanout;
  p.fanout_best = cfg.fanout_best;
  p.chance = cfg.chance == config::ChanceMode::kSample ? search::ChanceSelection::kSample
                                                       : search::ChanceSelection::kRoundRobin;
  p.node_budget = cfg.node_budget;
  p.reuse_tree = cfg.reuse_tree;
  p.eval_blend = cfg.eval_blend;
  p.progressive_bias = cfg.progressive_bias;
  return p;
}

}  // namespace sp::selfplay
