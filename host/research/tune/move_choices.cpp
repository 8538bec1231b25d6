#include "host/research/tune/move_choices.hpp"

#include <optional>

#include "core/errors.hpp"
#include "games/hosts.hpp"
#include "host/records/game_record_rules.hpp"
#include "host/records/stored_games.hpp"
#include "host/research/tune/dataset.hpp"

namespace sp::tune {
namespace {

template <class G>
void read_file(const std::string& path, LoadedChoices& out) {
  const io::CampaignReader reader = open_campaign(path);
  const io::FileMeta& meta = reader.meta();
  if (meta.game != G::kName)
    throw InputError(path + ": holds games of " + excerpt(meta.game) + ", not " + G::kName);
  selfplay::GameRecordRules<G> rules(meta, path);
  ChoiceFileSummary summary{path};
  std::vector<std::array<int32_t, 2>> candidates;
  std::vector<selfplay::ExportedGame> games;
  try {
    games = selfplay::read_exported_games(reader);
  } catch (const std::runtime_error& e) {
    throw InputError(path + ": cannot read the games (" + std::string(e.what()) + ")");
  }
  for (const selfplay::ExportedGame& e : games) {
    const std::optional<selfplay::StoredGame> stored = selfplay::stored_game_of(e);
    selfplay::Problems problems(1);
    if (stored) rules.replay(*stored, problems);
    auto plays = rules.take_plays(e.game.game_id);
    if (!stored || problems.count() > 0 || plays.moves.size() != e.plies.size()) {
      ++summary.unreplayed;
      continue;
    }
    ++summary.games;
    summary.plies += plays.moves.size();
    const uint64_t key = game_key(meta.seed, e.game.game_id);
    for (size_t k = 0; k < plays.moves.size(); ++k) {
      const int played = G::move_choice(plays.before[k], rules.rules(), plays.moves[k], candidates);
      if (played < 0) continue;
      out.choices.add(candidates, static_cast<uint32_t>(played), key);
      ++summary.choices;
    }
  }
  out.files.push_back(summary);
}

}  // namespace

bool has_move_choices(const std::string& game) {
  return with_game(game, []<class G>() { return MoveChoiceGame<G>; });
}

LoadedChoices load_move_choices(const std::vector<std::string>& files, const std::string& game) {
  return with_game(game, [&]<class G>() {
    if constexpr (MoveChoiceGame<G>) {
      LoadedChoices out;
      for (const std::string& path : files) read_file<G>(path, out);
      return out;
    } else {
      throw InputError(game + " has no move-score table whose choices could be fitted");
      return LoadedChoices{};
    }
  });
}

}  // namespace sp::tune
