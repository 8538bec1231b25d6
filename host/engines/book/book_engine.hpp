// An engine with an opening book (the `book` key): in a position of the book, within the plies it
// covers, it plays the book move at once (the /plies search kind `book`); everywhere else the
// engine it wraps searches as it would without the book.
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "core/engine.hpp"
#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "host/engines/book/opening_book.hpp"

namespace sp::book {

// Why `book` cannot be played under `rules` ("" when it can): another game or other rules, a
// position that does not parse or is over, a move that is not legal there. Names the book's file
// and line.
template <HostGame G>
std::string check_book(const OpeningBook& book, const typename G::Rules& rules) {
  const std::string name = book.source.empty() ? std::string("the book") : book.source;
  if (book.game != G::kName)
    return name + " is a book of " + excerpt(book.game) + ", not of " + G::kName;
  const std::string want = GameHost<G>::describe_rules(rules);
  if (book.rules != want)
    return name + " was built from games under the rules \"" + excerpt(book.rules) +
           "\", and this engine plays \"" + want + "\"";
  for (const BookEntry& e : book.entries) {
    const std::string at = name + ":" + std::to_string(e.line) + ": ";
    typename G::State s;
    try {
      s = GameHost<G>::parse_position(e.position);
    } catch (const InputError& error) {
      return at + "position " + excerpt(e.position) + " does not parse: " + error.what();
    }
    if (G::is_over(s)) return at + "position " + excerpt(e.position) + " is over";
    for (size_t r = 0; r < e.moves.size(); ++r) try {
        (void)GameHost<G>::parse_move(s, rules, e.moves[r].move);
      } catch (const InputError& error) {
        return name + ":" + std::to_string(e.line + r) + ": move " + excerpt(e.moves[r].move) +
               " of position " + excerpt(e.position) + ": " + error.what();
      }
  }
  return "";
}

template <HostGame G>
class BookEngine final : public search::Engine<G> {
 public:
  using typename search::Engine<G>::State;
  using typename search::Engine<G>::Move;
  using typename search::Engine<G>::Leaf;

  // `book` passed check_book under `rules`.
  BookEngine(std::shared_ptr<const OpeningBook> book, std::unique_ptr<search::Engine<G>> inner,
             const typename G::Rules& rules)
      : book_(std::move(book)), inner_(std::move(inner)), rules_(rules) {}

  std::string describe() const override {
    return inner_->describe() + " with book (" + std::to_string(book_->entries.size()) +
           " positions, " + std::to_string(book_->plies) + " plies)";
  }
  void new_game() override { inner_->new_game(); }
  void game_started(const State& start) override { inner_->game_started(start); }
  void begin(const State& root, const search::SearchIds& ids) override {
    entry_ = ids.ply < static_cast<uint32_t>(book_->plies)
                 ? book_->find(GameHost<G>::position_text(root))
                 : nullptr;
    if (entry_) {
      root_ = root;
      return;
    }
    inner_->begin(root, ids);
  }
  void collect(std::vector<Leaf>& out) override {
    if (!entry_) inner_->collect(out);
  }
  void absorb(std::span<const rollout::LeafStats> stats) override {
    if (!entry_) inner_->absorb(stats);
  }
  bool decided() const override { return entry_ || inner_->decided(); }
  Move decision(search::MoveStats* stats) override {
    if (!entry_) return inner_->decision(stats);
    const BookMove& m = entry_->moves.front();
    if (stats) {
      *stats = search::MoveStats{};
      stats->visits =
          static_cast<uint32_t>(std::min<uint64_t>(m.games, std::numeric_limits<uint32_t>::max()));
      stats->value = static_cast<float>(m.score);
    }
    return GameHost<G>::parse_move(root_, rules_, m.move);
  }
  // The book's moves of the position as candidates (visits: their games), the book move as the
  // variation.
  void report(search::SearchReport<Move>& out, uint32_t candidates) const override {
    if (!entry_) return inner_->report(out, candidates);
    out.kind = search::SearchKind::kBook;
    const size_t k = std::min<size_t>(candidates, entry_->moves.size());
    for (size_t i = 0; i < k; ++i) {
      const BookMove& m = entry_->moves[i];
      out.candidates.push_back(
          {GameHost<G>::parse_move(root_, rules_, m.move),
           static_cast<uint32_t>(std::min<uint64_t>(m.games, std::numeric_limits<uint32_t>::max())),
           m.score});
    }
    out.pv.push_back({-1, GameHost<G>::parse_move(root_, rules_, entry_->moves.front().move)});
  }
  void observe(Move move, const State& next_root) override { inner_->observe(move, next_root); }
  void set_time_limit(uint32_t ms) override { inner_->set_time_limit(ms); }
  void set_interrupt(const std::atomic<bool>* flag) override { inner_->set_interrupt(flag); }
  std::optional<search::ExternalWait> waiting() const override {
    return entry_ ? std::nullopt : inner_->waiting();
  }
  std::optional<search::Forfeit> forfeit() const override {
    return entry_ ? std::nullopt : inner_->forfeit();
  }
  void end_game() override { inner_->end_game(); }

 private:
  std::shared_ptr<const OpeningBook> book_;
  std::unique_ptr<search::Engine<G>> inner_;
  typename G::Rules rules_;
  const BookEntry* entry_ = nullptr;  // the root's, while a book move is being played
  State root_{};
};

}  // namespace sp::book
