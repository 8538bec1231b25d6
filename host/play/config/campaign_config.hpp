// The effective configuration of a self-play campaign, copied out of YAML into const structs
// before any hot loop runs. Every key is declared once (game-neutral keys in campaign_schema.cpp,
// a game's rules and playout keys by its GameHost) with its type, range, default and help line;
// this header is the typed result: CampaignConfig holds what every game has, Config<G> adds the
// game's rules section and playout policies.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "core/game_host.hpp"
#include "core/native_engine.hpp"
#include "host/engines/book/opening_book.hpp"
#include "host/engines/eval/weights.hpp"

namespace sp::config {

// expectimax: games with chance; alphabeta: games without; pbrain: an external program speaking
// the Gomocup protocol, in games that have it (ProtocolGame); external: an external program
// speaking selfplay's engine protocol (docs/engine-protocol.md), in games without chance.
enum class EngineType { kMcts, kFlat, kRandom, kExpectimax, kAlphaBeta, kPbrain, kExternal };
// An engine that is another program (pbrain, external): one process per game, its own clock.
inline bool is_external(EngineType t) {
  return t == EngineType::kPbrain || t == EngineType::kExternal;
}
enum class ChanceMode { kSample, kRoundRobin };
// alphabeta's search: the generic one (host/engines/search/alphabeta.hpp) or a game's own (the
// search of games with the GameHost hook native_engine).
enum class SearchKind { kGeneric, kPattern };

struct EngineConfig {
  EngineType type = EngineType::kMcts;
  std::string label;  // the user's name for the engine, shown wherever it plays; "" = none
  uint32_t rollouts_per_move = 1000;  // search budget, summed over leaves
  uint32_t rollouts_per_leaf = 8;     // playouts run for each expanded leaf
  double exploration = 0.7;           // UCT constant c in Q + c * sqrt(ln N / n)
  uint32_t virtual_loss = 1;          // visits added on the path while a leaf is in flight
  uint32_t leaves_per_round = 4;      // descents one tree contributes to a batch
  uint32_t fanout = 1;                // leaves a descent that expands a node sends (its children)
  bool fanout_best = false;           // key fanout_backup: best (true) or mean
  ChanceMode chance = ChanceMode::kSample;
  uint32_t node_budget =
      16;  // key node_budget_mb: MiB of nodes per tree; expansion stops when full
  bool reuse_tree = true;
  // Evaluation weights: expectimax scores its horizon with them; MCTS turns them into a prior
  // p = sigmoid(eval_scale * eval), player 0's win probability, used by eval_blend and
  // progressive_bias.
  std::string weights;                              // absolute path of the weights file; "" = none
  std::shared_ptr<const eval::Weights> evaluation;  // its contents, read with the config
  double eval_blend = 0;        // MCTS leaf value: (1 - b) * rollout mean + b * prior
  double eval_scale = 1;        // k in sigmoid(k * eval), per evaluation unit
  double progressive_bias = 0;  // MCTS: adds progressive_bias * prior / (visits + 1) to UCT
  uint32_t depth = 4;           // expectimax, alphabeta: plies; 0 = as deep as time_ms allows
  uint32_t time_ms = 0;         // expectimax, alphabeta: time per move; 0 = none (deterministic)
  uint32_t tt_size_mb = 4;      // expectimax, alphabeta: transposition table per engine instance
  bool star1 = true;            // expectimax: Star1 pruning at chance nodes
  uint32_t threat_nodes = 0;    // alphabeta (games with a threat search): per horizon position
  SearchKind search = SearchKind::kGeneric;  // alphabeta in games with their own search
  bool quiescence = true;                    // alphabeta (games with the is_quiet hook: checkers)
  bool pvs = true;                           // alphabeta: principal variation search
  bool killers = true;                       // alphabeta: killer moves
  bool history = true;                       // alphabeta: history ordering
  bool lmr = false;                          // alphabeta: late-move reductions
  bool forced_extension = false;             // alphabeta: single moves do not count a ply
  bool time_management = false;              // alphabeta: partial iterations, unstable roots
  bool futility = false;                     // alphabeta, search pattern: futility pruning
  bool razoring = false;                     // alphabeta, search pattern: razoring
  bool move_count_pruning = false;           // alphabeta, search pattern: move-count pruning
  bool score_reductions = false;             // alphabeta, search pattern: LMR by move score
  bool opponent_vct = false;                 // alphabeta, search pattern: the opponent's VCT
  // mcts, alphabeta in games with endgame databases (EndgameGame: checkers): their folder
  // (absolute path; "" = none) and the databases opened from it with the config, an
  // EndgameProbe<G::State> (make_engine casts it back).
  std::string egtb;
  std::shared_ptr<const void> endgame;
  // our engines (not pbrain, external): an opening book file (absolute path; "" = none) and the
  // book read from it with the config (checked against the game's rules by the config).
  std::string book;
  std::shared_ptr<const book::OpeningBook> opening_book;
  // pbrain: the program and its arguments (key `command`, split like a shell line; a program
  // path with '/' made absolute from the config file's directory), and its time controls.
  std::vector<std::string> command;
  uint32_t timeout_turn_ms = 5000;  // per move (Gomocup's timeout_turn)
  uint32_t timeout_match_ms = 0;    // per game and engine; 0 = none (Gomocup's timeout_match)
  uint32_t tolerance_ms = 1000;     // past a limit before a time loss; END's grace period
};

// The keys of an engine that a game's own search is built from (core/native_engine.hpp).
inline search::NativeEngineSpec native_engine_spec(const EngineConfig& cfg) {
  search::NativeEngineSpec spec;
  spec.depth = cfg.depth;
  spec.time_ms = cfg.time_ms;
  spec.tt_size_mb = cfg.tt_size_mb;
  spec.threat_nodes = cfg.threat_nodes;
  spec.forced_extension = cfg.forced_extension;
  spec.time_management = cfg.time_management;
  spec.futility = cfg.futility;
  spec.razoring = cfg.razoring;
  spec.move_count_pruning = cfg.move_count_pruning;
  spec.score_reductions = cfg.score_reductions;
  spec.opponent_vct = cfg.opponent_vct;
  spec.has_weights = cfg.evaluation != nullptr;
  if (cfg.evaluation) {
    spec.weights = cfg.evaluation->w;
    spec.move_scores = cfg.evaluation->move_scores;
    spec.evaluation_name = cfg.evaluation->name;
  }
  spec.weights_path = cfg.weights;
  return spec;
}

struct BackendConfig {
  std::string name = "auto";    // auto | cpu | cuda | check
  int threads = 0;              // the one pool: host search and cpu rollouts, 0 = all cores
  int device = 0;               // cuda device ordinal
  uint32_t batch_rollouts = 0;  // target rollouts per batch; 0 = the backend's preferred_rollouts
  std::string simd = "auto";    // cpu playouts' path: auto | scalar | avx2 | avx512
};

struct OutputConfig {
  std::string path = "out/campaign.h5";  // Config<G>: out/<game>-campaign.h5
  uint32_t positions_per_game = 4;  // positions sampled per game for /positions (0 = every ply)
  bool quiet_positions = false;     // sample only quiet positions (games with is_quiet)
  double flush_seconds = 2.0;
  uint32_t search_candidates = 8;  // root moves per ply in /candidates, best first (0 = none)
  bool root_policy = false;        // /candidates holds every root move the search visited
};

// The `match:` section of a match config (selfplay match); campaigns have none.
struct SprtSettings {
  bool enabled = true;
  double elo0 = 0, elo1 = 20;  // H0: elo = elo0, H1: elo = elo1 (engine A against engine B)
  double alpha = 0.05, beta = 0.05;
  uint32_t min_pairs = 0;  // no decision before this many pairs are counted
};

struct MatchSettings {
  uint32_t pairs = 1000;  // game pairs; the match plays 2 x pairs games
  SprtSettings sprt;
};

// What every game's campaign has; Config<G> adds the game's parts.
struct CampaignConfig {
  std::string game;         // the `game:` key, the game's GameHost name
  EngineConfig engines[2];  // by player: engines[0] plays player 0
  uint64_t seed = 1;
  uint32_t games = 200;
  uint32_t concurrency = 64;  // games in flight (G); 0 = auto, resolved by make_campaign_backend
  bool paired = false;        // games 2k, 2k+1 share setup and dice, engines swap seats
  BackendConfig backend;
  OutputConfig output;
  MatchSettings match;      // match configs only: engines[0] is engine A, engines[1] engine B
  std::string source_path;  // the YAML file it came from
  std::string source_text;  // its full text, stored in the HDF5 root attributes
  int max_moves = 0;        // not a key: the game's G::kMaxMoves, set by Config<G>
};

// A campaign of game G: the neutral keys, the `rules:` section (rules variant and openings, as the
// game declares them) and each engine's playout policy keys.
template <Game G>
struct Config : CampaignConfig {
  Config() {
    game = G::kName;
    max_moves = G::kMaxMoves;
    output.path = std::string("out/") + G::kName + "-campaign.h5";
  }
  typename GameHost<G>::Settings rules{};
  typename G::Policy policies[2]{};  // engines.playerN's playout keys
};

}  // namespace sp::config
