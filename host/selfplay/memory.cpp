#include "host/selfplay/memory.hpp"

#include <algorithm>

#include "games/common/errors.hpp"
#include "host/common/system.hpp"
#include "host/search/mcts.hpp"

namespace sp::selfplay {
namespace {

// a * b, saturating: configs may multiply to more than 64 bits hold.
uint64_t times(uint64_t a, uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

uint64_t plus(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

}  // namespace

std::string MemoryEstimate::summary() const {
  std::string out = "about " + format_bytes(bytes);
  if (parts.empty()) return out + " (no engine keeps a tree or a table)";
  out += " (";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out + ")";
}

MemoryEstimate estimate_memory(const config::CampaignConfig& cfg) {
  MemoryEstimate m;
  m.games_at_once = std::min<uint64_t>(cfg.concurrency, cfg.games);
  const std::string games = std::to_string(m.games_at_once) + " games at once";
  for (int p = 0; p < 2; ++p) {
    const config::EngineConfig& e = cfg.engines[p];
    const std::string key = "engines.player" + std::to_string(p) + ".";
    uint64_t each = 0;
    std::string what;
    if (e.type == config::EngineType::kMcts) {
      // The tree's arena never grows past its budget (plus one root expansion, negligible).
      each = uint64_t{e.node_budget} << 20;
      what = key + "node_budget_mb " + std::to_string(e.node_budget) + " MiB";
      m.keys.push_back(key + "node_budget_mb");
    } else if (e.type == config::EngineType::kExpectimax ||
               e.type == config::EngineType::kAlphaBeta) {
      each = uint64_t{e.tt_size_mb} << 20;
      what = key + "tt_size_mb " + std::to_string(e.tt_size_mb) + " MiB";
      m.keys.push_back(key + "tt_size_mb");
    } else {
      continue;  // flat and random keep nothing that grows
    }
    const uint64_t total = times(each, m.games_at_once);
    m.parts.push_back(what + " x " + games + " = " + format_bytes(total));
    m.bytes = plus(m.bytes, total);
  }
  m.keys.push_back("campaign.concurrency");
  return m;
}

void check_memory(const config::CampaignConfig& cfg, uint64_t machine_bytes) {
  if (machine_bytes == 0) return;
  const MemoryEstimate m = estimate_memory(cfg);
  if (m.bytes <= machine_bytes) return;
  std::string keys;
  for (size_t i = 0; i < m.keys.size(); ++i)
    keys += (i == 0 ? "" : i + 1 == m.keys.size() ? " or " : ", ") + m.keys[i];
  throw InputError(cfg.source_path + ": the engines would need " + m.summary() +
                   ", more than the " + format_bytes(machine_bytes) +
                   " of memory of this machine; lower " + keys);
}

void check_memory(const config::CampaignConfig& cfg) { check_memory(cfg, usable_memory_bytes()); }

}  // namespace sp::selfplay
