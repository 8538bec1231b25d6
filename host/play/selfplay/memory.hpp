// What the engines of a campaign or match will hold in memory, estimated from the config before
// anything is allocated, and the check against the machine's memory that `selfplay run`, `match`
// and `config --check` make. Every concurrent game has its own two engines: an MCTS tree grows to
// engines.playerN.node_budget_mb MiB, an expectimax or alpha-beta transposition table takes
// tt_size_mb MiB. The rollout backend's batch buffers join them (add_backend_memory): host memory
// for every backend, and GPU memory, checked against the device, for cuda.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/engines/rollout/backend_memory.hpp"
#include "host/play/config/campaign_config.hpp"

namespace sp::selfplay {

struct MemoryEstimate {
  uint64_t bytes = 0;          // all engines of all concurrent games together
  uint64_t games_at_once = 0;  // min(campaign.concurrency, games)
  // Per engine that keeps a tree or a table: "engines.player1.tt_size_mb 4 MiB x 64 games at
  // once = 256.0 MiB".
  std::vector<std::string> parts;
  std::vector<std::string> keys;  // the keys that set the estimate, for the hint
  std::string summary() const;    // "about 256.0 MiB (engines.player0...; ...)"
  // The backend's GPU memory (0: it allocates none) and how it is made up.
  uint64_t device_bytes = 0;
  std::string device_part;
};

// The engines' memory for cfg (overrides such as --games already applied). Search trees, tables
// and nothing else: buffers and queues are small beside them.
MemoryEstimate estimate_memory(const config::CampaignConfig& cfg);

// Throws sp::InputError naming the keys and the numbers when the estimate exceeds
// machine_bytes (usable_memory_bytes() by default); does nothing when machine_bytes is 0
// (unknown). Call before creating any file or allocating any engine.
void check_memory(const config::CampaignConfig& cfg, uint64_t machine_bytes);
void check_memory(const config::CampaignConfig& cfg);

// Adds the batch buffers of the backend cfg names (b, from rollout::backend_memory for the game):
// its host bytes to bytes and parts, its device bytes to device_bytes.
void add_backend_memory(MemoryEstimate& m, const config::CampaignConfig& cfg,
                        const rollout::BackendMemory& b);

// check_memory for an estimate m of cfg (with its backend), and its GPU memory against
// device_free_bytes (0: unknown or no device; not checked). Throws sp::InputError naming the keys
// and the numbers.
void check_memory(const config::CampaignConfig& cfg, const MemoryEstimate& m,
                  uint64_t machine_bytes, uint64_t device_free_bytes);

}  // namespace sp::selfplay
