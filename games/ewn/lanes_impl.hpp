// The lane-parallel EWN playout, written once over an Ops vocabulary (ops_avx2.hpp,
// ops_avx512.hpp) and instantiated by one translation unit per ISA. It follows
// playout_detail::step of games/ewn/playout.hpp ply by ply, in a layout that suits 32-bit lanes:
//   - each side's six cube squares packed in one word (field f = bits 5f..5f+4, 31 once captured),
//     so a cube's square is a variable shift and its field position 5f stands for the cube;
//   - the movable cubes found from the alive fields directly (the next lower and higher alive
//     cube of the roll), with no table, because a gather per ply would cost more than the ply;
//   - the side to move per lane (all ones for player 1), so lanes of different leaves and parity
//     play side by side.
// Lanes are refilled only at block boundaries (every four plies, one Philox block per lane): a
// rollout starts on its stream's first block like the scalar playout, at the price of a finished
// lane idling for at most three plies.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/simd/philox_lanes.hpp"
#include "games/ewn/lanes.hpp"
#include "games/ewn/playout.hpp"

namespace sp::ewn::lanes {
// Internal linkage throughout: each ISA's translation unit keeps its own copy, so the linker can
// never pick an AVX-512 body of an inline function for the AVX2 path.
namespace {

// Bit 0 of each of the six 5-bit fields of a side's square word.
inline constexpr uint32_t kLow = 0x02108421u;
inline constexpr uint32_t kLow15 = kLow * 15u;
inline constexpr uint32_t kHigh = kLow << 4;
inline constexpr uint32_t kAllGone = kLow * ewn::kGone;
static_assert(kAllGone == (1u << 30) - 1);

template <class Ops>
struct Lanes {
  static constexpr int L = Ops::kLanes;
  alignas(64) uint32_t sq[2][L];  // packed squares of player 0's and player 1's cubes
  alignas(64) uint32_t occ[2][L];
  alignas(64) uint32_t side[L];  // 0, or all ones for player 1
  alignas(64) uint32_t die[L];   // the root's die for the first ply, else 0
  alignas(64) uint32_t winner[L];
  alignas(64) uint32_t plies[L];
  alignas(64) uint32_t draw[L];  // the Philox counter: (draw, rollout, leaf, ply) under (k0, k1)
  alignas(64) uint32_t rollout[L];
  alignas(64) uint32_t leaf[L];
  alignas(64) uint32_t ply[L];
  alignas(64) uint32_t k0[L];
  alignas(64) uint32_t k1[L];
  alignas(64) uint32_t heavy[L];  // all ones where the lane plays the weighted policy
  alignas(64) uint32_t goal_weight[L];
  alignas(64) uint32_t capture_weight[L];
  uint32_t task[L];
};

// A mask of the squares of one forward step from the single square of b, for the side of each lane
// (ewn::forward_steps); minus the mover's own cubes when captures of one's own cubes are off.
template <class Ops, bool kCaptureOwn>
SP_FORCEINLINE typename Ops::V targets(typename Ops::V b, typename Ops::M player1,
                                       typename Ops::V own) {
  using V = typename Ops::V;
  const V board = Ops::set1(ewn::kBoard);
  const V right = Ops::and_(Ops::slli(b, 1), Ops::set1(~ewn::kFileA & ewn::kBoard));
  const V down = Ops::and_(Ops::slli(b, 5), board);
  const V down_right = Ops::and_(Ops::slli(right, 5), board);
  const V left = Ops::andnot(Ops::set1(ewn::kFileE), Ops::srli(b, 1));
  const V toward0 = Ops::or_(Ops::or_(left, Ops::srli(b, 5)), Ops::srli(left, 5));
  V t = Ops::sel(player1, toward0, Ops::or_(Ops::or_(right, down), down_right));
  if constexpr (!kCaptureOwn) t = Ops::andnot(own, t);
  return t;
}

// Bit 4 of each field of w that equals zero (exact: no borrow crosses fields).
template <class Ops>
SP_FORCEINLINE typename Ops::V zero_fields(typename Ops::V w) {
  const auto low15 = Ops::set1(kLow15);
  return Ops::andnot(Ops::or_(Ops::add(Ops::and_(w, low15), low15), w), Ops::set1(kHigh));
}

// Lanes' state in registers for one block of four plies.
template <class Ops>
struct Regs {
  using V = typename Ops::V;
  V sq0, sq1, occ0, occ1, side, die, winner, plies;
  V heavy, goal_weight, capture_weight;  // the lanes' policies
};

// Steps from sq to the mover's goal corner (ewn::distance_to_goal), player 1 where p1.
template <class Ops>
SP_FORCEINLINE typename Ops::V distance_to_goal(typename Ops::V sq, typename Ops::M p1) {
  using V = typename Ops::V;
  const V row = Ops::srli(Ops::add(Ops::add(Ops::slli(sq, 3), Ops::slli(sq, 2)), sq), 6);  // sq / 5
  const V col = Ops::sub(sq, Ops::add(Ops::slli(row, 2), row));
  return Ops::sel(p1, Ops::max(row, col), Ops::sub(Ops::set1(ewn::kSize - 1), Ops::min(row, col)));
}

// One ply of every lane in `act`, with the lane's random word; returns the lanes that won.
template <class Ops, bool kCaptureOwn, bool kNearest, bool kHeavy>
SP_FORCEINLINE typename Ops::M step(Regs<Ops>& r, typename Ops::M act, typename Ops::V word) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  const V zero = Ops::zero(), one = Ops::set1(1);

  // split_die: the die from the high word of word * 6, the move from the low word.
  const V six = Ops::set1(6);
  const V rest = Ops::add(Ops::slli(word, 2), Ops::slli(word, 1));
  const V rolled = Ops::mulhi(word, six);  // die - 1
  const V c = Ops::sel(Ops::eq(r.die, zero), rolled, Ops::sub(r.die, one));
  const V pc = Ops::add(Ops::slli(c, 2), c);  // field position of the rolled cube

  const M p1m = Ops::mask(r.side);
  const V own_sq = Ops::sel(p1m, r.sq1, r.sq0), opp_sq = Ops::sel(p1m, r.sq0, r.sq1);
  const V own_occ = Ops::sel(p1m, r.occ1, r.occ0), opp_occ = Ops::sel(p1m, r.occ0, r.occ1);

  // Movable cubes (ewn::movable_cubes_reference): the rolled cube if alive, else the next lower
  // and the next higher alive cube (only the nearer under kNearest, both on a tie).
  const V alive = Ops::srli(
      Ops::andnot(zero_fields<Ops>(Ops::xor_(own_sq, Ops::set1(kAllGone))), Ops::set1(kHigh)),
      4);  // bit 5f per alive cube f
  const V rolled_bit = Ops::sllv(one, pc);
  const M has_rolled = Ops::nz(Ops::and_(alive, rolled_bit));
  const V below = Ops::and_(alive, Ops::sub(rolled_bit, one));
  const V above = Ops::andnot(Ops::sub(Ops::add(rolled_bit, rolled_bit), one), alive);
  M has_low = Ops::nz(below), has_high = Ops::nz(above);
  const V p_low = Ops::log2(below);
  const V p_high = Ops::log2(Ops::and_(above, Ops::sub(zero, above)));
  if constexpr (kNearest) {
    const M both = Ops::mand(has_low, has_high);
    const V d_low = Ops::sub(pc, p_low), d_high = Ops::sub(p_high, pc);
    const M low_nearer = Ops::mand(both, Ops::gt(d_high, d_low));
    const M high_nearer = Ops::mand(both, Ops::gt(d_low, d_high));
    has_high = Ops::mandnot(low_nearer, has_high);
    has_low = Ops::mandnot(high_nearer, has_low);
  }
  // p1: the lower movable cube (c1 = lsb), p2: the higher (c2 = msb), equal with one mover.
  const V p1 = Ops::sel(has_rolled, pc, Ops::sel(has_low, p_low, p_high));
  const V p2 = Ops::sel(has_rolled, pc, Ops::sel(has_high, p_high, p_low));
  const V sq_mask = Ops::set1(31);
  const V from1 = Ops::and_(Ops::srlv(own_sq, p1), sq_mask);
  const V from2 = Ops::and_(Ops::srlv(own_sq, p2), sq_mask);
  const V t1 = targets<Ops, kCaptureOwn>(Ops::sllv(one, from1), p1m, own_occ);
  const V t2 = Ops::sel(Ops::eq(p1, p2), zero,
                        targets<Ops, kCaptureOwn>(Ops::sllv(one, from2), p1m, own_occ));

  // The (at most three) targets of each cube as single bits, lowest first, and their numbers.
  const V a0 = Ops::and_(t1, Ops::sub(zero, t1));
  const V ra = Ops::and_(t1, Ops::sub(t1, one));
  const V a1 = Ops::and_(ra, Ops::sub(zero, ra));
  const V a2 = Ops::and_(ra, Ops::sub(ra, one));
  const V b0 = Ops::and_(t2, Ops::sub(zero, t2));
  const V rb = Ops::and_(t2, Ops::sub(t2, one));
  const V b1 = Ops::and_(rb, Ops::sub(zero, rb));
  const V b2 = Ops::and_(rb, Ops::sub(rb, one));
  V n1 = zero, n = zero;
  n1 = Ops::add_where(Ops::nz(a0), n1, one);
  n1 = Ops::add_where(Ops::nz(a1), n1, one);
  n1 = Ops::add_where(Ops::nz(a2), n1, one);
  n = Ops::add_where(Ops::nz(b0), n1, one);
  n = Ops::add_where(Ops::nz(b1), n, one);
  n = Ops::add_where(Ops::nz(b2), n, one);
  const M moves = Ops::mand(act, Ops::nz(n));  // the others pass (or are idle)

  // The uniform pick: move k of the canonical order (cube c1's targets, then c2's).
  const V k = Ops::mulhi(rest, n);
  M second = Ops::mnot(Ops::gt(n1, k));
  V idx = Ops::sel(second, Ops::sub(k, n1), k);
  const V goal = Ops::andnot(r.side, Ops::set1(ewn::kSquares - 1));
  if constexpr (kHeavy) {
    // The weighted pick (playout_detail::step, kHeavy) over the six candidate moves a0..b2: the
    // first winning move, else move h with r < w_0 + ... + w_h for r drawn below the total.
    const V cand[6] = {a0, a1, a2, b0, b1, b2};
    const V from_dist[2] = {distance_to_goal<Ops>(from1, p1m), distance_to_goal<Ops>(from2, p1m)};
    V total = zero, cum[6];
    M win[6];
    for (int i = 0; i < 6; ++i) {
      const V to_i = Ops::log2(cand[i]);
      const M present = Ops::nz(cand[i]);
      V w = Ops::sel(Ops::gt(from_dist[i / 3], distance_to_goal<Ops>(to_i, p1m)), r.goal_weight,
                     Ops::set1(ewn::kWeightOne));
      w = Ops::sel(Ops::nz(Ops::and_(opp_occ, cand[i])),
                   Ops::srli(Ops::mullo(w, r.capture_weight), 8), w);
      total = Ops::add(total, Ops::sel(present, w, zero));
      cum[i] = total;
      win[i] = Ops::mand(present, Ops::mor(Ops::eq(to_i, goal), Ops::eq(opp_occ, cand[i])));
    }
    const V pick_r = Ops::mulhi(rest, total);
    // Nothing picked (all weights zero): the first move, as the scalar walk's default.
    V h = Ops::sel(Ops::gt(n1, zero), zero, Ops::set1(3));
    for (int i = 5; i >= 0; --i) h = Ops::sel(Ops::gt(cum[i], pick_r), Ops::set1(i), h);
    for (int i = 5; i >= 0; --i) h = Ops::sel(win[i], Ops::set1(i), h);
    const M heavy = Ops::mask(r.heavy);
    const M h_second = Ops::gt(h, Ops::set1(2));
    second = Ops::mor(Ops::mand(heavy, h_second), Ops::mandnot(heavy, second));
    idx = Ops::sel(heavy, Ops::sel(h_second, Ops::sub(h, Ops::set1(3)), h), idx);
  }
  const V x0 = Ops::sel(second, b0, a0), x1 = Ops::sel(second, b1, a1),
          x2 = Ops::sel(second, b2, a2);
  const V to_bit = Ops::sel(Ops::eq(idx, zero), x0, Ops::sel(Ops::eq(idx, one), x1, x2));
  const V p = Ops::sel(second, p2, p1);
  const V from_bit = Ops::sllv(one, Ops::sel(second, from2, from1));
  const V to = Ops::log2(to_bit);

  // ewn::move_cube: whatever stands on `to` (either side's cube) is captured, then the cube moves.
  const V to_all = Ops::mullo(to, Ops::set1(kLow));
  const V own_hit = zero_fields<Ops>(Ops::xor_(own_sq, to_all));
  const V opp_hit = zero_fields<Ops>(Ops::xor_(opp_sq, to_all));
  // A hit flag at bit 5f+4 becomes the field's five bits: (flag << 1) - (flag >> 4).
  V new_own = Ops::or_(own_sq, Ops::sub(Ops::slli(own_hit, 1), Ops::srli(own_hit, 4)));
  const V new_opp = Ops::or_(opp_sq, Ops::sub(Ops::slli(opp_hit, 1), Ops::srli(opp_hit, 4)));
  new_own = Ops::or_(Ops::andnot(Ops::sllv(sq_mask, p), new_own), Ops::sllv(to, p));
  const V new_own_occ = Ops::or_(Ops::andnot(Ops::or_(to_bit, from_bit), own_occ), to_bit);
  const V new_opp_occ = Ops::andnot(to_bit, opp_occ);
  // The mover wins on its goal corner or by taking the last enemy cube.
  const M won = Ops::mand(moves, Ops::mor(Ops::eq(to, goal), Ops::eq(new_opp_occ, zero)));

  r.sq0 = Ops::sel(moves, Ops::sel(p1m, new_opp, new_own), r.sq0);
  r.sq1 = Ops::sel(moves, Ops::sel(p1m, new_own, new_opp), r.sq1);
  r.occ0 = Ops::sel(moves, Ops::sel(p1m, new_opp_occ, new_own_occ), r.occ0);
  r.occ1 = Ops::sel(moves, Ops::sel(p1m, new_own_occ, new_opp_occ), r.occ1);
  r.winner = Ops::sel(won, Ops::and_(r.side, one), r.winner);
  r.plies = Ops::add_where(act, r.plies, one);
  r.side = Ops::xor_where(act, r.side, Ops::set1(~0u));
  r.die = Ops::sel(act, zero, r.die);
  return won;
}

template <class Ops, bool kCaptureOwn, bool kNearest>
void run_lanes(const Task* tasks, size_t n, Counts* counts) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  constexpr int L = Ops::kLanes;
  Lanes<Ops> s{};  // idle lanes compute on zeros, never on indeterminate values
  rollout::LaneFeed<EwnGame> feed(tasks, n, counts);

  auto start = [&](int l) {
    const Task& tk = feed.task();
    s.task[l] = feed.task_index();
    s.sq[0][l] = static_cast<uint32_t>(tk.root.squares & kAllGone);
    s.sq[1][l] = static_cast<uint32_t>(tk.root.squares >> 30);
    s.occ[0][l] = tk.root.occ[0];
    s.occ[1][l] = tk.root.occ[1];
    s.side[l] = tk.root.side ? ~0u : 0u;
    s.die[l] = tk.root.die;
    s.winner[l] = ewn::kNoWinner;
    s.plies[l] = 0;
    s.draw[l] = 0;
    s.leaf[l] = tk.leaf;
    s.ply[l] = tk.ply;
    s.k0[l] = tk.key.k0;
    s.k1[l] = tk.key.k1;
    s.heavy[l] = tk.policy.kind == ewn::PolicyKind::kHeavy ? ~0u : 0u;
    s.goal_weight[l] = tk.policy.goal_weight;
    s.capture_weight[l] = tk.policy.capture_weight;
    s.rollout[l] = feed.take();
  };

  unsigned busy = 0;
  for (int l = 0; l < L && !feed.empty(); ++l) start(l), busy |= 1u << l;
  while (busy) {
    const V k0 = Ops::load(s.k0), k1 = Ops::load(s.k1);
    const V draw = Ops::load(s.draw);
    const rollout::simd::PhiloxLanes<Ops> block = rollout::simd::philox_lanes<Ops>(
        {{draw, Ops::load(s.rollout), Ops::load(s.leaf), Ops::load(s.ply)}}, k0, k1);
    Ops::store(s.draw, Ops::add(draw, Ops::set1(1)));

    Regs<Ops> r{Ops::load(s.sq[0]),       Ops::load(s.sq[1]),         Ops::load(s.occ[0]),
                Ops::load(s.occ[1]),      Ops::load(s.side),          Ops::load(s.die),
                Ops::load(s.winner),      Ops::load(s.plies),         Ops::load(s.heavy),
                Ops::load(s.goal_weight), Ops::load(s.capture_weight)};
    M act = Ops::from_bits(busy);
    // The weighted pick costs about as much again: only blocks with a weighted lane pay for it.
    if (Ops::bits(Ops::mand(act, Ops::mask(r.heavy)))) {
      for (int w = 0; w < 4; ++w)
        act = Ops::mandnot(step<Ops, kCaptureOwn, kNearest, true>(r, act, block.v[w]), act);
    } else {
      for (int w = 0; w < 4; ++w)
        act = Ops::mandnot(step<Ops, kCaptureOwn, kNearest, false>(r, act, block.v[w]), act);
    }
    Ops::store(s.sq[0], r.sq0);
    Ops::store(s.sq[1], r.sq1);
    Ops::store(s.occ[0], r.occ0);
    Ops::store(s.occ[1], r.occ1);
    Ops::store(s.side, r.side);
    Ops::store(s.die, r.die);
    Ops::store(s.winner, r.winner);
    Ops::store(s.plies, r.plies);

    // A lane is done when its game is won or it reached the ply cap (a multiple of four, so
    // always at a block boundary), as in playout_detail::run.
    const M done = Ops::mor(Ops::mnot(act), Ops::gt(r.plies, Ops::set1(ewn::kMaxPlayoutPlies - 1)));
    unsigned finished = Ops::bits(done) & busy;
    feed.retire(finished, busy, s.task, s.winner, s.plies, start);
  }
}

template <class Ops>
void run_with(const Task* tasks, size_t n, const ewn::Rules& rules, Counts* counts) {
  const bool nearest = rules.substitution == ewn::Substitution::kNearest;
  if (rules.capture_own) {
    if (nearest)
      run_lanes<Ops, true, true>(tasks, n, counts);
    else
      run_lanes<Ops, true, false>(tasks, n, counts);
  } else {
    if (nearest)
      run_lanes<Ops, false, true>(tasks, n, counts);
    else
      run_lanes<Ops, false, false>(tasks, n, counts);
  }
}

}  // namespace
}  // namespace sp::ewn::lanes
