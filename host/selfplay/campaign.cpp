#include "host/selfplay/campaign.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "games/common/errors.hpp"
#include "games/ewn/features.hpp"
#include "games/ewn/notation.hpp"
#include "host/common/log.hpp"
#include "host/common/system.hpp"
#include "host/config/load.hpp"
#include "host/io/campaign_file.hpp"
#include "host/rollout/backend.hpp"
#include "host/selfplay/memory.hpp"
#include "host/selfplay/progress.hpp"

#ifndef SELFPLAY_GIT_COMMIT
#define SELFPLAY_GIT_COMMIT "unknown"
#endif

namespace sp::selfplay {
namespace {

namespace fs = std::filesystem;

// A scalar as it reads in a message; a map or sequence in YAML's flow style, cut short.
std::string brief(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "none";
  if (node.IsScalar()) return node.Scalar().empty() ? "\"\"" : node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  std::string text = out.c_str();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string first_difference(const YAML::Node& stored, const YAML::Node& current,
                             const std::string& key) {
  const auto differs = [&](const std::string& what) {
    return (key.empty() ? std::string("the top level") : key) + " (" + what + ")";
  };
  if (stored.IsMap() && current.IsMap()) {
    for (const auto& item : stored) {
      const std::string name = item.first.as<std::string>();
      const std::string sub = key.empty() ? name : key + "." + name;
      if (!current[name].IsDefined())
        return sub + " (" + brief(item.second) + " in the file, not in this run)";
      if (std::string d = first_difference(item.second, current[name], sub); !d.empty()) return d;
    }
    for (const auto& item : current) {
      const std::string name = item.first.as<std::string>();
      if (!stored[name].IsDefined())
        return (key.empty() ? name : key + "." + name) + " (not in the file, " +
               brief(item.second) + " in this run)";
    }
    return "";
  }
  if (stored.IsScalar() && current.IsScalar() && stored.Scalar() == current.Scalar()) return "";
  if (stored.IsNull() && current.IsNull()) return "";
  if (stored.IsSequence() && current.IsSequence() && stored.size() == current.size()) {
    for (size_t i = 0; i < stored.size(); ++i)
      if (std::string d =
              first_difference(stored[i], current[i], key + "[" + std::to_string(i) + "]");
          !d.empty())
        return d;
    return "";
  }
  return differs(brief(stored) + " in the file, " + brief(current) + " in this run");
}

// The ids of the complete games in a readable campaign file: its distinct written /games rows,
// which resume() keeps. Read in blocks: files can outgrow memory.
std::set<uint64_t> complete_games(const std::string& path) {
  const io::CampaignReader reader(path);
  std::set<uint64_t> ids;
  constexpr uint64_t kBlock = 16384;
  for (uint64_t first = 0; first < reader.games_count(); first += kBlock)
    for (const io::GameRow& row : reader.games(first, kBlock))
      if (row.game_id != io::kNoGame) ids.insert(row.game_id);
  return ids;
}

}  // namespace

std::string run_identity(const config::CampaignConfig& cfg, bool match) {
  YAML::Node tree =
      YAML::Load(match ? config::explain_match_config(cfg) : config::explain_campaign_config(cfg));
  for (const char* key : {"games", "concurrency"})
    if (tree["campaign"]) tree["campaign"].remove(key);
  tree.remove("backend");
  for (const char* key : {"path", "flush_seconds"})
    if (tree["output"]) tree["output"].remove(key);
  if (match && tree["match"]) tree["match"].remove("pairs");
  for (int p = 0; p < 2; ++p) {
    YAML::Node engine = tree["engines"]["player" + std::to_string(p)];
    YAML::Node values;  // null: no weights
    if (const auto& weights = cfg.engines[p].evaluation)
      for (size_t i = 0; i < weights->w.size() && i < ewn::kFeatureNames.size(); ++i)
        values[std::string(ewn::kFeatureNames[i])] = fmt::format("{}", weights->w[i]);
    engine["weights"] = values;
  }
  YAML::Emitter out;
  out << tree;
  return std::string(out.c_str()) + "\n";
}

std::string identity_difference(const std::string& stored, const std::string& current) {
  return first_difference(YAML::Load(stored), YAML::Load(current), "");
}

void check_resume_identity(const std::string& path, const std::string& identity, bool match) {
  const io::CampaignReader reader(path);
  if (match != reader.meta().match.has_value())
    throw InputError(
        "--resume: " + path +
        (match ? " is not a match file" : " is a match file: continue it with selfplay match"));
  std::string stored = reader.meta().identity;
  if (stored.empty()) {  // written before identities were stored
    config::CampaignConfig old;
    try {
      const std::string name = path + " (stored config)";
      old = match ? config::load_match_config_text(reader.meta().config_text, name)
                  : config::load_campaign_config_text(reader.meta().config_text, name);
    } catch (const InputError& e) {
      throw InputError("--resume: cannot read the config stored in " + path + ": " + e.what());
    }
    stored = run_identity(old, match);
  }
  std::string difference;
  try {
    difference = identity_difference(stored, identity);
  } catch (const YAML::Exception& e) {
    throw InputError("--resume: cannot read the identity stored in " + path + ": " + e.what());
  }
  if (!difference.empty())
    throw InputError(
        "--resume: " + path + " was written with another " + difference +
        "; resume with the same config and weights, or choose another --out (`h5dump -a identity " +
        path + "` shows what the file was written with)");
}

config::CampaignConfig with_overrides(config::CampaignConfig cfg, const RunOptions& options) {
  if (options.games) {
    if (*options.games == 0) throw InputError("--games must be at least 1");
    cfg.games = *options.games;
  }
  if (options.output) {
    if (options.output->empty()) throw InputError("--out must name a file");
    cfg.output.path = *options.output;
  }
  if (options.backend) cfg.backend.name = *options.backend;
  if (options.threads) cfg.backend.threads = *options.threads;
  return cfg;
}

std::string describe_rules(const config::CampaignConfig& cfg) {
  const auto& r = cfg.game.rules;
  std::string s = std::string("capture_own=") + (r.capture_own ? "true" : "false") + " substitution=" +
                  (r.substitution == ewn::Substitution::kNearest ? "nearest" : "next_lower_or_higher");
  return s;
}

GameRows to_rows(const config::CampaignConfig& cfg, const FinishedGame& game) {
  GameRows rows;
  io::GameRow& g = rows.game;
  g.game_id = game.game_id;
  g.seed = cfg.seed;
  io::set_text(g.opening, ewn::to_string(game.setup[0]) + "/" + ewn::to_string(game.setup[1]));
  g.first_player = static_cast<uint8_t>(game.first_player);
  g.winner = static_cast<int8_t>(game.winner == 0 || game.winner == 1 ? game.winner : -1);
  g.plies = static_cast<uint16_t>(game.plies.size());
  g.duration_s = game.duration_s;
  std::string record;
  for (const PlyInfo& p : game.plies) {
    if (!record.empty()) record += ' ';
    record += ewn::ply_to_string(p.before.die, p.move);
  }
  io::set_record(g, record);

  for (size_t i = 0; i < game.plies.size(); ++i) {
    const PlyInfo& p = game.plies[i];
    io::PlyRow r;
    r.game_id = game.game_id;
    r.ply = static_cast<uint16_t>(i);
    r.player = p.before.side;
    r.chance = static_cast<int8_t>(p.before.die);
    io::set_text(r.move, ewn::to_string(p.move));
    r.visits = p.stats.visits;
    r.root_value = p.stats.value;
    r.rollouts = p.stats.rollouts;
    r.time_ms = p.time_ms;
    rows.plies.push_back(r);
  }

  // Positions for tuning: every ply, or a sample of distinct plies drawn from (seed, game id).
  std::vector<size_t> chosen;
  const size_t n = game.plies.size(), k = cfg.output.positions_per_game;
  if (k == 0 || k >= n) {
    for (size_t i = 0; i < n; ++i) chosen.push_back(i);
  } else {
    WordStream rng({cfg.seed, game.game_id, 0, kLeafSetup, 1});
    std::set<size_t> picked;
    while (picked.size() < k) picked.insert(rng.below(static_cast<uint32_t>(n)));
    chosen.assign(picked.begin(), picked.end());
  }
  float f[ewn::kNumFeatures];
  for (size_t i : chosen) {
    const ewn::State& s = game.plies[i].before;
    io::PositionRow r;
    r.game_id = game.game_id;
    r.ply = static_cast<uint16_t>(i);
    r.side_to_move = s.side;
    r.result = game.winner == s.side ? 1.0f : (game.winner == 0 || game.winner == 1) ? 0.0f : 0.5f;
    rows.positions.push_back(r);
    ewn::extract_features(s, cfg.game.rules, f);
    rows.features.insert(rows.features.end(), f, f + ewn::kNumFeatures);
  }
  return rows;
}

namespace {

rollout::BackendOptions backend_options(const config::CampaignConfig& cfg) {
  rollout::BackendOptions bopts;
  bopts.threads = cfg.backend.threads;
  bopts.device = cfg.backend.device;
  const size_t leaves_per_game = std::max(cfg.engines[0].leaves_per_round, cfg.engines[1].leaves_per_round);
  const size_t games = std::max<size_t>(cfg.concurrency, 1);
  bopts.max_leaves = std::max<size_t>(games * std::max<size_t>(leaves_per_game, 64), 4096);
  bopts.max_rollouts = std::max<size_t>({bopts.max_leaves * 64, size_t{cfg.backend.batch_rollouts} * 2,
                                         max_round_rollouts(cfg)});
  return bopts;
}

// The most games whose engines fit in machine_bytes (0: unknown, no limit).
uint64_t games_memory_allows(const config::CampaignConfig& cfg, uint64_t machine_bytes) {
  config::CampaignConfig one = cfg;
  one.concurrency = 1;
  one.games = 1;
  const uint64_t each = estimate_memory(one).bytes;
  return machine_bytes == 0 || each == 0 ? UINT64_MAX : std::max<uint64_t>(1, machine_bytes / each);
}

}  // namespace

std::unique_ptr<rollout::Backend<EwnGame>> make_campaign_backend(config::CampaignConfig& cfg) {
  auto backend = rollout::make_backend<EwnGame>(cfg.backend.name, backend_options(cfg));
  const uint64_t target = batch_target(cfg, backend->info());
  if (cfg.concurrency == 0) {
    cfg.concurrency =
        auto_concurrency(cfg, target, games_memory_allows(cfg, usable_memory_bytes()));
    log::info(fmt::format("concurrency: auto -> {} games (target {} rollouts per batch)",
                          cfg.concurrency, target));
    check_memory(cfg);  // the games of auto fit unless one does not
    const rollout::BackendOptions sized = backend_options(cfg);
    if (sized.max_leaves > backend->info().max_leaves ||
        sized.max_rollouts > backend->info().max_rollouts) {
      backend.reset();  // one backend at a time: a device's memory may not hold two
      backend = rollout::make_backend<EwnGame>(cfg.backend.name, sized);
    }
  }
  // Advice on speed, not on the data: --quiet (scripted runs) leaves it out.
  if (const std::string shortfall = batch_shortfall(cfg, target);
      !shortfall.empty() && !log::quiet())
    log::warn(shortfall);
  return backend;
}

io::FileMeta file_meta(const config::CampaignConfig& cfg, const rollout::BackendInfo& backend,
                       std::string config_text) {
  io::FileMeta meta;
  meta.game = cfg.game.game;
  meta.rules = describe_rules(cfg);
  meta.config_text = std::move(config_text);
  meta.backend = backend.name;
  meta.device = backend.device;
  meta.host = host_name();
  meta.start_time = utc_now();
  meta.git_commit = SELFPLAY_GIT_COMMIT;
  meta.seed = cfg.seed;
  for (const auto& name : ewn::kFeatureNames) meta.feature_names.emplace_back(name);
  return meta;
}

ClaimedOutput claim_output(const std::string& path, bool resume, const std::string& what) {
  namespace fs = std::filesystem;
  io::check_campaign_path(path);
  if (resume && !fs::exists(path)) throw InputError("--resume: output " + path + " does not exist");
  if (const fs::path parent = fs::path(path).parent_path(); !parent.empty()) fs::create_directories(parent);
  ClaimedOutput out;
  out.lock = io::lock_for_writing(path);
  out.unfinished = io::is_unfinished_file(io::write_target(path));
  if (fs::exists(path) && !resume)
    throw InputError("output " + path + " exists: continue it with --resume" +
                     (out.unfinished ? " (it holds no game: the " + what + " starts afresh)" : "") +
                     ", or choose another --out");
  return out;
}

io::PerfRow perf_row(const BatchInfo& b) {
  io::PerfRow row;
  row.batch = b.index;
  row.time_s = b.time_s;
  row.leaves = b.leaves;
  row.rollouts = b.rollouts;
  row.host_ms = static_cast<float>(b.host_ms);
  row.backend_ms = static_cast<float>(b.backend_ms);
  return row;
}

std::unique_ptr<Driver> make_driver(const config::CampaignConfig& cfg,
                                    rollout::Backend<EwnGame>& backend,
                                    std::vector<uint32_t> game_ids) {
  try {
    return std::make_unique<Driver>(cfg, backend, std::move(game_ids));
  } catch (const std::bad_alloc&) {
    std::string tables;
    for (int p = 0; p < 2; ++p)
      if (cfg.engines[p].type == config::EngineType::kExpectimax)
        tables += fmt::format(", engines.player{}.tt_size_mb {}", p, cfg.engines[p].tt_size_mb);
    throw std::runtime_error(fmt::format(
        "out of memory building the engines of {} concurrent games (campaign.concurrency {}{}): "
        "lower them; nothing was written",
        std::min<size_t>(cfg.concurrency, cfg.games), cfg.concurrency, tables));
  }
}

RunResult run_campaign(const config::CampaignConfig& requested, const RunOptions& options,
                       const std::atomic<bool>& stop) {
  config::CampaignConfig cfg = requested;  // make_campaign_backend resolves concurrency auto in it
  check_memory(cfg);  // before any file or engine exists (auto: in make_campaign_backend)
  const std::string& path = cfg.output.path;
  // From here on no other writer touches the file: what is read below is what resume() keeps.
  auto [lock, unfinished] = claim_output(path, options.resume, "campaign");
  const std::string identity = run_identity(cfg, false);
  std::set<uint64_t> done;
  if (options.resume && !unfinished) {
    check_resume_identity(path, identity, false);
    done = complete_games(path);
  }

  std::vector<uint32_t> todo;
  for (uint32_t g = 0; g < cfg.games; ++g)
    if (!done.count(g)) todo.push_back(g);
  const uint64_t already = cfg.games - todo.size();  // of game ids 0..games-1
  auto backend = make_campaign_backend(cfg);
  std::unique_ptr<Driver> driver = make_driver(cfg, *backend, todo);

  io::FileMeta meta = file_meta(cfg, backend->info(), config::explain_campaign_config(cfg));
  meta.identity = identity;
  io::WriterOptions wopts;
  wopts.flush_seconds = cfg.output.flush_seconds;
  io::CampaignWriter writer = options.resume
                                  ? io::CampaignWriter::resume(std::move(lock), path, meta, wopts)
                                  : io::CampaignWriter::create(std::move(lock), path, meta, wopts);
  const io::ResumeReport& report = writer.resume_report();
  if (report.started_afresh) {
    log::info("resume: " + path +
              " held no complete game (a run killed while creating it): starting afresh");
  } else if (options.resume) {
    std::string line = "resume: " + std::to_string(done.size()) + " complete games in " + path;
    if (done.size() != already)
      line += ", " + std::to_string(already) + " of them among the " + std::to_string(cfg.games) +
              " of this run";
    if (report.dropped_plies)
      line += ", dropped " + std::to_string(report.dropped_plies) + " plies of unfinished games";
    log::info(line);
  }
  log::info("campaign: " + std::to_string(todo.size()) + " games, " + std::to_string(cfg.concurrency) +
            " concurrent, backend " + backend->info().name + " (" + backend->info().device + "), output " + path);

  Progress progress(cfg.games, already, stderr, options.live && !log::quiet());
  RunResult result;
  driver->run(
      [&](FinishedGame&& game) {
        GameRows rows = to_rows(cfg, game);
        writer.append_game(rows.game, std::move(rows.plies), std::move(rows.positions), std::move(rows.features));
        const int winner_engine = game.winner == 0 || game.winner == 1 ? game.engine_of_player[game.winner] : -1;
        progress.game_finished(game.winner, game.first_player, static_cast<uint32_t>(game.plies.size()), winner_engine);
        ++result.games_played;
        if (!log::quiet()) progress.tick();
      },
      [&](const BatchInfo& b) {
        writer.append_perf(perf_row(b));
        progress.batch_done(b.leaves, b.rollouts, b.backend_ms, b.wait_ms, b.host_ms);
        if (!log::quiet()) progress.tick();
      },
      stop);
  writer.close();
  result.games_in_file = done.size() + result.games_played;
  result.interrupted = already + result.games_played < cfg.games;
  if (!log::quiet()) progress.tick(true);
  result.summary = progress.summary(
      path, backend->info().name + " (" + backend->info().device + ")", result.games_in_file);
  return result;
}

}  // namespace sp::selfplay
