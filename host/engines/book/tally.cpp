#include "host/engines/book/tally.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

namespace sp::book {

void BookTally::add(std::string_view position, int ply, std::string_view move, double points) {
  auto it = positions_.find(position);
  if (it == positions_.end()) {
    it = positions_.emplace(std::string(position), PositionTally{}).first;
    it->second.first_ply = ply;
  }
  it->second.first_ply = std::min(it->second.first_ply, ply);
  auto m = it->second.moves.find(move);
  if (m == it->second.moves.end())
    m = it->second.moves.emplace(std::string(move), MoveTally{}).first;
  ++m->second.games;
  m->second.points += points;
}

OpeningBook BookTally::book(const BookRule& rule) const {
  std::vector<std::pair<int, BookEntry>> chosen;
  for (const auto& [position, tally] : positions_) {
    if (tally.first_ply >= rule.plies) continue;
    std::vector<BookMove> moves;
    for (const auto& [move, t] : tally.moves)
      moves.push_back({move, t.games, t.points / static_cast<double>(t.games)});
    // The best first: the moves played min_games times or more by score, then games, then text;
    // then the others by the same order.
    const auto key = [&](const BookMove& m) {
      return std::make_tuple(m.games >= rule.min_games, m.score, m.games);
    };
    std::sort(moves.begin(), moves.end(), [&](const BookMove& a, const BookMove& b) {
      if (key(a) != key(b)) return key(a) > key(b);
      return a.move < b.move;
    });
    const BookMove& best = moves.front();
    if (best.games < rule.min_games || best.score < rule.min_score) continue;
    if (moves.size() > 1 && moves[1].games >= rule.min_games &&
        best.score - moves[1].score < rule.min_gap)
      continue;
    chosen.push_back({tally.first_ply, BookEntry{position, std::move(moves), 0}});
  }
  std::stable_sort(chosen.begin(), chosen.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  OpeningBook out;
  out.plies = rule.plies;
  for (auto& [ply, entry] : chosen) out.entries.push_back(std::move(entry));
  out.index();
  return out;
}

}  // namespace sp::book
