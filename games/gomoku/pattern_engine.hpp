// The pattern search (pattern_search.hpp) as a self-play engine: `type: alphabeta` with `search:
// pattern` in Gomoku configs. It decides inside begin() and asks for no rollouts; the table lives
// across a game's moves and is cleared by new_game().
//
// Time: with a budget (time_ms, or the manager's through set_time_limit) the search stops when it
// is spent (less a millisecond) (asked every few dozen nodes, threat searches included), starts no
// iteration once half of it is gone, and gives the root's VCT at most a quarter. The clock can be
// injected (set_clock) so that tests decide when time runs out; an interrupt flag
// (set_interrupt) ends the search as a spent budget does. Host only.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "core/engine.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/pattern_search.hpp"

namespace sp::gomoku {

struct PatternEngineOptions {
  PatternSearchOptions search;
  uint32_t time_ms = 0;  // per move; 0 = none (then search.depth is needed)
};

class PatternEngine final : public search::Engine<GomokuGame> {
 public:
  // weights: one per pattern feature, move_scores: the move-score table or empty (PatternSearch);
  // name: the evaluation's, for describe().
  PatternEngine(const std::vector<double>& weights, const PatternEngineOptions& options,
                std::string name, std::span<const double> move_scores = {})
      : search_(weights, options.search, move_scores),
        time_ms_(options.time_ms),
        configured_time_ms_(options.time_ms),
        name_(std::move(name)) {
    if (options.search.depth == 0 && options.time_ms == 0)
      throw std::invalid_argument("pattern search: set a depth, a time limit or both");
  }

  std::string describe() const override {
    const PatternSearchOptions& o = search_.options();
    std::string out = "alphabeta(pattern search, " + name_;
    if (o.depth > 0) out += ", depth " + std::to_string(o.depth);
    if (time_ms_ > 0) out += ", " + std::to_string(time_ms_) + " ms";
    out += ", tt " + std::to_string(o.tt_size_mb) + " MiB";
    out += ", vcf " + std::to_string(o.vcf_nodes) + " nodes, vct " +
           std::to_string(o.root_vct_nodes) + " nodes";
    if (o.forced_extension) out += ", forced extension";
    if (o.futility) out += ", futility";
    if (o.razoring) out += ", razoring";
    if (o.move_count_pruning) out += ", move-count pruning";
    if (o.time_management) out += ", time management";
    if (o.score_reductions) out += ", score reductions";
    if (o.opponent_vct) out += ", opponent VCT";
    return out + ")";
  }
  void new_game() override { search_.clear(); }
  void begin(const State& root, const search::SearchIds&) override {
    // A millisecond of margin (budgets over 10 ms): the search stops within a poll of its
    // deadline, some 0.2 ms late at worst as measured (experiments/gomoku-external, run_clock.sh).
    deadline_.start(time_ms_ > 10 ? time_ms_ - 1 : time_ms_);
    StopCheck stop, soft, threat;
    if (deadline_.polled()) {
      stop = StopCheck{
          [](void* self) { return static_cast<PatternEngine*>(self)->deadline_.expired(); }, this};
      soft = StopCheck{
          [](void* self) { return static_cast<PatternEngine*>(self)->deadline_.half_spent(); },
          this};
      threat = StopCheck{[](void* self) {
                           const auto* e = static_cast<PatternEngine*>(self);
                           // A quarter of the budget (none without one), or interrupted.
                           return e->deadline_.interrupted() ||
                                  (e->time_ms_ > 0 && e->deadline_.seconds() * 4000 >= e->time_ms_);
                         },
                         this};
    }
    result_ = search_.search(root, stop, soft, threat);
    seconds_ = deadline_.seconds();
  }
  void collect(std::vector<Leaf>&) override {}
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override { return true; }
  // stats: value 1 for a proven win, 0 for a proven loss, else 0.5 + 0.5 * value / kWin;
  // tree_nodes = nodes (saturated), leaves = evaluations.
  Move decision(search::MoveStats* stats) override {
    if (stats) {
      *stats = search::MoveStats{};
      const double v = result_.proven ? (result_.value > 0 ? 1.0 : -1.0)
                                      : static_cast<double>(result_.value) / PatternSearch::kWin;
      stats->value = static_cast<float>(0.5 + 0.5 * v);
      stats->tree_nodes = static_cast<uint32_t>(std::min<uint64_t>(result_.nodes, UINT32_MAX));
      stats->leaves = static_cast<uint32_t>(std::min<uint64_t>(result_.leaves, UINT32_MAX));
    }
    return result_.best;
  }
  // The last completed iteration's depth (0: a threat search decided), value (evaluation units),
  // nodes and principal variation.
  void report(search::SearchReport<Move>& out, uint32_t) const override {
    out.kind = search::SearchKind::kNative;
    out.depth = result_.depth;
    out.score = result_.value;
    out.nodes = result_.nodes;
    for (const Move& m : result_.line) out.pv.push_back({-1, m});
    if (out.pv.empty()) out.pv.push_back({-1, result_.best});
  }
  void observe(Move, const State&) override {}
  void set_time_limit(uint32_t ms) override { time_ms_ = ms ? ms : configured_time_ms_; }
  void set_interrupt(const std::atomic<bool>* flag) override { deadline_.set_interrupt(flag); }

  // The clock the budget reads (tests inject one; nullptr: steady_clock).
  void set_clock(search::Deadline::Now now) { deadline_.set_clock(std::move(now)); }
  const PatternSearch::Result& last_result() const { return result_; }
  double last_seconds() const { return seconds_; }

 private:
  PatternSearch search_;
  PatternSearch::Result result_;
  search::Deadline deadline_;
  uint32_t time_ms_, configured_time_ms_;
  double seconds_ = 0;
  std::string name_;
};

}  // namespace sp::gomoku
