#include "host/records/record_rules.hpp"

#include "core/errors.hpp"
#include "games/hosts.hpp"
#include "host/records/game_record_rules.hpp"

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
  if (!is_game(meta.game))
    throw InputError(path + ": game '" + meta.game +
                     "' has no replay in this build (known: " + game_names_text() + ")");
  return with_game(meta.game, [&]<class G>() { return make_game_record_rules<G>(meta, path); });
}

}  // namespace sp::selfplay
