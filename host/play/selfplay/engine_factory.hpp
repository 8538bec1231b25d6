// The engines of a campaign or match, built from their config: ours (MCTS, flat, random,
// expectimax, alpha-beta and a game's native search) and the clients of external programs
// (pbrain, external). The driver, the protocol servers and terminal play all build them here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "host/engines/book/book_engine.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/search/alphabeta.hpp"
#include "host/engines/search/engine.hpp"
#include "host/engines/search/expectimax.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/external/external_engine.hpp"
#include "host/play/external/pbrain_engine.hpp"

namespace sp::selfplay {

// MCTS parameters of an engine config.
search::MctsParams mcts_params(const config::EngineConfig& cfg);

// The MCTS prior of a weights file: player 0's win probability sigmoid(scale * eval), eval turned
// to player 0's view. Throws InputError without weights.
template <HostGame G>
typename search::Mcts<G>::Evaluator evaluation_prior(std::shared_ptr<const eval::Weights> weights,
                                                     const typename G::Rules& rules, double scale) {
  if (!weights) throw InputError("an evaluation needs weights");
  if constexpr (FeatureGame<G>) {
    return
        [evaluate = eval::LinearEvaluation<G>(*weights), rules, scale](const typename G::State& s) {
          const double e = evaluate(s, rules);  // for the side to move
          const double e0 = G::side_to_move(s) == 0 ? e : -e;
          return 1 / (1 + std::exp(-scale * e0));
        };
  } else {
    throw InputError(std::string(G::kName) + " has no evaluation features");
  }
}

// evaluation_prior's values for every child of a node at once, where the game gives the features
// the weights weigh child by child cheaper (eval::ChildFeatureGame); null otherwise.
template <HostGame G>
typename search::Mcts<G>::ChildrenEvaluator children_prior(
    std::shared_ptr<const eval::Weights> weights, const typename G::Rules& rules, double scale) {
  if constexpr (eval::ChildFeatureGame<G>) {
    if (!weights) return {};
    eval::LinearEvaluation<G> evaluate(*weights);
    if (!evaluate.children_at_once()) return {};
    return [evaluate, rules, scale](const typename G::State& s, const typename G::Move* moves,
                                    int n, double* out) {
      evaluate.children(s, rules, moves, n, out);
      const bool child_player0 = G::side_to_move(s) == 1;  // a move passes the turn
      for (int k = 0; k < n; ++k) {
        const double e0 = child_player0 ? out[k] : -out[k];
        out[k] = 1 / (1 + std::exp(-scale * e0));
      }
    };
  } else {
    return {};
  }
}

// The endgame databases of an engine config (the `egtb` key), null when none.
template <HostGame G>
std::shared_ptr<const EndgameProbe<typename G::State>> endgame_of(const config::EngineConfig& cfg) {
  // The config loader of G stored an EndgameProbe<G::State> (config/game_schema.hpp).
  return std::static_pointer_cast<const EndgameProbe<typename G::State>>(cfg.endgame);
}

// The search of an engine config, without its opening book (make_engine adds that).
template <HostGame G>
std::unique_ptr<search::Engine<G>> make_search_engine(const config::EngineConfig& cfg,
                                                      const typename G::Rules& rules,
                                                      uint32_t policy_slot) {
  switch (cfg.type) {
    case config::EngineType::kMcts: {
      const search::MctsParams params = mcts_params(cfg);
      auto engine = params.eval_blend == 0 && params.progressive_bias == 0
                        ? std::make_unique<search::MctsEngine<G>>(params, rules, policy_slot)
                        : std::make_unique<search::MctsEngine<G>>(
                              params, rules, policy_slot,
                              evaluation_prior<G>(cfg.evaluation, rules, cfg.eval_scale),
                              cfg.evaluation ? cfg.evaluation->name : "");
      if (params.eval_blend != 0 || params.progressive_bias != 0)
        engine->set_children_evaluator(children_prior<G>(cfg.evaluation, rules, cfg.eval_scale));
      if (cfg.endgame) engine->set_endgame(endgame_of<G>(cfg));
      return engine;
    }
    case config::EngineType::kFlat:
      return std::make_unique<search::FlatEngine<G>>(cfg.rollouts_per_move, rules, policy_slot);
    case config::EngineType::kRandom:
      return std::make_unique<search::RandomEngine<G>>(rules);
    case config::EngineType::kPbrain:
      if constexpr (ProtocolGame<G>)
        return std::make_unique<PbrainEngine<G>>(client_settings(cfg), rules);
      throw InputError(std::string("pbrain engines speak the Gomocup protocol, which ") + G::kName +
                       " does not have");
    case config::EngineType::kExternal:
      if constexpr (LineProtocolGame<G>)
        return std::make_unique<ExternalEngine<G>>(client_settings(cfg), rules);
      throw InputError(std::string("external engines play games without chance, which ") +
                       G::kName + " is not");
    case config::EngineType::kExpectimax:
      if constexpr (ChanceGame<G>) {
        if (!cfg.evaluation) throw InputError("an expectimax engine needs weights");
        search::ExpectimaxOptions options;
        options.depth = static_cast<int>(cfg.depth);
        options.time_ms = cfg.time_ms;
        options.tt_size_mb = cfg.tt_size_mb;
        options.use_star1 = cfg.star1;
        return std::make_unique<search::ExpectimaxEngine<G>>(*cfg.evaluation, rules, options);
      }
      throw InputError(std::string("expectimax needs a game with chance; ") + G::kName +
                       " has none: use alphabeta");
    case config::EngineType::kAlphaBeta:
      if constexpr (requires {
                      GameHost<G>::native_engine(config::native_engine_spec(cfg), rules);
                    })
        if (cfg.search == config::SearchKind::kPattern)
          return GameHost<G>::native_engine(config::native_engine_spec(cfg), rules);
      if constexpr (DeterministicGame<G>) {
        search::AlphaBetaOptions options;
        options.depth = static_cast<int>(cfg.depth);
        options.time_ms = cfg.time_ms;
        options.tt_size_mb = cfg.tt_size_mb;
        options.threat_nodes = cfg.threat_nodes;
        options.quiescence = cfg.quiescence;
        options.use_pvs = cfg.pvs;
        options.use_killers = cfg.killers;
        options.use_history = cfg.history;
        options.lmr = cfg.lmr;
        options.forced_extension = cfg.forced_extension;
        options.time_management = cfg.time_management;
        using Search = search::AlphaBeta<G>;
        typename Search::Evaluator evaluate = [](const typename G::State&) { return 0; };
        std::string name = "no evaluation";
        if constexpr (FeatureGame<G>) {
          if (cfg.evaluation) {
            // Evaluation units scaled to the search's integer scores (1/1000 of a unit).
            evaluate = [linear = eval::LinearEvaluation<G>(*cfg.evaluation),
                        rules](const typename G::State& s) {
              const double v = std::round(1000 * linear(s, rules));
              return static_cast<typename Search::Score>(
                  std::clamp<double>(v, -Search::kMaxEval, Search::kMaxEval));
            };
            name = cfg.evaluation->name;
          }
        }
        auto engine =
            std::make_unique<search::AlphaBetaEngine<G>>(std::move(evaluate), rules, options, name);
        if (cfg.endgame) engine->set_endgame(endgame_of<G>(cfg));
        return engine;
      }
      throw InputError(std::string("alphabeta is for games without chance; ") + G::kName +
                       " has chance: use expectimax");
  }
  throw std::logic_error("unknown engine type");
}

// Engine of one player built from its config; policy_slot is its index into the batch's policies.
// With a `book`, the book's moves come first (book::BookEngine), the search everywhere else.
template <HostGame G>
std::unique_ptr<search::Engine<G>> make_engine(const config::EngineConfig& cfg,
                                               const typename G::Rules& rules,
                                               uint32_t policy_slot) {
  auto engine = make_search_engine<G>(cfg, rules, policy_slot);
  if (cfg.opening_book)
    return std::make_unique<book::BookEngine<G>>(cfg.opening_book, std::move(engine), rules);
  return engine;
}

}  // namespace sp::selfplay
