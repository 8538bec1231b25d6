// Every game-neutral key of a campaign config, declared once; game_schema.hpp adds the game's keys
// and assembles them. Defaults equal the initializers in campaign_config.hpp (config_test checks
// that an empty config loads as Config<G>{}).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "games/hosts.hpp"
#include "host/base/system/child_process.hpp"
#include "host/engines/book/opening_book.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/play/config/campaign_schema.hpp"
#include "host/play/config/load.hpp"

namespace sp::config {

// A match (selfplay match) plays 2 x match.pairs games, always in pairs: it has no games and no
// paired key.
Section<CampaignConfig> campaign_keys(bool match, bool with_seed) {
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
  if (with_seed)
    s.seed("seed", &CampaignConfig::seed, 1,
           "campaign seed; with the rest of the config it fixes every game record");
  if (!match)
    s.boolean("paired", &CampaignConfig::paired, false,
              "game pairs: games 2k and 2k+1 share the setup and the dice, and the engines swap "
              "seats (engines.player0 plays player 1 in odd games)");
  return s;
}

namespace {

bool is_type(const EngineConfig& e, std::initializer_list<EngineType> types) {
  return std::find(types.begin(), types.end(), e.type) != types.end();
}

// An engine's label: printable text (no control characters), at most kMaxLabel bytes.
constexpr size_t kMaxLabel = 64;
std::string parse_engine_label(std::string_view text) {
  if (text.size() > kMaxLabel)
    throw InputError("a label has at most " + std::to_string(kMaxLabel) + " characters, this one " +
                     std::to_string(text.size()));
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw InputError("a label holds printable characters only, not \"" + excerpt(text) + "\"");
  return std::string(text);
}

}  // namespace

bool applies_to_rollout_engines(const EngineConfig& e) {
  return is_type(e, {EngineType::kMcts, EngineType::kFlat});
}

Section<EngineConfig> engine_type_key(bool chance_game) {
  Section<EngineConfig> s;
  std::vector<std::pair<std::string, EngineType>> types = {
      {"mcts", EngineType::kMcts}, {"flat", EngineType::kFlat}, {"random", EngineType::kRandom}};
  types.emplace_back(chance_game ? "expectimax" : "alphabeta",
                     chance_game ? EngineType::kExpectimax : EngineType::kAlphaBeta);
  types.emplace_back("pbrain", EngineType::kPbrain);
  if (!chance_game) types.emplace_back("external", EngineType::kExternal);
  s.choice(
      "type", &EngineConfig::type, EngineType::kMcts, types,
      std::string("mcts: UCT tree search; flat: playouts from the root moves only; random: "
                  "random moves; ") +
          (chance_game ? "expectimax: depth-limited expectiminimax over the weights' evaluation"
                       : "alphabeta: negamax alpha-beta (PVS, transposition table) over the "
                         "weights' evaluation") +
          "; pbrain: an external program speaking the Gomocup protocol (games that have it)" +
          (chance_game ? std::string()
                       : std::string("; external: an external program speaking selfplay's engine "
                                     "protocol (docs/engine-protocol.md)")));
  s.custom(
      "label", &EngineConfig::label, "", "text", &parse_engine_label,
      [](const std::string& label) { return label; },
      "a name for this engine, shown wherever it plays: summaries, exports (tsv, pdn, sgf) and the "
      "viewer; at most 64 printable characters, \"\" = none");
  return s;
}

Section<EngineConfig> engine_search_keys(bool chance_game) {
  Section<EngineConfig> s;
  s.only_if(applies_to_rollout_engines, "for type mcts and flat");
  s.integer("rollouts_per_move", &EngineConfig::rollouts_per_move, 1000, 1, 100'000'000,
            "search budget per move decision, in playouts summed over all leaves");
  s.only_if([](const EngineConfig& e) { return e.type == EngineType::kMcts; }, "for type mcts");
  s.integer("rollouts_per_leaf", &EngineConfig::rollouts_per_leaf, 8, 1, 65536,
            "playouts run for each expanded leaf; at most rollouts_per_move");
  s.real("exploration", &EngineConfig::exploration, 0.7, Range{0, 100},
         "UCT constant c in Q + c * sqrt(ln N / n)");
  s.integer("virtual_loss", &EngineConfig::virtual_loss, 1, 0, 1000,
            "visits added on the path while a leaf is in flight, to spread a round's leaves");
  s.integer("leaves_per_round", &EngineConfig::leaves_per_round, 4, 1, 4096,
            "descents one tree contributes to each rollout batch (a descent's leaves: 1, or up "
            "to fanout)");
  s.integer("fanout", &EngineConfig::fanout, 1, 1, 256,
            "leaves per descent: a descent that expands a node sends up to this many of its "
            "children to the batch (the ones UCT visits first), each with rollouts_per_leaf; "
            "1 = one leaf, the node itself");
  s.choice("fanout_backup", &EngineConfig::fanout_best, false, {{"mean", false}, {"best", true}},
           "with fanout > 1, what the expanded node and those above it learn from its "
           "children's leaves: mean (every leaf, as any other) or best (one leaf's worth: the "
           "mean of its child best for the side to move there; each leaf counts for its child "
           "alone)");
  if (chance_game)
    s.choice("chance", &EngineConfig::chance, ChanceMode::kSample,
             {{"sample", ChanceMode::kSample}, {"round_robin", ChanceMode::kRoundRobin}},
             "chance outcome (die) at chance nodes: sampled on each visit, or each in turn");
  s.integer("node_budget_mb", &EngineConfig::node_budget, 16, 1, 65536,
            "MiB of nodes per tree (one tree per mcts engine per concurrent game; a node takes "
            "48-64 bytes, by the size of the game's moves); the search stops expanding when the "
            "tree is full");
  s.boolean("reuse_tree", &EngineConfig::reuse_tree, true,
            "keep the subtree below the played move for the next search");
  s.only_if({}, "");
  return s;
}

Section<EngineConfig> engine_eval_keys(bool chance_game, const WeightsLoader& load,
                                       const std::string& weights_example) {
  const char* deep = chance_game ? "expectimax" : "alphabeta";
  const auto deep_engine = [](const EngineConfig& e) {
    return is_type(e, {EngineType::kExpectimax, EngineType::kAlphaBeta});
  };
  Section<EngineConfig> s;
  s.only_if(
      [](const EngineConfig& e) {
        return is_type(e, {EngineType::kMcts, EngineType::kExpectimax, EngineType::kAlphaBeta});
      },
      std::string("for type mcts and ") + deep);
  s.file("weights", &EngineConfig::weights,
         std::string("evaluation weights (YAML, e.g. ") + weights_example + "): " + deep +
             (chance_game ? " needs them" : " scores its horizon with them (none: 0)") +
             ", mcts uses them for eval_blend and progressive_bias",
         [load](EngineConfig& e, const std::string& file) {
           e.evaluation = nullptr;
           if (!file.empty()) e.evaluation = load(file);
         });
  s.only_if([](const EngineConfig& e) { return e.type == EngineType::kMcts; }, "for type mcts");
  s.real("eval_blend", &EngineConfig::eval_blend, 0, Range{0, 1},
         "mcts: leaf value = (1 - b) * rollout mean + b * sigmoid(eval_scale * eval); needs "
         "weights");
  s.real("eval_scale", &EngineConfig::eval_scale, 1, Range{0, 1e6, true, false},
         "mcts: k in sigmoid(k * eval), per evaluation unit; fit it to the weights (Texel's K)");
  s.real("progressive_bias", &EngineConfig::progressive_bias, 0, Range{0, 100},
         "mcts: adds progressive_bias * sigmoid(eval_scale * eval) / (visits + 1) to a move's UCT "
         "score; needs weights");
  s.only_if(deep_engine, std::string("for type ") + deep);
  s.integer("depth", &EngineConfig::depth, 4, 0, 64,
            std::string(deep) + ": search depth in " + (chance_game ? "decision plies" : "plies") +
                "; 0 = as deep as time_ms allows");
  s.integer("time_ms", &EngineConfig::time_ms, 0, 0, 3'600'000,
            std::string(deep) +
                ": time per move in ms, 0 = none; a time limit makes games depend on speed");
  s.integer("tt_size_mb", &EngineConfig::tt_size_mb, 4, 1, 65536,
            std::string(deep) + ": transposition table MiB, one table per concurrent game");
  if (chance_game) {
    s.only_if([](const EngineConfig& e) { return e.type == EngineType::kExpectimax; },
              "for type expectimax");
    s.boolean("star1", &EngineConfig::star1, true, "expectimax: Star1 pruning at chance nodes");
  } else {
    s.only_if(
        [](const EngineConfig& e) {
          return e.type == EngineType::kAlphaBeta && e.search == SearchKind::kGeneric;
        },
        "for type alphabeta with the generic search");
    s.boolean("pvs", &EngineConfig::pvs, true,
              "alphabeta: principal variation search (null windows after the first move); "
              "false = full windows, for ablation");
    s.boolean("killers", &EngineConfig::killers, true,
              "alphabeta: two killer moves a ply ordered after tactical moves; false = none");
    s.boolean("history", &EngineConfig::history, true,
              "alphabeta: quiet moves ordered by the history of the cutoffs they caused; false = "
              "generation order");
    s.boolean("lmr", &EngineConfig::lmr, false,
              "alphabeta: late-move reductions: a quiet move searched after the first three (not "
              "a killer, leaving no forced reply) goes a ply shallower first (two from the eighth "
              "on, 6+ plies to go), and to full depth only if it then beats the best so far");
    s.only_if([](const EngineConfig& e) { return e.type == EngineType::kAlphaBeta; },
              "for type alphabeta");
    s.boolean("forced_extension", &EngineConfig::forced_extension, false,
              "alphabeta: a position with a single move (checkers: a forced capture; Gomoku's "
              "pattern search: the answer to a four) does not count a ply, up to twice the "
              "iteration's depth from the root (pattern: up to ply 32)");
    s.boolean("time_management", &EngineConfig::time_management, false,
              "alphabeta with a time limit: play a better move found by the iteration time cut "
              "short (the pattern search always does), and go on iterating past half the time "
              "while the best move keeps changing; false = no iteration started past half");
  }
  s.only_if({}, "");
  s.check([chance_game, weights_example](const EngineConfig& e, const Document& doc,
                                         const std::string& path) {
    const auto key = [&](const char* name) { return path + "." + name; };
    if (e.type == EngineType::kExpectimax || e.type == EngineType::kAlphaBeta) {
      if (chance_game && e.weights.empty())
        doc.fail_key(key("weights"),
                     "required for type expectimax: a weights file such as " + weights_example);
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
    if (e.type != EngineType::kMcts || e.rollouts_per_leaf <= e.rollouts_per_move) return;
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

std::string resolve_program(const std::string& document, const std::string& program) {
  const auto runnable = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
  };
  if (program.find('/') == std::string::npos) {
    const char* env = std::getenv("PATH");
    const std::string dirs = env ? env : "";
    for (size_t start = 0; start <= dirs.size();) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
      if (runnable(dir + "/" + program)) return program;  // posix_spawnp finds it the same way
      start = end + 1;
    }
    throw InputError("program '" + excerpt(program) +
                     "' is not on PATH; give its path (relative to the config file's directory)");
  }
  const std::string path = detail::resolve_path(document, program);
  if (!runnable(path)) {
    struct stat st {};
    const std::string why = ::stat(path.c_str(), &st) != 0 ? std::strerror(errno)
                            : !S_ISREG(st.st_mode)         ? "not a regular file"
                                                           : "not executable";
    throw InputError("cannot run '" + excerpt(path) + "': " + why);
  }
  return path;
}

std::string command_text(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    const bool plain = !w.empty() && w.find_first_of(" \t\n'\"\\#") == std::string::npos;
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (const char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

Section<EngineConfig> engine_threat_keys() {
  Section<EngineConfig> s;
  s.only_if([](const EngineConfig& e) { return e.type == EngineType::kAlphaBeta; },
            "for type alphabeta");
  s.integer("threat_nodes", &EngineConfig::threat_nodes, 0, 0, 1'000'000,
            "alphabeta: nodes of the game's threat search for a forced win (Gomoku: fours) at "
            "each horizon position; the root's (Gomoku: fours and threes) gets 1024 times as "
            "many and a root move's reply 32 times; 0 = off (search pattern: VCF at each "
            "horizon position, 1024 times as many at the root and 512 times for the root's VCT)");
  s.choice("search", &EngineConfig::search, SearchKind::kGeneric,
           {{"generic", SearchKind::kGeneric}, {"pattern", SearchKind::kPattern}},
           "alphabeta: generic (the search of every game, over the weights' features) or pattern "
           "(Gomoku's own: incremental line patterns, threat-ranked moves, VCF and VCT; weighs "
           "only the own_to_*/opp_to_* features)");
  s.only_if(
      [](const EngineConfig& e) {
        return e.type == EngineType::kAlphaBeta && e.search == SearchKind::kPattern;
      },
      "for type alphabeta with search pattern");
  s.boolean("futility", &EngineConfig::futility, false,
            "pattern search: one ply from the horizon, in a null window, quiet moves are not "
            "searched when the static evaluation plus 1.5 units cannot reach alpha");
  s.boolean("razoring", &EngineConfig::razoring, false,
            "pattern search: one or two plies from the horizon, in a null window, a static "
            "evaluation 2.5 or 5 units below alpha leaves the position to the horizon's VCF and "
            "threat defences when they fail low too");
  s.boolean("move_count_pruning", &EngineConfig::move_count_pruning, false,
            "pattern search: one to three plies from the horizon, in a null window, quiet moves "
            "past the 8th, 12th or 18th (in move-score order) are not searched");
  s.boolean("score_reductions", &EngineConfig::score_reductions, false,
            "pattern search: late-move reductions by the move's score instead of its index: a "
            "quiet move making a three for the side to move (score 60+) is reduced by a ply from "
            "the sixth move on only, one making a two (20+) by a ply, the rest by two");
  s.boolean("opponent_vct", &EngineConfig::opponent_vct, false,
            "pattern search: two or more plies from the horizon, when the opponent would win by "
            "fours and open threes if it moved now (200 nodes, a table of its own), a move after "
            "which it still would is scored as the loss, not searched");
  return s;
}

Section<EngineConfig> engine_quiescence_keys() {
  Section<EngineConfig> s;
  s.only_if([](const EngineConfig& e) { return e.type == EngineType::kAlphaBeta; },
            "for type alphabeta");
  s.boolean("quiescence", &EngineConfig::quiescence, true,
            "alphabeta: a horizon position that is not quiet (checkers: the side to move has a "
            "capture, which is forced) is searched a ply further, until a quiet one; false = "
            "score the horizon as it is (the engine of files written before the key existed)");
  return s;
}

Section<EngineConfig> engine_egtb_keys(
    std::function<void(EngineConfig&, const std::string&)> load) {
  Section<EngineConfig> s;
  s.only_if(
      [](const EngineConfig& e) {
        return e.type == EngineType::kMcts || e.type == EngineType::kAlphaBeta;
      },
      "for type mcts and alphabeta");
  s.file("egtb", &EngineConfig::egtb,
         "mcts, alphabeta: folder of endgame databases (`selfplay egtb build`); positions they "
         "cover score exactly (alphabeta) or are solved nodes (mcts); empty = none",
         std::move(load));
  return s;
}

Section<EngineConfig> engine_book_keys() {
  Section<EngineConfig> s;
  s.only_if([](const EngineConfig& e) { return !is_external(e.type); },
            "for the engines of this program (not pbrain or external)");
  s.file("book", &EngineConfig::book,
         "opening book (`selfplay book build`): in a position it holds, within the plies it "
         "covers, the engine plays the book's move without searching; empty = none",
         [](EngineConfig& e, const std::string& path) {
           e.opening_book = nullptr;
           if (!path.empty())
             e.opening_book = std::make_shared<book::OpeningBook>(book::read_book(path));
         });
  return s;
}

Section<EngineConfig> engine_pbrain_keys() {
  Section<EngineConfig> s;
  s.only_if([](const EngineConfig& e) { return is_external(e.type); },
            "for type pbrain and external");
  s.node(
      "command", &EngineConfig::command, std::vector<std::string>{},
      "program and arguments, split like a shell line (quotes, backslashes; no variables)",
      [](const YAML::Node& v, Mark at, Document& doc, const std::string& path) {
        const std::string text = detail::read_string(v, at, doc, path, true);
        if (text.empty()) return std::vector<std::string>{};
        std::vector<std::string> words;
        try {
          words = split_command(text);
          words[0] = resolve_program(doc.name(), words[0]);
        } catch (const InputError& e) {
          doc.fail(at, path, e.what());
        }
        return words;
      },
      [](const std::vector<std::string>& words) { return detail::quote(command_text(words)); },
      "pbrain, external: the engine's command line; a program path with '/' is relative to this "
      "file's directory, a bare name is looked up on PATH; one process per game and engine");
  s.integer("timeout_turn_ms", &EngineConfig::timeout_turn_ms, 5000, 1, 3'600'000,
            "pbrain, external: time per move in ms (INFO timeout_turn)");
  s.integer("timeout_match_ms", &EngineConfig::timeout_match_ms, 0, 0, 1'000'000'000,
            "pbrain, external: time for all its moves of a game in ms, 0 = none (INFO "
            "timeout_match; INFO time_left before each move)");
  s.integer("tolerance_ms", &EngineConfig::tolerance_ms, 1000, 0, 600'000,
            "pbrain, external: an answer this late past a limit still counts; also how long the "
            "program may take to exit after END before it is killed");
  s.only_if({}, "");
  s.check([](const EngineConfig& e, const Document& doc, const std::string& path) {
    if (is_external(e.type) && e.command.empty())
      doc.fail_key(path + ".command",
                   std::string("required for type ") +
                       (e.type == EngineType::kPbrain ? "pbrain" : "external") +
                       ": the engine's command line, e.g. \"engines/foo\" (relative to the "
                       "config file's directory)");
  });
  return s;
}

Section<BackendConfig> backend_keys() {
  Section<BackendConfig> s;
  s.choice(
      "name", &BackendConfig::name, std::string("auto"),
      {{"auto", "auto"}, {"cpu", "cpu"}, {"cuda", "cuda"}, {"check", "check"}, {"null", "null"}},
      "rollout backend; auto takes cuda when built and a device is present, else cpu; null plays "
      "nothing (host throughput only)");
  s.integer("threads", &BackendConfig::threads, 0, 0, 4096,
            "threads of the one pool for host search and cpu rollouts; 0 = all cores");
  s.integer("device", &BackendConfig::device, 0, 0, 63, "cuda device ordinal");
  s.integer("batch_rollouts", &BackendConfig::batch_rollouts, 0, 0, 1 << 26,
            "target playouts per batch handed to the backend; 0 = the backend's preferred size");
  s.choice("simd", &BackendConfig::simd, std::string("auto"),
           {{"auto", "auto"}, {"scalar", "scalar"}, {"avx2", "avx2"}, {"avx512", "avx512"}},
           "cpu playouts' code path; auto = SELFPLAY_SIMD when set, else the fastest the processor "
           "runs (avx512, avx2, scalar)");
  return s;
}

Section<OutputConfig> output_keys(const std::string& default_path, bool quiet_key) {
  Section<OutputConfig> s;
  if (!default_path.empty())
    s.string("path", &OutputConfig::path, default_path, false,
             "HDF5 file the game records are written to");
  s.integer("positions_per_game", &OutputConfig::positions_per_game, 4, 0, 4096,
            "positions sampled per game for /positions; 0 = every ply");
  if (quiet_key)
    s.boolean("quiet_positions", &OutputConfig::quiet_positions, false,
              "sample /positions among the quiet positions only (checkers: no capture to make), "
              "those a static evaluation scores at the horizon, as Texel tuning wants them");
  // Each flush writes the HDF5 metadata again: flushing after every batch (1e-300 s) made files
  // up to 48 times their data; at 0.05 s a 3000-game file was 17% larger than at 2 s.
  s.real("flush_seconds", &OutputConfig::flush_seconds, 2.0, Range{0.05, 3600},
         "longest time finished games wait in memory before they are written; at least 0.05");
  s.integer("search_candidates", &OutputConfig::search_candidates, 8, 0, 256,
            "root moves per ply the searches' records keep in /candidates, best first (MCTS: "
            "visits and value; flat: rollouts and mean); 0 = none");
  s.boolean("root_policy", &OutputConfig::root_policy, false,
            "/candidates keeps every root move the search visited (the root's visit "
            "distribution, a policy target) instead of search_candidates of them");
  return s;
}

namespace {

Section<SprtSettings> sprt_keys() {
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

}  // namespace

Section<MatchSettings> match_keys() {
  Section<MatchSettings> s;
  s.integer("pairs", &MatchSettings::pairs, 1000, 1, 500'000'000,
            "game pairs to play (fewer when the SPRT decides); each pair shares setup and dice");
  s.section("sprt", &MatchSettings::sprt, sprt_keys(),
            "sequential test on the pairs, counted in pair order");
  return s;
}

std::string config_game(const std::string& text, const std::string& name,
                        const std::string& requested) {
  if (!requested.empty() && !is_game(requested))
    throw InputError("--game: unknown game '" + requested + "'; known games: " + game_names_text());
  Document doc(name);
  const YAML::Node root = doc.parse(text);
  const YAML::Node key = root["game"];
  if (!key.IsDefined() || key.IsNull())
    return requested.empty() ? Games::names().front() : requested;
  const Mark at = detail::mark_of(key);
  const std::string game = detail::read_string(key, at, doc, "game", false);
  if (!is_game(game)) {
    const std::string hint = closest_match(game, Games::names());
    doc.fail(at, "game",
             "unknown game '" + game + "'" +
                 (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                 "; known games: " + game_names_text());
  }
  if (!requested.empty() && requested != game)
    doc.fail(at, "game", "the config is for " + game + ", --game asks for " + requested);
  return game;
}

std::string config_file_game(const std::string& path, const std::string& requested) {
  return config_game(read_config_file(path), path, requested);
}

}  // namespace sp::config
