// Every key of a campaign config, declared once. Defaults equal the initializers in
// campaign_config.hpp (config_test checks that an empty config loads as CampaignConfig{}).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "games/ewn/game.hpp"
#include "games/ewn/notation.hpp"
#include "host/config/load.hpp"
#include "host/eval/weights.hpp"

namespace sp::config {
namespace {

using ewn::Arrangement;

constexpr Range kWeightRange{0, ewn::kMaxWeight / double(ewn::kWeightOne), true, false};

Section<GameConfig> rules_schema() {
  Section<GameConfig> s;
  s.boolean(
      "capture_own", [](GameConfig& g) -> bool& { return g.rules.capture_own; }, true,
      "a cube may move onto a cube of its own side, removing it; false forbids that");
  s.choice(
      "substitution", [](GameConfig& g) -> ewn::Substitution& { return g.rules.substitution; },
      ewn::Substitution::kNextLowerOrHigher,
      {{"next_lower_or_higher", ewn::Substitution::kNextLowerOrHigher},
       {"nearest", ewn::Substitution::kNearest}},
      "which cube may move when the rolled one is gone");
  s.choice("first_player", &GameConfig::first_player, FirstPlayer::kPlayer0,
           {{"0", FirstPlayer::kPlayer0},
            {"1", FirstPlayer::kPlayer1},
            {"alternate", FirstPlayer::kAlternate}},
           "who moves first; alternate switches from game to game");
  s.choice("setup", &GameConfig::setup, SetupKind::kRandom,
           {{"random", SetupKind::kRandom},
            {"mirrored", SetupKind::kMirrored},
            {"fixed", SetupKind::kFixed},
            {"explicit", SetupKind::kExplicit}},
           "start arrangements: random per game, mirrored, fixed (123456 both), explicit (below)");
  const auto parse = [](std::string_view text) { return ewn::parse_arrangement(text); };
  const auto format = [](const Arrangement& a) { return ewn::to_string(a); };
  s.custom("setup_p0", &GameConfig::setup_p0, "123456", "six digits 1-6, each once", parse, format,
           "player 0's cube number on each start square; used only with setup: explicit");
  s.custom("setup_p1", &GameConfig::setup_p1, "123456", "six digits 1-6, each once", parse, format,
           "player 1's cube number on each start square; used only with setup: explicit");
  return s;
}

// A match (selfplay match) plays 2 x match.pairs games, always in pairs: it has no games and no
// paired key.
Section<CampaignConfig> campaign_schema_section(bool match) {
  Section<CampaignConfig> s;
  if (!match) s.integer("games", &CampaignConfig::games, 200, 1, 1'000'000'000, "games to play");
  s.node(
      "concurrency", &CampaignConfig::concurrency, 64, "auto or integer in [1, 65536]",
      [](const YAML::Node& v, Mark at, Document& doc, const std::string& path) -> uint32_t {
        // A near miss of auto ("Auto", "atuo") gets a did-you-mean; anything else the integer's
        // message.
        if (v.IsScalar() &&
            (v.Scalar() == "auto" || !closest_match(v.Scalar(), {"auto"}).empty())) {
          detail::read_choice(v, at, doc, path, {"auto"});
          return 0;
        }
        return static_cast<uint32_t>(detail::read_integer(v, at, doc, path, 1, 65536));
      },
      [](const uint32_t& n) { return n == 0 ? std::string("auto") : std::to_string(n); },
      "games in flight at once; their searches share rollout batches; auto: enough to fill the "
      "backend's batches, as many as memory allows");
  s.seed("seed", &CampaignConfig::seed, 1,
         "campaign seed; with the rest of the config it fixes every game record");
  if (!match)
    s.boolean("paired", &CampaignConfig::paired, false,
              "game pairs: games 2k and 2k+1 share the setup and the dice, and the engines swap "
              "seats (engines.player0 plays player 1 in odd games)");
  return s;
}

Section<EngineConfig> engine_schema() {
  Section<EngineConfig> s;
  s.choice(
      "type", &EngineConfig::type, EngineType::kMcts,
      {{"mcts", EngineType::kMcts},
       {"flat", EngineType::kFlat},
       {"random", EngineType::kRandom},
       {"expectimax", EngineType::kExpectimax}},
      "mcts: UCT tree search; flat: playouts from the root moves only; random: random moves; "
      "expectimax: depth-limited expectiminimax over the weights' evaluation");
  s.integer("rollouts_per_move", &EngineConfig::rollouts_per_move, 1000, 1, 100'000'000,
            "search budget per move decision, in playouts summed over all leaves");
  s.integer("rollouts_per_leaf", &EngineConfig::rollouts_per_leaf, 8, 1, 65536,
            "playouts run for each expanded leaf; at most rollouts_per_move");
  s.real("exploration", &EngineConfig::exploration, 0.7, Range{0, 100},
         "UCT constant c in Q + c * sqrt(ln N / n)");
  s.integer("virtual_loss", &EngineConfig::virtual_loss, 1, 0, 1000,
            "visits added on the path while a leaf is in flight, to spread a round's leaves");
  s.integer("leaves_per_round", &EngineConfig::leaves_per_round, 4, 1, 4096,
            "leaves one tree contributes to each rollout batch");
  s.choice("chance", &EngineConfig::chance, ChanceMode::kSample,
           {{"sample", ChanceMode::kSample}, {"round_robin", ChanceMode::kRoundRobin}},
           "die at chance nodes: sampled on each visit, or each face in turn");
  s.integer("node_budget_mb", &EngineConfig::node_budget, 16, 1, 65536,
            "MiB of nodes per tree (one tree per mcts engine per concurrent game; an EWN node takes "
            "48 bytes); the search stops expanding when the tree is full");
  s.boolean("reuse_tree", &EngineConfig::reuse_tree, true,
            "keep the subtree below the played move for the next search");
  s.choice(
      "policy", [](EngineConfig& e) -> ewn::PolicyKind& { return e.policy.kind; },
      ewn::PolicyKind::kUniform,
      {{"uniform", ewn::PolicyKind::kUniform}, {"heavy", ewn::PolicyKind::kHeavy}},
      "playouts: uniform random moves, or heavy (wins first, then weighted moves)");
  s.fixed_point(
      "goal_weight", [](EngineConfig& e) -> uint32_t& { return e.policy.goal_weight; }, 2.0,
      kWeightRange, ewn::kWeightOne,
      "heavy playouts: weight of a move that brings its cube nearer the goal");
  s.fixed_point(
      "capture_weight", [](EngineConfig& e) -> uint32_t& { return e.policy.capture_weight; }, 2.0,
      kWeightRange, ewn::kWeightOne,
      "heavy playouts: weight factor of a move that captures an enemy cube");
  s.file(
      "weights", &EngineConfig::weights,
      "evaluation weights (YAML, see configs/ewn/weights/): expectimax needs them, mcts uses them "
      "for eval_blend and progressive_bias",
      [](EngineConfig& e, const std::string& file) {
        e.evaluation = nullptr;
        if (!file.empty())
          e.evaluation = std::make_shared<const eval::Weights>(eval::load_weights<EwnGame>(file));
      });
  s.real("eval_blend", &EngineConfig::eval_blend, 0, Range{0, 1},
         "mcts: leaf value = (1 - b) * rollout mean + b * sigmoid(eval_scale * eval); needs "
         "weights");
  s.real("eval_scale", &EngineConfig::eval_scale, 1, Range{0, 1e6, true, false},
         "mcts: k in sigmoid(k * eval), per evaluation unit; fit it to the weights (Texel's K)");
  s.real("progressive_bias", &EngineConfig::progressive_bias, 0, Range{0, 100},
         "mcts: adds progressive_bias * sigmoid(eval_scale * eval) / (visits + 1) to a move's UCT "
         "score; needs weights");
  s.integer("depth", &EngineConfig::depth, 4, 0, 64,
            "expectimax: search depth in decision plies; 0 = as deep as time_ms allows");
  s.integer("time_ms", &EngineConfig::time_ms, 0, 0, 3'600'000,
            "expectimax: time per move in ms, 0 = none; a time limit makes games depend on speed");
  s.integer("tt_size_mb", &EngineConfig::tt_size_mb, 4, 1, 65536,
            "expectimax: transposition table MiB, one table per concurrent game");
  s.boolean("star1", &EngineConfig::star1, true, "expectimax: Star1 pruning at chance nodes");
  s.check([](const EngineConfig& e, const Document& doc, const std::string& path) {
    const auto key = [&](const char* name) { return path + "." + name; };
    if (e.type == EngineType::kExpectimax) {
      if (e.weights.empty())
        doc.fail_key(key("weights"),
                     "required for type expectimax: a weights file such as "
                     "configs/ewn/weights/survival-distance.yaml");
      if (e.depth == 0 && e.time_ms == 0)
        doc.fail_key(key("depth"), "0 (no depth limit) needs a time limit: set time_ms");
      return;
    }
    if (e.type == EngineType::kMcts && e.weights.empty()) {
      const char* why = "needs an evaluation: set weights to a weights file";
      if (e.eval_blend > 0) doc.fail_key(key("eval_blend"), why);
      if (e.progressive_bias > 0) doc.fail_key(key("progressive_bias"), why);
    }
  });
  s.check([](const EngineConfig& e, const Document& doc, const std::string& path) {
    if (e.type == EngineType::kRandom || e.type == EngineType::kExpectimax ||
        e.rollouts_per_leaf <= e.rollouts_per_move)
      return;
    // Blame the key the file wrote: a small rollouts_per_move under the default per-leaf count
    // is reported there.
    const std::string leaf = path + ".rollouts_per_leaf", move = path + ".rollouts_per_move";
    const std::string per_leaf = std::to_string(e.rollouts_per_leaf);
    const std::string per_move = std::to_string(e.rollouts_per_move);
    if (doc.was_set(leaf) || !doc.was_set(move))
      doc.fail_key(leaf, "must not exceed rollouts_per_move (" + per_move + "), found " + per_leaf);
    doc.fail_key(move, "must be at least rollouts_per_leaf (" + per_leaf + "), found " + per_move);
  });
  return s;
}

Section<CampaignConfig> engines_schema() {
  Section<CampaignConfig> s;
  s.section(
      "player0", [](CampaignConfig& c) -> EngineConfig& { return c.engines[0]; }, engine_schema(),
      "the engine playing player 0");
  s.section(
      "player1", [](CampaignConfig& c) -> EngineConfig& { return c.engines[1]; }, engine_schema(),
      "the engine playing player 1");
  return s;
}

Section<BackendConfig> backend_schema() {
  Section<BackendConfig> s;
  s.choice("name", &BackendConfig::name, std::string("auto"),
           {{"auto", "auto"}, {"cpu", "cpu"}, {"cuda", "cuda"}, {"check", "check"}, {"null", "null"}},
           "rollout backend; auto takes cuda when built and a device is present, else cpu; null plays "
           "nothing (host throughput only)");
  s.integer("threads", &BackendConfig::threads, 0, 0, 4096,
            "threads of the one pool for host search and cpu rollouts; 0 = all cores");
  s.integer("device", &BackendConfig::device, 0, 0, 63, "cuda device ordinal");
  s.integer("batch_rollouts", &BackendConfig::batch_rollouts, 0, 0, 1 << 26,
            "target playouts per batch handed to the backend; 0 = the backend's preferred size");
  return s;
}

Section<OutputConfig> output_schema() {
  Section<OutputConfig> s;
  s.string("path", &OutputConfig::path, "out/ewn-campaign.h5", false,
           "HDF5 file the game records are written to");
  s.integer("positions_per_game", &OutputConfig::positions_per_game, 4, 0, 4096,
            "positions sampled per game for /positions; 0 = every ply");
  // Each flush writes the HDF5 metadata again: flushing after every batch (1e-300 s) made files
  // up to 48 times their data; at 0.05 s a 3000-game file was 17% larger than at 2 s.
  s.real("flush_seconds", &OutputConfig::flush_seconds, 2.0, Range{0.05, 3600},
         "longest time finished games wait in memory before they are written; at least 0.05");
  return s;
}

Section<SprtSettings> sprt_schema() {
  Section<SprtSettings> s;
  s.boolean("enabled", &SprtSettings::enabled, true,
            "stop the match as soon as the GSPRT accepts H0 or H1");
  s.real("elo0", &SprtSettings::elo0, 0, Range{-2000, 2000}, "H0: engine A is elo0 Elo stronger");
  s.real("elo1", &SprtSettings::elo1, 20, Range{-2000, 2000},
         "H1: engine A is elo1 Elo stronger; above elo0");
  s.real("alpha", &SprtSettings::alpha, 0.05, Range{0, 0.5, true, true},
         "probability of accepting H1 when H0 holds");
  s.real("beta", &SprtSettings::beta, 0.05, Range{0, 0.5, true, true},
         "probability of accepting H0 when H1 holds");
  s.integer("min_pairs", &SprtSettings::min_pairs, 0, 0, 500'000'000,
            "no decision before this many pairs are counted (the LLR is still computed)");
  s.check([](const SprtSettings& t, const Document& doc, const std::string& path) {
    if (t.elo1 <= t.elo0)
      doc.fail_key(path + ".elo1", "must be above elo0 (" + detail::format_real(t.elo0) +
                                       "), found " + detail::format_real(t.elo1));
  });
  return s;
}

Section<MatchSettings> match_schema() {
  Section<MatchSettings> s;
  s.integer("pairs", &MatchSettings::pairs, 1000, 1, 500'000'000,
            "game pairs to play (fewer when the SPRT decides); each pair shares setup and dice");
  s.section("sprt", &MatchSettings::sprt, sprt_schema(),
            "sequential test on the pairs, counted in pair order");
  return s;
}

// The campaign keys; a match config has the match section too and no campaign.games/paired.
Section<CampaignConfig> build_schema(bool match) {
  const auto self = [](CampaignConfig& c) -> CampaignConfig& { return c; };
  Section<CampaignConfig> s;
  s.choice(
      "game", [](CampaignConfig& c) -> std::string& { return c.game.game; }, std::string("ewn"),
      {{"ewn", "ewn"}}, "the game: EinStein wuerfelt nicht");
  s.section("rules", &CampaignConfig::game, rules_schema(), "rules variant and starting setup");
  s.section("campaign", self, campaign_schema_section(match),
            match ? "games at once and seed" : "how many games, how many at once, seed");
  s.section("engines", self, engines_schema(),
            match ? "engine A (player0) and engine B (player1)" : "one engine per player");
  s.section("backend", &CampaignConfig::backend, backend_schema(), "where playouts run");
  s.section("output", &CampaignConfig::output, output_schema(), "where game records go");
  if (match) s.section("match", &CampaignConfig::match, match_schema(), "game pairs and the SPRT");
  return s;
}

const Section<CampaignConfig>& schema() {
  static const Section<CampaignConfig> s = build_schema(false);
  return s;
}

const Section<CampaignConfig>& match_config_schema() {
  static const Section<CampaignConfig> s = build_schema(true);
  return s;
}

}  // namespace

CampaignConfig load_campaign_config_text(const std::string& text, const std::string& name) {
  CampaignConfig c = schema().load(text, name);
  c.source_path = name;
  c.source_text = text;
  return c;
}

CampaignConfig load_campaign_config(const std::string& path) {
  return load_campaign_config_text(read_config_file(path), path);
}

std::string explain_campaign_config(const CampaignConfig& config) {
  return "# Effective selfplay campaign configuration: every key, defaults filled in.\n" +
         schema().explain(config);
}

CampaignConfig load_match_config_text(const std::string& text, const std::string& name) {
  CampaignConfig c = match_config_schema().load(text, name);
  c.paired = true;
  c.games = 2 * c.match.pairs;
  c.source_path = name;
  c.source_text = text;
  return c;
}

CampaignConfig load_match_config(const std::string& path) {
  return load_match_config_text(read_config_file(path), path);
}

std::string explain_match_config(const CampaignConfig& config) {
  return "# Effective selfplay match configuration: every key, defaults filled in.\n" +
         match_config_schema().explain(config);
}

}  // namespace sp::config
