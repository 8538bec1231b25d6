// The Gomocup session's parts that are not templates (pbrain.hpp): each move's time budget from
// the manager's clock, and the engine config under INFO max_memory.
#include "host/protocols/pbrain.hpp"

#include <algorithm>

namespace sp::selfplay {

uint32_t move_budget_ms(const PbrainClock& clock) {
  int64_t limit = -1;
  if (clock.timeout_turn >= 0) limit = clock.timeout_turn;
  if (clock.time_left >= 0 && clock.timeout_match != 0) {
    const int64_t share = clock.time_left / kPbrainMovesToGo;
    limit = limit < 0 ? share : std::min(limit, share);
  }
  if (limit < 0) return 0;
  // A margin for what the search does not count: reading the command, making the engine, the
  // answer, the manager's own overhead.
  const int64_t margin = std::min(limit / 2, 30 + limit / 10);
  return static_cast<uint32_t>(std::clamp<int64_t>(limit - margin, 1, 3'600'000));
}

config::EngineConfig memory_capped_engine(config::EngineConfig engine, uint64_t max_memory_bytes,
                                          std::string* note) {
  if (note) note->clear();
  if (max_memory_bytes == 0) return engine;
  const uint64_t cap_mb = std::max<uint64_t>(1, max_memory_bytes / 2 / (1024 * 1024));
  const auto cap = [&](uint32_t* mb, const char* what) {
    if (*mb <= cap_mb) return;
    if (note)
      *note = std::string(what) + " capped from " + std::to_string(*mb) + " to " +
              std::to_string(cap_mb) + " MiB";
    *mb = static_cast<uint32_t>(cap_mb);
  };
  switch (engine.type) {
    case config::EngineType::kMcts:
      cap(&engine.node_budget, "MCTS tree");
      break;
    case config::EngineType::kAlphaBeta:
    case config::EngineType::kExpectimax:
      cap(&engine.tt_size_mb, "transposition table");
      break;
    case config::EngineType::kFlat:
    case config::EngineType::kRandom:
    case config::EngineType::kPbrain:  // refused by the protocol sessions
    case config::EngineType::kExternal:
      break;
  }
  return engine;
}

}  // namespace sp::selfplay
