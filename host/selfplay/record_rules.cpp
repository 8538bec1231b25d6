#include "host/selfplay/record_rules.hpp"

#include "games/common/errors.hpp"

namespace sp::selfplay {

std::string game_where(const Indexed<io::GameRow>& game) {
  return "game " + std::to_string(game.row.game_id) + " (/games row " + std::to_string(game.index) +
         ")";
}

std::string row_where(uint64_t game_id, uint64_t ply, const char* dataset, uint64_t row) {
  return "game " + std::to_string(game_id) + ", ply " + std::to_string(ply) + " (" + dataset +
         " row " + std::to_string(row) + ")";
}

std::unique_ptr<RecordRules> make_record_rules(const io::FileMeta& meta, const std::string& path) {
  // One entry per game whose records this build can replay.
  if (meta.game == "ewn") return make_ewn_record_rules(meta, path);
  throw InputError(path + ": game '" + meta.game + "' has no replay in this build (known: ewn)");
}

}  // namespace sp::selfplay
