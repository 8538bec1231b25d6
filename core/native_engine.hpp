// A game's own search as an engine: `type: alphabeta` with `search: pattern` in a config of a game
// whose GameHost has the hooks (Gomoku's pattern search):
//   native_engine(spec, rules)   a std::unique_ptr<search::Engine<G>> (core/engine.hpp) built from
//                                the spec
//   check_native_engine(spec)    why a config cannot have it ("" when it can), asked when the
//                                config is read, so that the error names the config's key
// The spec holds the engine keys of the config as host/ reads them
// (host/play/config/campaign_config.hpp native_engine_spec), so that a game's folder needs nothing
// of host/'s config types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sp::search {

struct NativeEngineSpec {
  uint32_t depth = 0;         // plies; 0 = as deep as time_ms allows
  uint32_t time_ms = 0;       // per move; 0 = none
  uint32_t tt_size_mb = 4;    // transposition table, MiB
  uint32_t threat_nodes = 0;  // threat search nodes per horizon position
  // Search features a config turns on (keys of the same names; the search says which it has).
  bool forced_extension = false, time_management = false;
  bool futility = false, razoring = false, move_count_pruning = false, score_reductions = false;
  bool opponent_vct = false;
  bool has_weights = false;         // the config names a weights file
  std::vector<double> weights;      // its weights, one per feature of the game's feature_names()
  std::vector<double> move_scores;  // its move-score table (the game's), empty for none
  std::string weights_path;         // the file, for messages
  std::string evaluation_name;      // its `name:`
};

}  // namespace sp::search
