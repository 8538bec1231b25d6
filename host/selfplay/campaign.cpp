#include "host/selfplay/campaign.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <set>

#include "games/common/errors.hpp"
#include "games/ewn/features.hpp"
#include "games/ewn/notation.hpp"
#include "host/common/log.hpp"
#include "host/common/system.hpp"
#include "host/config/load.hpp"
#include "host/io/campaign_file.hpp"
#include "host/rollout/backend.hpp"
#include "host/selfplay/progress.hpp"

#ifndef SELFPLAY_GIT_COMMIT
#define SELFPLAY_GIT_COMMIT "unknown"
#endif

namespace sp::selfplay {
namespace {

// The parts of a config that decide the games: a resumed campaign must match them.
std::string identity(config::CampaignConfig cfg) {
  const config::CampaignConfig defaults;
  cfg.games = defaults.games;
  cfg.concurrency = defaults.concurrency;
  cfg.backend = defaults.backend;
  cfg.output = defaults.output;
  return config::explain_campaign_config(cfg);
}

}  // namespace

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
  io::set_text(g.setup, ewn::to_string(game.setup[0]) + "/" + ewn::to_string(game.setup[1]));
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
    r.die = p.before.die;
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

std::unique_ptr<rollout::Backend<EwnGame>> make_campaign_backend(const config::CampaignConfig& cfg) {
  rollout::BackendOptions bopts;
  bopts.threads = cfg.backend.threads;
  bopts.device = cfg.backend.device;
  const size_t leaves_per_game = std::max(cfg.engines[0].leaves_per_round, cfg.engines[1].leaves_per_round);
  bopts.max_leaves = std::max<size_t>(cfg.concurrency * std::max<size_t>(leaves_per_game, 64), 4096);
  bopts.max_rollouts = std::max<size_t>(bopts.max_leaves * 64, size_t{cfg.backend.batch_rollouts} * 2);
  return rollout::make_backend<EwnGame>(cfg.backend.name, bopts);
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

RunResult run_campaign(const config::CampaignConfig& cfg, const RunOptions& options, const std::atomic<bool>& stop) {
  namespace fs = std::filesystem;
  const std::string& path = cfg.output.path;
  io::check_campaign_path(path);
  const bool exists = fs::exists(path);
  if (exists && !options.resume)
    throw InputError("output " + path + " exists: continue it with --resume, or choose another --out");
  if (!exists && options.resume) throw InputError("--resume: output " + path + " does not exist");
  if (options.resume) {
    io::CampaignReader reader(path);
    const std::string before = reader.meta().config_text;
    config::CampaignConfig old;
    try {
      old = config::load_campaign_config_text(before, path + " (stored config)");
    } catch (const InputError& e) {
      throw InputError("--resume: cannot read the config stored in " + path + ": " + e.what());
    }
    if (identity(old) != identity(cfg))
      throw InputError("--resume: " + path +
                       " was written with a different game, seed or engine configuration; "
                       "resume with the same config (run `h5dump -a config " + path + "` to see it)");
  }
  if (const fs::path parent = fs::path(path).parent_path(); !parent.empty()) fs::create_directories(parent);

  auto backend = make_campaign_backend(cfg);
  const io::FileMeta meta = file_meta(cfg, backend->info(), config::explain_campaign_config(cfg));
  io::WriterOptions wopts;
  wopts.flush_seconds = cfg.output.flush_seconds;
  io::CampaignWriter writer =
      options.resume ? io::CampaignWriter::resume(path, meta, wopts) : io::CampaignWriter::create(path, meta, wopts);

  std::vector<uint32_t> todo;
  const auto& done = options.resume ? writer.resume_report().completed_games : std::set<uint64_t>{};
  for (uint32_t g = 0; g < cfg.games; ++g)
    if (!done.count(g)) todo.push_back(g);
  const uint64_t already = cfg.games - todo.size();
  if (options.resume)
    log::info("resume: " + std::to_string(already) + " of " + std::to_string(cfg.games) + " games already in " + path +
              (writer.resume_report().dropped_plies ? ", dropped " + std::to_string(writer.resume_report().dropped_plies) +
                                                          " plies of unfinished games"
                                                    : ""));
  log::info("campaign: " + std::to_string(todo.size()) + " games, " + std::to_string(cfg.concurrency) +
            " concurrent, backend " + backend->info().name + " (" + backend->info().device + "), output " + path);

  Progress progress(cfg.games, already, stderr, options.live && !log::quiet());
  RunResult result;
  Driver driver(cfg, *backend, todo);
  driver.run(
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
  result.games_in_file = already + result.games_played;
  result.interrupted = result.games_in_file < cfg.games;
  if (!log::quiet()) progress.tick(true);
  result.summary = progress.summary(path, backend->info().name + " (" + backend->info().device + ")");
  return result;
}

}  // namespace sp::selfplay
