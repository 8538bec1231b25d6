#include "host/play/selfplay/memory.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "host/base/system/system.hpp"
#include "host/engines/search/mcts.hpp"

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

namespace {

// "a, b or c" of the keys.
std::string key_list(const std::vector<std::string>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i)
    out += (i == 0 ? "" : i + 1 == keys.size() ? " or " : ", ") + keys[i];
  return out;
}

// The keys that size a backend's batches (host/play/selfplay/campaign.cpp, backend_options).
const std::vector<std::string> kBatchKeys = {
    "campaign.concurrency", "engines.playerN.leaves_per_round", "backend.batch_rollouts"};

}  // namespace

void add_backend_memory(MemoryEstimate& m, const config::CampaignConfig& cfg,
                        const rollout::BackendMemory& b) {
  const std::string name = "backend " + cfg.backend.name;
  if (b.host > 0) {
    m.parts.push_back(name + " batch buffers " + format_bytes(b.host) +
                      (b.on_device ? " (pinned)" : ""));
    m.bytes = plus(m.bytes, b.host);
  }
  if (b.on_device) {
    m.device_bytes = b.device;
    m.device_part =
        name + ": " + std::to_string(rollout::kBackendSlots) +
        " slots of batch buffers (leaves, rollout offsets, statistics) = " + format_bytes(b.device);
  }
}

void check_memory(const config::CampaignConfig& cfg, const MemoryEstimate& m,
                  uint64_t machine_bytes, uint64_t device_free_bytes) {
  if (machine_bytes != 0 && m.bytes > machine_bytes) {
    throw InputError(cfg.source_path + ": the engines would need " + m.summary() +
                     ", more than the " + format_bytes(machine_bytes) +
                     " of memory of this machine; lower " + key_list(m.keys));
  }
  if (device_free_bytes != 0 && m.device_bytes > device_free_bytes)
    throw InputError(cfg.source_path + ": the GPU would need " + format_bytes(m.device_bytes) +
                     " (" + m.device_part + "), more than the " + format_bytes(device_free_bytes) +
                     " free on CUDA device " + std::to_string(cfg.backend.device) + "; lower " +
                     key_list(kBatchKeys));
}

void check_memory(const config::CampaignConfig& cfg, uint64_t machine_bytes) {
  check_memory(cfg, estimate_memory(cfg), machine_bytes, 0);
}

void check_memory(const config::CampaignConfig& cfg) { check_memory(cfg, usable_memory_bytes()); }

}  // namespace sp::selfplay
