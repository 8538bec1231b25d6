// The lane-parallel checkers playout, written once over an Ops vocabulary (ops_avx2.hpp,
// ops_avx512.hpp) and instantiated by one translation unit per ISA. It plays what checkers::playout
// of games/checkers/playout.hpp plays, ply by ply, with the same three 32-bit boards per lane:
//   - the jumpers and the step boards per direction come from the masked shifts of checkers.hpp,
//     lane by lane; they are kept from one ply to the next, since the end test after a move needs
//     them anyway;
//   - a plain step is picked as play_step / play_weighted_step pick it: the direction from the
//     boards' popcounts (a nibble table, no popcount instruction assumed), then the k-th set bit by
//     halving the board (uniform) or a walk over the board's squares (weighted);
//   - a capture whose every path is a single jump (86% of the capture plies of random games) is
//     picked and played in lanes too (single_jumps), and so is a capture with one first jump
//     that goes on one way only (forced_chain: two thirds of the rest); a lane where jump paths
//     branch plays its capture alone, with the scalar play_capture / play_weighted_capture.
// The draw counters are plain 32-bit lanes: the ply and quiet counters of the state saturate only
// past the limits that end a playout, so they never saturate here.
// Lanes are refilled only at block boundaries (every four plies, one Philox block per lane), as in
// the EWN lanes: a rollout starts on its stream's first block like the scalar playout.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/simd/philox_lanes.hpp"
#include "games/checkers/lanes.hpp"
#include "games/checkers/playout.hpp"

namespace sp::checkers::lanes {
// Internal linkage throughout: each ISA's translation unit keeps its own copy, so the linker can
// never pick an AVX-512 body of an inline function for the AVX2 path.
namespace {

// "No quiet limit" as a lane value: above any quiet count, and positive for the signed compares.
inline constexpr uint32_t kNoQuietLimit = 0x7FFFFFFFu;

template <class Ops>
struct Lanes {
  static constexpr int L = Ops::kLanes;
  alignas(64) uint32_t pieces[2][L];
  alignas(64) uint32_t kings[L];
  alignas(64) uint32_t side[L];  // 0, or all ones for White
  alignas(64) uint32_t ply[L];   // the state's ply and quiet counters
  alignas(64) uint32_t quiet[L];
  alignas(64) uint32_t max_plies[L];
  alignas(64) uint32_t quiet_limit[L];         // kNoQuietLimit for none
  alignas(64) uint32_t jump[L];                // all_jumpers of the lane's state
  alignas(64) uint32_t sites[kDirections][L];  // its jump sites by direction (see generate)
  alignas(64) uint32_t steps[kDirections][L];  // steppers of the lane's state, by direction
  alignas(64) uint32_t winner[L];
  alignas(64) uint32_t plies[L];
  alignas(64) uint32_t draw[L];  // the Philox counter: (draw, rollout, leaf, ply) under (k0, k1)
  alignas(64) uint32_t rollout[L];
  alignas(64) uint32_t leaf[L];
  alignas(64) uint32_t stream_ply[L];
  alignas(64) uint32_t k0[L];
  alignas(64) uint32_t k1[L];
  alignas(64) uint32_t heavy[L];  // all ones where the lane plays the weighted policy
  alignas(64) uint32_t man[L];    // the weighted policy's step weights (play_weighted_step)
  alignas(64) uint32_t crowning_man[L];
  alignas(64) uint32_t jump_unit[L];  // the weighted policy's single jumps (play_weighted_capture)
  alignas(64) uint32_t jump_crown[L];
  alignas(64) uint32_t word[L];  // the ply's random words, for the captures played lane by lane
  Policy policy[L];
  uint32_t task[L];
};

// Lanes' state in registers for one block of four plies.
template <class Ops>
struct Regs {
  using V = typename Ops::V;
  V pieces0, pieces1, kings, side, ply, quiet, max_plies, quiet_limit;
  V jump, sites[kDirections], steps[kDirections];
  V winner, plies;
  V heavy, man, crowning_man;
  V jump_unit, jump_crown;  // a single jump's weight, and a crowning one's: 1 when uniform
};

// checkers::shift lane by lane, for a direction known at compile time.
template <class Ops, int D>
SP_FORCEINLINE typename Ops::V shift(typename Ops::V b) {
  const auto part = [&](uint32_t mask, int n) {
    return n > 0 ? Ops::slli(Ops::and_(b, Ops::set1(mask)), n)
                 : Ops::srli(Ops::and_(b, Ops::set1(mask)), -n);
  };
  if constexpr (D == kSouthWest) return Ops::or_(part(kSouthWest4, 4), part(kSouthWest3, 3));
  if constexpr (D == kSouthEast) return Ops::or_(part(kSouthEast5, 5), part(kSouthEast4, 4));
  if constexpr (D == kNorthEast) return Ops::or_(part(kNorthEast3, -3), part(kNorthEast4, -4));
  if constexpr (D == kNorthWest) return Ops::or_(part(kNorthWest4, -4), part(kNorthWest5, -5));
}

// f.template operator()<D>() for the four directions D in order, so that one lambda
// [&]<int D>() { ... shift<Ops, D>(b) ... } serves the four with D known at compile time.
template <class F>
SP_FORCEINLINE void for_each_direction(F&& f) {
  f.template operator()<kSouthWest>();
  f.template operator()<kSouthEast>();
  f.template operator()<kNorthEast>();
  f.template operator()<kNorthWest>();
}

// Per lane, f.template operator()<D>() for the lane's direction D: the first D whose dir[D] holds
// the lane, the last direction where none does.
template <class Ops, class F>
SP_FORCEINLINE typename Ops::V in_direction(const typename Ops::M (&dir)[kDirections], F&& f) {
  return Ops::sel(dir[0], f.template operator()<kSouthWest>(),
                  Ops::sel(dir[1], f.template operator()<kSouthEast>(),
                           Ops::sel(dir[2], f.template operator()<kNorthEast>(),
                                    f.template operator()<kNorthWest>())));
}

// Set bits per lane.
template <class Ops>
SP_FORCEINLINE typename Ops::V popcount(typename Ops::V a) {
  typename Ops::V x = Ops::popcount_bytes(a);
  x = Ops::add(x, Ops::srli(x, 8));
  x = Ops::add(x, Ops::srli(x, 16));
  return Ops::and_(x, Ops::set1(0x3F));
}

// The set bits of four boards together, per lane: per-byte counts summed (at most 32 a byte),
// then folded once.
template <class Ops>
SP_FORCEINLINE typename Ops::V popcount_sum(const typename Ops::V (&b)[kDirections]) {
  typename Ops::V x = Ops::add(Ops::add(Ops::popcount_bytes(b[0]), Ops::popcount_bytes(b[1])),
                               Ops::add(Ops::popcount_bytes(b[2]), Ops::popcount_bytes(b[3])));
  x = Ops::add(x, Ops::srli(x, 8));
  x = Ops::add(x, Ops::srli(x, 16));
  return Ops::and_(x, Ops::set1(0xFF));
}

// The k-th (0-based) set bit of b as a one-bit board, lane by lane (nth_set_bit): the half of b
// that holds it, 16, 8, 4, 2 and 1 bits wide, from the popcount of the lower half. Precondition
// k < popcount(b).
template <class Ops>
SP_FORCEINLINE typename Ops::V nth_bit(typename Ops::V b, typename Ops::V k) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  const V zero = Ops::zero(), byte = Ops::set1(0xFF);
  V pos = zero;
  const auto half = [&](V low_count, uint32_t width) {
    const M up = Ops::mnot(Ops::gt(low_count, k));  // k >= low_count: the upper half
    const V amount = Ops::sel(up, Ops::set1(width), zero);
    k = Ops::sub(k, Ops::sel(up, low_count, zero));
    pos = Ops::add(pos, amount);
    b = Ops::srlv(b, amount);
    return amount;
  };
  V bytes = Ops::popcount_bytes(b);
  bytes = Ops::srlv(bytes, half(Ops::and_(Ops::add(bytes, Ops::srli(bytes, 8)), byte), 16));
  half(Ops::and_(bytes, byte), 8);
  half(Ops::and_(Ops::popcount_bytes(Ops::and_(b, Ops::set1(0xF))), byte), 4);
  const V pair = Ops::and_(b, Ops::set1(3));
  half(Ops::sub(pair, Ops::srli(pair, 1)), 2);
  half(Ops::and_(b, Ops::set1(1)), 1);
  return Ops::sllv(Ops::set1(1), pos);
}

// The lanes' jumpers and step boards (all_jumpers, steppers) for the state in r.
template <class Ops>
SP_FORCEINLINE void generate(Regs<Ops>& r) {
  using V = typename Ops::V;
  const auto white = Ops::mask(r.side);
  const V empty = Ops::andnot(Ops::or_(r.pieces0, r.pieces1), Ops::set1(~0u));
  const V own = Ops::sel(white, r.pieces1, r.pieces0);
  const V opp = Ops::sel(white, r.pieces0, r.pieces1);
  const V own_kings = Ops::and_(own, r.kings);
  const V south = Ops::sel(white, own_kings, own), north = Ops::sel(white, own, own_kings);
  // A step toward d needs an empty square there: the empty squares seen from the other way.
  const V from_sw = shift<Ops, kNorthEast>(empty), from_se = shift<Ops, kNorthWest>(empty);
  const V from_ne = shift<Ops, kSouthWest>(empty), from_nw = shift<Ops, kSouthEast>(empty);
  r.steps[kSouthWest] = Ops::and_(south, from_sw);
  r.steps[kSouthEast] = Ops::and_(south, from_se);
  r.steps[kNorthEast] = Ops::and_(north, from_ne);
  r.steps[kNorthWest] = Ops::and_(north, from_nw);
  // Jump sites: squares with an enemy piece next to them toward d and an empty square beyond,
  // whoever stands there.
  r.sites[kSouthWest] = shift<Ops, kNorthEast>(Ops::and_(from_sw, opp));
  r.sites[kSouthEast] = shift<Ops, kNorthWest>(Ops::and_(from_se, opp));
  r.sites[kNorthEast] = shift<Ops, kSouthWest>(Ops::and_(from_ne, opp));
  r.sites[kNorthWest] = shift<Ops, kSouthEast>(Ops::and_(from_nw, opp));
  r.jump = Ops::or_(Ops::and_(south, Ops::or_(r.sites[kSouthWest], r.sites[kSouthEast])),
                    Ops::and_(north, Ops::or_(r.sites[kNorthEast], r.sites[kNorthWest])));
}

// The direction a pick falls in, as play_step finds it: the first direction i with k < n[i] (k
// reduced by the ones before), else the last. Sets here[i] (one per lane) and reduces k.
template <class Ops>
SP_FORCEINLINE typename Ops::V pick_direction(const typename Ops::V (&n)[kDirections],
                                              const typename Ops::V (&boards)[kDirections],
                                              typename Ops::V& k,
                                              typename Ops::M (&here)[kDirections]) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  V board = boards[kDirections - 1];
  M found = Ops::from_bits(0);
  for (int i = 0; i < kDirections - 1; ++i) {
    here[i] = Ops::mandnot(found, Ops::gt(n[i], k));
    board = Ops::sel(here[i], boards[i], board);
    k = Ops::sel(Ops::mor(found, here[i]), k, Ops::sub(k, n[i]));
    found = Ops::mor(found, here[i]);
  }
  here[kDirections - 1] = Ops::mnot(found);
  return board;
}

// A jump's landing square from its start square and back, by direction: two steps change the
// square number by 7 or 9 whatever the row. Exact for a legal jump, whose landing is on the board.
template <class Ops, int D>
SP_FORCEINLINE typename Ops::V to_landing(typename Ops::V b) {
  if constexpr (D == kSouthWest) return Ops::slli(b, 7);
  if constexpr (D == kSouthEast) return Ops::slli(b, 9);
  if constexpr (D == kNorthEast) return Ops::srli(b, 7);
  if constexpr (D == kNorthWest) return Ops::srli(b, 9);
}
template <class Ops, int D>
SP_FORCEINLINE typename Ops::V from_landing(typename Ops::V b) {
  if constexpr (D == kSouthWest) return Ops::srli(b, 7);
  if constexpr (D == kSouthEast) return Ops::srli(b, 9);
  if constexpr (D == kNorthEast) return Ops::slli(b, 7);
  if constexpr (D == kNorthWest) return Ops::slli(b, 9);
}

// apply_effect of a capture in the lanes of `lanes`: the mover's piece goes from `from` to `to`,
// crowned there if it is a man on its crown row, and the pieces of `taken` leave the board.
template <class Ops>
SP_FORCEINLINE void apply_capture(Regs<Ops>& r, typename Ops::M lanes, typename Ops::V from,
                                  typename Ops::V to, typename Ops::V taken, typename Ops::V own,
                                  typename Ops::V opp, typename Ops::V crown,
                                  typename Ops::M white) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  const M king_after = Ops::mor(Ops::nz(Ops::and_(r.kings, from)), Ops::nz(Ops::and_(to, crown)));
  const V moved = Ops::or_(Ops::andnot(from, own), to), left = Ops::andnot(taken, opp);
  r.pieces0 = Ops::sel(lanes, Ops::sel(white, left, moved), r.pieces0);
  r.pieces1 = Ops::sel(lanes, Ops::sel(white, moved, left), r.pieces1);
  r.kings = Ops::sel(
      lanes,
      Ops::or_(Ops::andnot(Ops::or_(from, taken), r.kings), Ops::and_(Ops::vec(king_after), to)),
      r.kings);
}

// The capture of the lanes in `lanes`, which have a single first jump (jumps[] holds it) that may
// go on: when it goes on one way only at every landing square, that path is the only move, which
// play_capture and play_weighted_capture pick whatever the word. Follows it jump by jump as
// for_each_jump_path does (the start square counts as empty, jumped pieces stay on the board and
// are not jumped twice, a man that crowns stops) and plays it; returns the lanes where the path
// branches, for the scalar code, untouched.
template <class Ops>
SP_FORCEINLINE typename Ops::M forced_chain(Regs<Ops>& r, typename Ops::M lanes,
                                            const typename Ops::V (&jumps)[kDirections],
                                            typename Ops::V own, typename Ops::V opp,
                                            typename Ops::V crown, typename Ops::M white) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  const V zero = Ops::zero(), one = Ops::set1(1);
  const V start = r.jump;
  const V land_on = Ops::or_(Ops::andnot(Ops::or_(r.pieces0, r.pieces1), Ops::set1(~0u)), start);
  const M king = Ops::nz(Ops::and_(r.kings, start));
  const M toward[kDirections] = {Ops::mor(king, Ops::mnot(white)), Ops::mor(king, Ops::mnot(white)),
                                 Ops::mor(king, white), Ops::mor(king, white)};
  M dir[kDirections];
  for (int d = 0; d < kDirections; ++d) dir[d] = Ops::nz(jumps[d]);
  V at = start, taken = zero;
  M going = lanes, branch = Ops::from_bits(0);
  while (Ops::bits(going)) {
    const V over = in_direction<Ops>(dir, [&]<int D>() { return shift<Ops, D>(at); });
    const V land = in_direction<Ops>(dir, [&]<int D>() { return to_landing<Ops, D>(at); });
    taken = Ops::sel(going, Ops::or_(taken, over), taken);
    at = Ops::sel(going, land, at);
    going = Ops::mandnot(Ops::mandnot(king, Ops::nz(Ops::and_(at, crown))), going);
    const V targets = Ops::andnot(taken, opp);
    V ways = zero;
    for_each_direction([&]<int D>() {
      const V beyond = shift<Ops, D>(Ops::and_(shift<Ops, D>(at), targets));
      dir[D] = Ops::mand(toward[D], Ops::nz(Ops::and_(beyond, land_on)));
      ways = Ops::add_where(dir[D], ways, one);
    });
    branch = Ops::mor(branch, Ops::mand(going, Ops::gt(ways, one)));
    going = Ops::mand(going, Ops::eq(ways, one));
  }
  apply_capture<Ops>(r, Ops::mandnot(branch, lanes), start, at, taken, own, opp, crown, white);
  return branch;
}

// The captures of the lanes in `capture` whose every capture is a single jump (most of them):
// picked and played in lanes, as play_capture / play_weighted_capture pick them (by start square,
// then direction, a crowning jump weighted by the policy). Returns the other lanes of `capture`,
// where a jump may continue, for the scalar code. A jump from f continues when its landing square
// t has a jump site (an enemy piece next to it, an empty square beyond), a forward one for a man,
// and none for a man that crowns on t. Sites are taken on the board before the move: the one
// back over the piece just taken would land on f, which the mover still holds there, so it never
// counts; no other jump from t can land on f, and t's neighbours are as they were.
template <class Ops, bool kHeavy>
SP_FORCEINLINE typename Ops::M single_jumps(Regs<Ops>& r, typename Ops::M capture,
                                            typename Ops::V word, typename Ops::V own,
                                            typename Ops::V crown, typename Ops::M white) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  const V zero = Ops::zero();
  const V opp = Ops::sel(white, r.pieces0, r.pieces1);
  const V(&sites)[kDirections] = r.sites;
  const V men = Ops::andnot(r.kings, own), own_kings = Ops::and_(own, r.kings);
  const V south = Ops::sel(white, own_kings, own), north = Ops::sel(white, own, own_kings);
  const V jumps[kDirections] = {Ops::and_(south, sites[0]), Ops::and_(south, sites[1]),
                                Ops::and_(north, sites[2]), Ops::and_(north, sites[3])};
  const V king_onward = Ops::or_(Ops::or_(sites[0], sites[1]), Ops::or_(sites[2], sites[3]));
  const V man_onward = Ops::andnot(
      crown, Ops::sel(white, Ops::or_(sites[2], sites[3]), Ops::or_(sites[0], sites[1])));
  const auto go_on = [&]<int D>() {
    return Ops::and_(jumps[D], Ops::or_(Ops::and_(r.kings, from_landing<Ops, D>(king_onward)),
                                        Ops::and_(men, from_landing<Ops, D>(man_onward))));
  };
  const V onward = Ops::or_(
      Ops::or_(go_on.template operator()<kSouthWest>(), go_on.template operator()<kSouthEast>()),
      Ops::or_(go_on.template operator()<kNorthEast>(), go_on.template operator()<kNorthWest>()));
  const M longer = Ops::mand(capture, Ops::nz(onward));
  const M simple = Ops::mandnot(longer, capture);
  const V n = popcount_sum<Ops>(jumps);
  const M one = Ops::mand(longer, Ops::eq(n, Ops::set1(1)));
  const M scalar = Ops::bits(one)
                       ? Ops::mor(Ops::mandnot(one, longer),
                                  forced_chain<Ops>(r, one, jumps, own, opp, crown, white))
                       : longer;
  if (!Ops::bits(simple)) return scalar;

  // Uniform lanes weigh every jump 1; weighted ones kWeightOne, and more a man's jump that crowns
  // (from two rows before the crown row).
  V crowning[kDirections] = {zero, zero, zero, zero};
  V rest;
  if constexpr (kHeavy) {
    crowning[0] = Ops::and_(Ops::and_(jumps[0], men), from_landing<Ops, kSouthWest>(crown));
    crowning[1] = Ops::and_(Ops::and_(jumps[1], men), from_landing<Ops, kSouthEast>(crown));
    crowning[2] = Ops::and_(Ops::and_(jumps[2], men), from_landing<Ops, kNorthEast>(crown));
    crowning[3] = Ops::and_(Ops::and_(jumps[3], men), from_landing<Ops, kNorthWest>(crown));
    const V n_crowning = popcount_sum<Ops>(crowning);  // a man may crown by two jumps
    const V crown_extra = Ops::sub(r.jump_crown, r.jump_unit);
    rest =
        Ops::mulhi(word, Ops::add(Ops::mullo(r.jump_unit, n), Ops::mullo(crown_extra, n_crowning)));
  } else {
    rest = Ops::mulhi(word, n);
  }
  V walk = r.jump, from = zero;
  M chosen[kDirections] = {Ops::from_bits(0), Ops::from_bits(0), Ops::from_bits(0),
                           Ops::from_bits(0)};
  for (M pending = Ops::mand(simple, Ops::nz(walk)); Ops::bits(pending);
       pending = Ops::mand(pending, Ops::nz(walk))) {
    const V sq = Ops::and_(walk, Ops::sub(zero, walk));
    V sum = zero;
    M found = Ops::from_bits(0);
    for (int d = 0; d < kDirections; ++d) {
      V weight = Ops::set1(1);
      if constexpr (kHeavy)
        weight = Ops::sel(Ops::nz(Ops::and_(crowning[d], sq)), r.jump_crown, r.jump_unit);
      sum = Ops::add(sum, Ops::and_(Ops::vec(Ops::nz(Ops::and_(jumps[d], sq))), weight));
      const M here = Ops::mandnot(found, Ops::mand(pending, Ops::gt(sum, rest)));
      chosen[d] = Ops::mor(chosen[d], here);
      found = Ops::mor(found, here);
    }
    from = Ops::sel(found, sq, from);
    pending = Ops::mandnot(found, pending);
    rest = Ops::sel(pending, Ops::sub(rest, sum), rest);
    walk = Ops::xor_where(pending, walk, sq);
  }
  const V over = in_direction<Ops>(chosen, [&]<int D>() { return shift<Ops, D>(from); });
  const V to = in_direction<Ops>(chosen, [&]<int D>() { return to_landing<Ops, D>(from); });
  apply_capture<Ops>(r, simple, from, to, over, own, opp, crown, white);
  return scalar;
}

// One ply of every lane in `act` with the lane's random word; returns the lanes still playing.
// Precondition: the lanes in act have a move and no draw rule has ended their game, and r.jump,
// r.steps are their state's boards.
template <class Ops, bool kHeavy>
SP_FORCEINLINE typename Ops::M step(Lanes<Ops>& s, Regs<Ops>& r, typename Ops::M act,
                                    typename Ops::V word) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  const V zero = Ops::zero(), one = Ops::set1(1);
  const M white = Ops::mask(r.side);
  const M capture = Ops::mand(act, Ops::nz(r.jump));
  const M stepping = Ops::mandnot(capture, act);

  // play_step: move k of the steps, counted by direction, then by square.
  V n[kDirections];
  for (int d = 0; d < kDirections; ++d) n[d] = popcount<Ops>(r.steps[d]);
  V k = Ops::mulhi(word, Ops::add(Ops::add(n[0], n[1]), Ops::add(n[2], n[3])));
  M here[kDirections];
  const V board = pick_direction<Ops>(n, r.steps, k, here);  // reduces k: before nth_bit
  V from = nth_bit<Ops>(board, k);

  const V own = Ops::sel(white, r.pieces1, r.pieces0);
  const V crown = Ops::sel(white, Ops::set1(crown_row(1)), Ops::set1(crown_row(0)));
  if constexpr (kHeavy) {
    // play_weighted_step: a step's weight by its piece (king, man, man that crowns), the
    // direction from the boards' weights, then a walk over the chosen board's squares.
    const M heavy = Ops::mand(stepping, Ops::mask(r.heavy));
    const V men = Ops::andnot(r.kings, own);
    const V pre_crown[kDirections] = {shift<Ops, kNorthEast>(crown), shift<Ops, kNorthWest>(crown),
                                      shift<Ops, kSouthWest>(crown), shift<Ops, kSouthEast>(crown)};
    const V man_extra = Ops::sub(r.man, Ops::set1(kWeightOne));
    const V crown_extra = Ops::sub(r.crowning_man, r.man);
    V w[kDirections];
    for (int d = 0; d < kDirections; ++d) {
      // 1.0 per step, plus (man - 1.0) per man's step, plus (crowning - man) per crowning one;
      // exact in 32-bit arithmetic because the sum fits (playout.hpp bounds the weights).
      const V moving_men = Ops::and_(r.steps[d], men);
      w[d] = Ops::add(
          Ops::slli(n[d], 8),
          Ops::add(Ops::mullo(man_extra, popcount<Ops>(moving_men)),
                   Ops::mullo(crown_extra, popcount<Ops>(Ops::and_(moving_men, pre_crown[d])))));
    }
    V rest = Ops::mulhi(word, Ops::add(Ops::add(w[0], w[1]), Ops::add(w[2], w[3])));
    M heavy_here[kDirections];
    V walk = pick_direction<Ops>(w, r.steps, rest, heavy_here);
    V pc = pre_crown[kDirections - 1];
    for (int d = 0; d < kDirections - 1; ++d) pc = Ops::sel(heavy_here[d], pre_crown[d], pc);
    V picked = Ops::and_(walk, Ops::sub(zero, walk));
    M pending = heavy;
    for (M walking = Ops::mand(pending, Ops::nz(walk)); Ops::bits(walking);
         walking = Ops::mand(pending, Ops::nz(walk))) {
      const V sq = Ops::and_(walk, Ops::sub(zero, walk));
      const V weight = Ops::sel(Ops::nz(Ops::and_(sq, men)),
                                Ops::sel(Ops::nz(Ops::and_(sq, pc)), r.crowning_man, r.man),
                                Ops::set1(kWeightOne));
      picked = Ops::sel(walking, sq, picked);
      walk = Ops::xor_where(walking, walk, sq);
      const M hit = Ops::mand(walking, Ops::gt(weight, rest));
      rest = Ops::sel(Ops::mandnot(hit, walking), Ops::sub(rest, weight), rest);
      pending = Ops::mandnot(hit, pending);
    }
    from = Ops::sel(heavy, picked, from);
    for (int d = 0; d < kDirections; ++d)
      here[d] = Ops::mor(Ops::mand(heavy, heavy_here[d]), Ops::mandnot(heavy, here[d]));
  }

  // apply_effect of the step: a king keeps the quiet count going, a man resets it and crowns on
  // its crown row.
  const V to = in_direction<Ops>(here, [&]<int D>() { return shift<Ops, D>(from); });
  const M king = Ops::nz(Ops::and_(r.kings, from));
  const V moved = Ops::or_(Ops::andnot(from, own), to);
  r.pieces0 = Ops::sel(Ops::mandnot(white, stepping), moved, r.pieces0);
  r.pieces1 = Ops::sel(Ops::mand(white, stepping), moved, r.pieces1);
  const M king_after = Ops::mor(king, Ops::nz(Ops::and_(to, crown)));
  r.kings = Ops::sel(
      stepping, Ops::or_(Ops::andnot(from, r.kings), Ops::and_(Ops::vec(king_after), to)), r.kings);
  r.quiet = Ops::sel(stepping, Ops::sel(king, Ops::add(r.quiet, one), zero), r.quiet);

  if (Ops::bits(capture)) r.quiet = Ops::sel(capture, zero, r.quiet);
  const M multi = Ops::bits(capture)
                      ? single_jumps<Ops, kHeavy>(r, capture, word, own, crown, white)
                      : Ops::from_bits(0);
  if (unsigned lanes = Ops::bits(multi)) {
    Ops::store(s.pieces[0], r.pieces0);
    Ops::store(s.pieces[1], r.pieces1);
    Ops::store(s.kings, r.kings);
    Ops::store(s.jump, r.jump);
    Ops::store(s.word, word);
    Ops::store(s.side, r.side);
    for (; lanes; lanes &= lanes - 1) {
      const int l = __builtin_ctz(lanes);
      State st;
      st.pieces[0] = s.pieces[0][l];
      st.pieces[1] = s.pieces[1][l];
      st.kings = s.kings[l];
      st.side = static_cast<uint8_t>(s.side[l] & 1u);
      const uint32_t jump = s.jump[l];
      if (kHeavy && s.heavy[l])
        playout_detail::play_weighted_capture(st, s.policy[l], jump, s.word[l]);
      else
        playout_detail::play_capture(st, jump,
                                     bounded(s.word[l], playout_detail::count_captures(st, jump)));
      s.pieces[0][l] = st.pieces[0];
      s.pieces[1][l] = st.pieces[1];
      s.kings[l] = st.kings;
    }
    r.pieces0 = Ops::load(s.pieces[0]);
    r.pieces1 = Ops::load(s.pieces[1]);
    r.kings = Ops::load(s.kings);
  }
  r.ply = Ops::add_where(act, r.ply, one);
  r.plies = Ops::add_where(act, r.plies, one);
  const V mover = Ops::and_(r.side, one);
  r.side = Ops::xor_where(act, r.side, Ops::set1(~0u));

  // The end test of the next ply: no move loses (before any draw rule), then the draw rules.
  generate<Ops>(r);
  const V any = Ops::or_(Ops::or_(r.jump, Ops::or_(r.steps[0], r.steps[1])),
                         Ops::or_(r.steps[2], r.steps[3]));
  const M lost = Ops::mand(act, Ops::eq(any, zero));
  const M drawn =
      Ops::mnot(Ops::mand(Ops::gt(r.max_plies, r.ply), Ops::gt(r.quiet_limit, r.quiet)));
  r.winner = Ops::sel(lost, mover, r.winner);
  return Ops::mandnot(Ops::mor(lost, drawn), act);
}

template <class Ops>
void run_lanes(const Task* tasks, size_t n, Counts* counts) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  constexpr int L = Ops::kLanes;
  Lanes<Ops> s{};  // idle lanes compute on zeros, never on indeterminate values
  rollout::LaneFeed<CheckersGame> feed(tasks, n, counts);

  auto start = [&](int l) {
    const Task& tk = feed.task();
    const State& root = tk.root;
    s.task[l] = feed.task_index();
    s.pieces[0][l] = root.pieces[0];
    s.pieces[1][l] = root.pieces[1];
    s.kings[l] = root.kings;
    s.side[l] = root.side ? ~0u : 0u;
    s.ply[l] = root.ply;
    s.quiet[l] = root.quiet;
    s.max_plies[l] = root.max_plies;
    s.quiet_limit[l] = root.quiet_limit ? root.quiet_limit : kNoQuietLimit;
    s.jump[l] = all_jumpers(root);
    for (int d = 0; d < kDirections; ++d)
      s.sites[d][l] = checkers::shift(
          checkers::shift(empty_squares(root), opposite(d)) & opponent_pieces(root), opposite(d));
    for (int d = 0; d < kDirections; ++d) s.steps[d][l] = steppers(root, d);
    s.winner[l] = kNoWinner;
    s.plies[l] = 0;
    s.draw[l] = 0;
    s.leaf[l] = tk.leaf;
    s.stream_ply[l] = tk.ply;
    s.k0[l] = tk.key.k0;
    s.k1[l] = tk.key.k1;
    s.policy[l] = tk.policy;
    s.heavy[l] = tk.policy.kind == PolicyKind::kWeighted ? ~0u : 0u;
    s.man[l] = playout_detail::scale(kWeightOne, tk.policy.advance_weight);
    s.crowning_man[l] = playout_detail::scale(s.man[l], tk.policy.crown_weight);
    const bool heavy = tk.policy.kind == PolicyKind::kWeighted;
    s.jump_unit[l] = heavy ? kWeightOne : 1;
    s.jump_crown[l] = heavy ? playout_detail::capture_weight(tk.policy, 1, true) : 1;
    s.rollout[l] = feed.take();
  };

  unsigned busy = 0;
  for (int l = 0; l < L && !feed.empty(); ++l) start(l), busy |= 1u << l;
  while (busy) {
    const V k0 = Ops::load(s.k0), k1 = Ops::load(s.k1);
    const V draw = Ops::load(s.draw);
    const rollout::simd::PhiloxLanes<Ops> block = rollout::simd::philox_lanes<Ops>(
        {{draw, Ops::load(s.rollout), Ops::load(s.leaf), Ops::load(s.stream_ply)}}, k0, k1);
    Ops::store(s.draw, Ops::add(draw, Ops::set1(1)));

    Regs<Ops> r;
    r.pieces0 = Ops::load(s.pieces[0]);
    r.pieces1 = Ops::load(s.pieces[1]);
    r.kings = Ops::load(s.kings);
    r.side = Ops::load(s.side);
    r.ply = Ops::load(s.ply);
    r.quiet = Ops::load(s.quiet);
    r.max_plies = Ops::load(s.max_plies);
    r.quiet_limit = Ops::load(s.quiet_limit);
    r.jump = Ops::load(s.jump);
    for (int d = 0; d < kDirections; ++d) r.sites[d] = Ops::load(s.sites[d]);
    for (int d = 0; d < kDirections; ++d) r.steps[d] = Ops::load(s.steps[d]);
    r.winner = Ops::load(s.winner);
    r.plies = Ops::load(s.plies);
    r.heavy = Ops::load(s.heavy);
    r.man = Ops::load(s.man);
    r.crowning_man = Ops::load(s.crowning_man);
    r.jump_unit = Ops::load(s.jump_unit);
    r.jump_crown = Ops::load(s.jump_crown);
    M act = Ops::from_bits(busy);
    // The weighted pick costs more again: only blocks with a weighted lane pay for it.
    if (Ops::bits(Ops::mand(act, Ops::mask(r.heavy)))) {
      for (int w = 0; w < 4 && Ops::bits(act); ++w) act = step<Ops, true>(s, r, act, block.v[w]);
    } else {
      for (int w = 0; w < 4 && Ops::bits(act); ++w) act = step<Ops, false>(s, r, act, block.v[w]);
    }
    Ops::store(s.pieces[0], r.pieces0);
    Ops::store(s.pieces[1], r.pieces1);
    Ops::store(s.kings, r.kings);
    Ops::store(s.side, r.side);
    Ops::store(s.ply, r.ply);
    Ops::store(s.quiet, r.quiet);
    Ops::store(s.jump, r.jump);
    for (int d = 0; d < kDirections; ++d) Ops::store(s.sites[d], r.sites[d]);
    for (int d = 0; d < kDirections; ++d) Ops::store(s.steps[d], r.steps[d]);
    Ops::store(s.winner, r.winner);
    Ops::store(s.plies, r.plies);

    unsigned finished = Ops::bits(Ops::mnot(act)) & busy;
    feed.retire(finished, busy, s.task, s.winner, s.plies, start);
  }
}

}  // namespace
}  // namespace sp::checkers::lanes
