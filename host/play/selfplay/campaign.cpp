#include "host/play/selfplay/campaign.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "core/simd/simd_path.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/system/build_info.hpp"
#include "host/base/system/log.hpp"
#include "host/base/system/system.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/memory.hpp"
#include "host/play/selfplay/progress.hpp"

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

YAML::Node child(const YAML::Node& node, const std::string& key) {
  return node.IsMap() && node[key] ? node[key] : YAML::Node(YAML::NodeType::Undefined);
}

// Removes from `now` the keys `old` lacks whose value is the one `defaults` has there.
void drop_new_defaults(YAML::Node now, const YAML::Node& old, const YAML::Node& defaults) {
  if (!now.IsMap()) return;
  std::vector<std::string> drop;
  for (auto kv : now) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Node o = child(old, key), d = child(defaults, key);
    if (!o.IsDefined()) {
      if (d.IsDefined() && YAML::Dump(d) == YAML::Dump(kv.second)) drop.push_back(key);
    } else if (kv.second.IsMap()) {
      drop_new_defaults(kv.second, o, d);
    }
  }
  for (const std::string& key : drop) now.remove(key);
}

}  // namespace

// Read in blocks: files can outgrow memory.
std::set<uint64_t> complete_games(const std::string& path) {
  const io::CampaignReader reader(path);
  std::set<uint64_t> ids;
  constexpr uint64_t kBlock = 16384;
  for (uint64_t first = 0; first < reader.games_count(); first += kBlock)
    for (const io::GameRow& row : reader.games(first, kBlock))
      if (row.game_id != io::kNoGame) ids.insert(row.game_id);
  return ids;
}

std::string emit_identity(const YAML::Node& tree) {
  YAML::Emitter out;
  out << tree;
  return std::string(out.c_str()) + "\n";
}

void check_resume_identity(const std::string& path, const std::string& identity, bool match,
                           const std::function<std::string(const std::string& config_text,
                                                           const std::string& name)>& identity_of) {
  const io::CampaignReader reader(path);
  if (match != reader.meta().match.has_value())
    throw InputError(
        "--resume: " + path +
        (match ? " is not a match file" : " is a match file: continue it with selfplay match"));
  std::string stored = reader.meta().identity;
  if (stored.empty()) {  // written before identities were stored
    try {
      stored = identity_of(reader.meta().config_text, path + " (stored config)");
    } catch (const InputError& e) {
      throw InputError("--resume: cannot read the config stored in " + path + ": " + e.what());
    }
  }
  std::string difference;
  try {
    difference = identity_difference(stored, identity);
    // Keys this build added since the file was written: equal where this run has the value the
    // file's own config has in this build (a key it could not set: the default).
    if (!difference.empty() && !reader.meta().identity.empty()) {
      std::string rederived;
      try {
        rederived = identity_of(reader.meta().config_text, path + " (stored config)");
      } catch (const InputError&) {
      }
      if (!rederived.empty()) difference = identity_difference(stored, identity, rederived);
    }
  } catch (const YAML::Exception& e) {
    throw InputError("--resume: cannot read the identity stored in " + path + ": " + e.what());
  }
  if (!difference.empty())
    throw InputError(
        "--resume: " + path + " was written with another " + difference +
        "; resume with the same config and weights, or choose another --out (`h5dump -a identity " +
        path + "` shows what the file was written with)");
}

std::string identity_difference(const std::string& stored, const std::string& current,
                                const std::string& added_defaults) {
  const YAML::Node old = YAML::Load(stored);
  YAML::Node now = YAML::Load(current);
  if (!added_defaults.empty()) drop_new_defaults(now, old, YAML::Load(added_defaults));
  // Features appended to a game's list since the file was written (names are only ever
  // appended): a weight of 0 on one is the evaluation the file was written with.
  const auto map_at = [](const YAML::Node& node, const std::string& key) {
    return node && node.IsMap() && node[key] ? node[key] : YAML::Node();
  };
  const YAML::Node old_engines = map_at(old, "engines");
  if (YAML::Node engines = map_at(now, "engines"); engines.IsMap() && old_engines.IsMap())
    for (auto engine : engines) {
      const std::string player = engine.first.as<std::string>();
      const YAML::Node old_weights = map_at(map_at(old_engines, player), "weights");
      YAML::Node weights = map_at(engine.second, "weights");
      if (!old_weights.IsMap() || !weights.IsMap()) continue;
      std::vector<std::string> appended;
      for (const auto& w : weights) {
        const std::string name = w.first.as<std::string>();
        if (!old_weights[name] && w.second.IsScalar() && w.second.as<std::string>() == "0")
          appended.push_back(name);
      }
      for (const std::string& name : appended) weights.remove(name);
    }
  return first_difference(old, now, "");
}

void apply_overrides(config::CampaignConfig& cfg, const RunOptions& options) {
  if (options.games) {
    if (*options.games == 0) throw InputError("--games must be at least 1");
    cfg.games = *options.games;
  }
  if (options.output) {
    if (options.output->empty()) throw InputError("--out must name a file");
    cfg.output.path = *options.output;
  }
  if (options.backend) cfg.backend.name = backend_override(*options.backend);
  if (options.threads) cfg.backend.threads = *options.threads;
  if (options.device) cfg.backend.device = *options.device;
}

std::string with_engine_labels(std::string summary, const config::CampaignConfig& cfg) {
  const std::string& a = cfg.engines[0].label;
  const std::string& b = cfg.engines[1].label;
  if (a.empty() && b.empty()) return summary;
  const auto named = [](const std::string& label) {
    return label.empty() ? std::string("(no label)") : "\"" + label + "\"";
  };
  const std::string line =
      "engine labels       player0 " + named(a) + ", player1 " + named(b) + "\n";
  // After the "games played" line (a live status line leaves an empty line before it).
  const size_t played = summary.find("games played");
  const size_t end = summary.find('\n', played == std::string::npos ? 0 : played);
  summary.insert(end == std::string::npos ? summary.size() : end + 1, line);
  return summary;
}

std::string backend_override(const std::string& name) {
  const std::vector<std::string> names = rollout::backend_names();
  if (std::find(names.begin(), names.end(), name) != names.end()) return name;
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  throw InputError("--backend: unknown backend '" + excerpt(name) + "' (known: " + known + ")");
}

rollout::BackendOptions backend_options(const config::CampaignConfig& cfg) {
  rollout::BackendOptions bopts;
  bopts.threads = cfg.backend.threads;
  bopts.device = cfg.backend.device;
  bopts.simd = rollout::simd_path_option(cfg.backend.simd, "backend.simd");
  const size_t leaves_per_game =
      std::max(size_t{cfg.engines[0].leaves_per_round} * cfg.engines[0].fanout,
               size_t{cfg.engines[1].leaves_per_round} * cfg.engines[1].fanout);
  const size_t games = std::max<size_t>(cfg.concurrency, 1);
  bopts.max_leaves = std::max<size_t>(games * std::max<size_t>(leaves_per_game, 64), 4096);
  bopts.max_rollouts = std::max<size_t>(
      {bopts.max_leaves * 64, size_t{cfg.backend.batch_rollouts} * 2, max_round_rollouts(cfg)});
  return bopts;
}

uint64_t games_memory_allows(const config::CampaignConfig& cfg, uint64_t machine_bytes) {
  config::CampaignConfig one = cfg;
  one.concurrency = 1;
  one.games = 1;
  const uint64_t each = estimate_memory(one).bytes;
  return machine_bytes == 0 || each == 0 ? UINT64_MAX : std::max<uint64_t>(1, machine_bytes / each);
}

void stamp_host(io::FileMeta& meta) {
  meta.host = host_name();
  meta.start_time = utc_now();
  meta.git_commit = build::git_commit();
  meta.program = build::program_text();
}

FileLock claim_output(const std::string& path, bool resume, const std::string& what) {
  namespace fs = std::filesystem;
  io::check_campaign_path(path);
  if (resume && !fs::exists(path)) throw InputError("--resume: output " + path + " does not exist");
  if (const fs::path parent = fs::path(path).parent_path(); !parent.empty())
    fs::create_directories(parent);
  FileLock lock = io::lock_for_writing(path);
  if (fs::exists(path) && !resume)
    throw InputError("output " + path + " exists: continue the " + what +
                     " in it with --resume, or choose another --out");
  return lock;
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

}  // namespace sp::selfplay
