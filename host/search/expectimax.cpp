#include "host/search/expectimax.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "games/common/philox.hpp"
#include "games/ewn/notation.hpp"

namespace sp::search {
namespace {

using ewn::Move;
using ewn::MoveList;
using ewn::State;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The table's entry size fixes how many entries tt_size_mb holds, and with that its collisions and
// the results of a search: it must not change.
static_assert(sizeof(TranspositionTable<Move, double>::Entry) == 24);

// Zobrist keys from a fixed seed, so keys (and with them table collisions) are the same in every
// run and build.
struct Zobrist {
  uint64_t cube[2][ewn::kCubes][ewn::kSquares];
  uint64_t side[2];
  uint64_t die[7];  // 0: not rolled (chance node)
};

const Zobrist& zobrist() {
  static const Zobrist z = [] {
    Zobrist t{};
    uint64_t x = 0x45574E2D7A6F6272ull;  // "EWN-zobr"
    const auto next = [&x] { return x = splitmix64(x); };
    for (auto& side : t.cube)
      for (auto& cube : side)
        for (uint64_t& k : cube) k = next();
    for (uint64_t& k : t.side) k = next();
    for (uint64_t& k : t.die) k = next();
    return t;
  }();
  return z;
}

// The smallest die of the class of s.die: rolls that allow the same moves are one position.
int canonical_die(const State& s, const ewn::Rules& rules) {
  State unrolled = s;
  unrolled.die = ewn::kNoDie;
  int rep[EwnGame::kChanceOutcomes], weight[EwnGame::kChanceOutcomes];
  const int n = EwnGame::chance_classes(unrolled, rules, rep, weight);
  for (int k = 0; k < n; ++k) {
    State t = unrolled;
    EwnGame::set_chance(t, rep[k]);
    if (EwnGame::same_class(s, t, rules)) return t.die;
  }
  return s.die;
}

}  // namespace

std::string to_string(const ExpectimaxStats& st) {
  char head[160];
  std::snprintf(head, sizeof head, "depth %d nodes %llu nps %.3gM value %.6g%s%s", st.depth,
                static_cast<unsigned long long>(st.nodes), st.nodes_per_second / 1e6, st.value,
                st.proven ? " (proven)" : "", st.stopped ? " (time)" : "");
  std::string out = head;
  out += " line";
  for (const std::string& p : st.line) out += " " + p;
  return out;
}

Expectimax::Expectimax(eval::Weights weights, const ewn::Rules& rules,
                       const ExpectimaxOptions& options)
    : weights_(std::move(weights)), rules_(rules), opt_(options) {
  if (weights_.w.size() != static_cast<size_t>(ewn::kNumFeatures))
    throw std::invalid_argument("expectimax: weights '" + weights_.name + "' have " +
                                std::to_string(weights_.w.size()) + " entries, expected " +
                                std::to_string(ewn::kNumFeatures));
  if (opt_.depth < 0 || opt_.depth > kMaxDepth)
    throw std::invalid_argument("expectimax: depth must be in [0, " + std::to_string(kMaxDepth) +
                                "], got " + std::to_string(opt_.depth));
  if (opt_.depth == 0 && opt_.time_ms == 0)
    throw std::invalid_argument("expectimax: set a depth, a time limit or both");
  if (opt_.use_tt && (opt_.tt_size_mb < 1 || opt_.tt_size_mb > 65536))
    throw std::invalid_argument("expectimax: tt_size_mb must be in [1, 65536], got " +
                                std::to_string(opt_.tt_size_mb));
  // A power of two: sums of +-W over die counts divide back to exactly +-W, so a proven result
  // is recognised exactly.
  const double bound = eval::evaluation_bound<EwnGame>(weights_);
  while (win_ <= bound) win_ *= 2;
  // Allocated with the engine, not at its first search, so that a table too large for memory
  // fails before a campaign creates its file.
  if (opt_.use_tt) table_.allocate(opt_.tt_size_mb);
}

void Expectimax::clear() { table_.clear(); }

uint64_t Expectimax::hash(const State& s) const {
  const Zobrist& z = zobrist();
  uint64_t h = z.side[s.side] ^ z.die[s.die];
  for (int side = 0; side < 2; ++side)
    for (int c = 0; c < ewn::kCubes; ++c) {
      const int sq = ewn::square_of(s, side, c);
      if (sq < ewn::kSquares) h ^= z.cube[side][c][sq];
    }
  return h;
}

// The table's move first, then by history score; ties keep generation order.
void Expectimax::order(MoveList& moves, Move tt_move, int side) const {
  int first = 0;
  if (!tt_move.is_pass()) {
    for (int i = 0; i < moves.size; ++i)
      if (moves.moves[i] == tt_move) {
        std::rotate(moves.moves, moves.moves + i, moves.moves + i + 1);
        first = 1;
        break;
      }
  }
  if (!opt_.use_history) return;
  const auto& h = history_[side];
  std::stable_sort(moves.moves + first, moves.moves + moves.size,
                   [&h](Move a, Move b) { return h[a.from][a.to] > h[b.from][b.to]; });
}

void Expectimax::tick() {
  ++nodes_;
  if (opt_.time_ms == 0 || iteration_ <= 1 || (nodes_ & 1023) != 0) return;
  if (deadline_.expired()) stop_ = true;
}

double Expectimax::decision(const State& s, int depth, double alpha, double beta, int ply) {
  assert(depth >= 1 && !ewn::is_over(s) && s.die != ewn::kNoDie);
  tick();
  pv_len_[ply] = 0;
  if (stop_) return 0;
  uint64_t key = 0;
  const TranspositionTable<Move, double>::Entry* hit = nullptr;
  Move tt_move{};  // copied: deeper stores may reuse the slot
  if (opt_.use_tt) {
    key = hash(s);
    hit = table_.probe(key);
    if (hit) tt_move = hit->move;
    // Never at the root: the root must name its move and line.
    if (hit && ply > 0 && hit->depth == depth &&
        bound_settles(hit->bound, hit->value, alpha, beta)) {
      ++tt_hits_;
      depth_limited_ = true;  // the stored subtree may have met the horizon
      return hit->value;
    }
  }
  MoveList moves;
  ewn::generate_moves(s, rules_, moves);
  order(moves, tt_move, s.side);

  const double alpha0 = alpha;
  double best = -kInf;
  Move best_move = moves.moves[0];
  for (int i = 0; i < moves.size; ++i) {
    const Move m = moves.moves[i];
    State child = s;
    ewn::apply(child, m);
    double v;
    if (ewn::is_over(child)) {
      v = child.winner == s.side ? win_ : -win_;
      pv_len_[ply + 1] = 0;
    } else {
      v = -chance(child, depth - 1, -beta, -alpha, ply + 1);
      if (stop_) return 0;
    }
    if (v <= best) continue;
    best = v;
    best_move = m;
    if (v > alpha) {
      alpha = v;
      pv_[ply][0] = PlyMove{s.die, m};
      std::copy(pv_[ply + 1], pv_[ply + 1] + pv_len_[ply + 1], pv_[ply] + 1);
      pv_len_[ply] = 1 + pv_len_[ply + 1];
    }
    if (v >= beta || v >= win_) break;  // a cutoff, or nothing can beat a sure win
  }
  if (opt_.use_history && best > alpha0)  // a cutoff or a new best line; not a fail low
    history_[s.side][best_move.from][best_move.to] += uint64_t(depth) * depth;
  if (opt_.use_tt) {
    // After a fail low every move is only bounded: keep the move the table had, if any.
    const Bound bound = best <= alpha0 ? Bound::kUpper
                        : best >= beta ? Bound::kLower
                                       : Bound::kExact;
    table_.store(key, depth, best, bound, bound == Bound::kUpper && hit ? tt_move : best_move);
  }
  return best;
}

double Expectimax::chance(const State& s, int depth, double alpha, double beta, int ply) {
  assert(!ewn::is_over(s) && s.die == ewn::kNoDie);
  tick();
  pv_len_[ply] = 0;
  if (stop_) return 0;
  if (depth == 0) {
    ++leaves_;
    depth_limited_ = true;
    return eval::evaluate<EwnGame>(weights_, s, rules_);
  }
  uint64_t key = 0;
  if (opt_.use_tt) {
    key = hash(s);
    const auto* hit = table_.probe(key);
    if (hit && hit->depth == depth && bound_settles(hit->bound, hit->value, alpha, beta)) {
      ++tt_hits_;
      depth_limited_ = true;
      return hit->value;
    }
  }
  int rep[EwnGame::kChanceOutcomes], weight[EwnGame::kChanceOutcomes];
  const int n = EwnGame::chance_classes(s, rules_, rep, weight);
  int principal = 0;  // the most likely class carries the line
  for (int k = 1; k < n; ++k)
    if (weight[k] > weight[principal]) principal = k;
  PlyMove line[kMaxDepth + 1];
  int line_len = 0;
  const auto keep_line = [&](int k) {
    if (k != principal) return;
    line_len = pv_len_[ply];
    std::copy(pv_[ply], pv_[ply] + line_len, line);
  };

  double value = 0;
  Bound bound = Bound::kExact;
  if (!opt_.use_star1) {
    double sum = 0;
    for (int k = 0; k < n; ++k) {
      State child = s;
      EwnGame::set_chance(child, rep[k]);
      const double v = decision(child, depth, -kInf, kInf, ply);
      if (stop_) return 0;
      keep_line(k);
      sum += weight[k] * v;
    }
    value = sum / EwnGame::kChanceOutcomes;
  } else {
    // Star1 with node values in [L, U] = [-W, W]. Sums are kept in die counts (sum = the counts
    // times the values of the classes done, rest = the die values after class k) so that exact
    // results are computed exactly as above. The chance value (sum + w v + rest') / 6 with rest'
    // in [L rest, U rest] is <= alpha once v <= a and >= beta once v >= b, so class k is
    // searched in (a, b) clipped to [L, U].
    const double lo = -win_, hi = win_;
    if (alpha >= hi) return hi;  // nothing here can exceed alpha: an upper bound
    if (beta <= lo) return lo;
    constexpr double kOutcomes = EwnGame::kChanceOutcomes;
    double sum = 0;
    int rest = EwnGame::kChanceOutcomes;
    bool cut = false;
    for (int k = 0; k < n && !cut; ++k) {
      const double w = weight[k];
      rest -= weight[k];
      const double a = (kOutcomes * alpha - sum - hi * rest) / w;
      const double b = (kOutcomes * beta - sum - lo * rest) / w;
      State child = s;
      EwnGame::set_chance(child, rep[k]);
      const double v = decision(child, depth, std::max(a, lo), std::min(b, hi), ply);
      if (stop_) return 0;
      keep_line(k);
      // A bound is clamped to the window edge so that the caller, comparing with its own
      // window, never takes it for an exact value when rounding lands it just inside.
      cut = true;
      if (v <= a)
        value = std::min((sum + w * v + hi * rest) / kOutcomes, alpha), bound = Bound::kUpper;
      else if (v >= b)
        value = std::max((sum + w * v + lo * rest) / kOutcomes, beta), bound = Bound::kLower;
      else
        cut = false;
      sum += w * v;
    }
    if (!cut) value = sum / kOutcomes;
  }
  if (opt_.use_tt) table_.store(key, depth, value, bound, Move{});
  std::copy(line, line + line_len, pv_[ply]);
  pv_len_[ply] = line_len;
  return value;
}

ExpectimaxStats Expectimax::search(const State& root_in) {
  assert(ewn::state_ok(root_in) && !ewn::is_over(root_in) && root_in.die != ewn::kNoDie);
  for (auto& side : history_)
    for (auto& from : side) std::fill(std::begin(from), std::end(from), 0);
  deadline_.start(opt_.time_ms);
  nodes_ = leaves_ = tt_hits_ = 0;
  stop_ = false;

  State root = root_in;
  root.die = static_cast<uint8_t>(canonical_die(root_in, rules_));
  ExpectimaxStats st;
  const int max_depth = opt_.depth > 0 ? opt_.depth : kMaxDepth;
  for (int d = 1; d <= max_depth; ++d) {
    iteration_ = d;
    depth_limited_ = false;
    const double v = decision(root, d, -kInf, kInf, 0);
    if (stop_) {
      st.stopped = true;
      break;
    }
    st.depth = d;
    st.value = v;
    st.proven = std::abs(v) >= win_;
    assert(pv_len_[0] >= 1);
    st.best = pv_[0][0].move;
    st.line.clear();
    for (int i = 0; i < pv_len_[0]; ++i)
      st.line.push_back(ewn::ply_to_string(i == 0 ? root_in.die : pv_[0][i].die, pv_[0][i].move));
    if (st.proven || !depth_limited_) break;  // deeper iterations cannot change anything
    if (deadline_.half_spent()) break;        // the next iteration could not finish
  }
  st.nodes = nodes_;
  st.leaves = leaves_;
  st.tt_hits = tt_hits_;
  st.seconds = deadline_.seconds();
  st.nodes_per_second = st.seconds > 0 ? static_cast<double>(st.nodes) / st.seconds : 0;
  return st;
}

ExpectimaxEngine::ExpectimaxEngine(eval::Weights weights, const ewn::Rules& rules,
                                   const ExpectimaxOptions& options)
    : rules_(rules), search_(std::move(weights), rules, options) {}

std::string ExpectimaxEngine::describe() const {
  const ExpectimaxOptions& o = search_.options();
  std::string out = "expectimax(" + search_.weights().name;
  if (o.depth > 0) out += ", depth " + std::to_string(o.depth);
  if (o.time_ms > 0) out += ", " + std::to_string(o.time_ms) + " ms";
  out += o.use_tt ? ", tt " + std::to_string(o.tt_size_mb) + " MiB" : ", no tt";
  if (o.use_star1) out += ", star1";
  if (o.use_history) out += ", history";
  return out + ")";
}

void ExpectimaxEngine::begin(const ewn::State& root, const SearchIds&) {
  ewn::MoveList moves;
  ewn::generate_moves(root, rules_, moves);
  if (moves.size == 1) {
    stats_ = ExpectimaxStats{};
    stats_.best = moves.moves[0];
    stats_.line = {ewn::ply_to_string(root.die, moves.moves[0])};
    return;
  }
  stats_ = search_.search(root);
}

ewn::Move ExpectimaxEngine::decision(MoveStats* stats) {
  if (stats) {
    *stats = MoveStats{};
    stats->value = static_cast<float>(0.5 + 0.5 * stats_.value / search_.win_score());
    stats->tree_nodes = static_cast<uint32_t>(std::min<uint64_t>(stats_.nodes, UINT32_MAX));
    stats->leaves = static_cast<uint32_t>(std::min<uint64_t>(stats_.leaves, UINT32_MAX));
  }
  return stats_.best;
}

}  // namespace sp::search
