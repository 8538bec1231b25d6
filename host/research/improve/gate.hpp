// The gate and the anchor of `selfplay improve`: the gate match and its SPRT verdict, the anchor
// match against generation 0, the anchor guard, and the lineage columns they fill.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/game_host.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/selfplay/match.hpp"
#include "host/research/improve/improve_config.hpp"
#include "host/research/improve/improve_options.hpp"
#include "host/research/improve/lineage.hpp"
#include "host/research/improve/steps.hpp"

namespace sp::improve {

struct GateOutcome {
  selfplay::MatchResult match;
  Verdict verdict = Verdict::kReject;
  std::string reason;
};

// The verdict of a gate: accept only when the SPRT accepted H1; H0 and an undecided SPRT (every
// pair played) reject.
GateOutcome gate_verdict(selfplay::MatchResult match, const config::SprtSettings& sprt);

// The gate match of a candidate: the candidate in engine A and the champion in engine B, c's gate
// rules, openings, pairs and SPRT.
template <HostGame G>
GateOutcome gate_candidate(const ImproveConfig<G>& c, uint64_t seed, const Side& candidate,
                           const Side& champion, const std::string& path,
                           const ImproveOptions& options, const std::atomic<bool>& stop) {
  return gate_verdict(
      weights_match<G>(c.gate, seed, candidate, champion, spsa_keys(c), path, options, stop),
      c.gate.match.sprt);
}

// The anchor match: the champion (A) against generation 0 (B) over anchor.pairs pairs, without the
// SPRT, always with generation 0's anchor seed (the same games for the same weights).
template <HostGame G>
selfplay::MatchResult anchor_match(const ImproveConfig<G>& c, const Side& champion,
                                   const Side& initial, const std::string& path,
                                   const ImproveOptions& options, const std::atomic<bool>& stop) {
  config::Config<G> anchor = c.gate;
  anchor.match.pairs = c.anchor.pairs;
  anchor.games = 2 * uint64_t{c.anchor.pairs};
  anchor.match.sprt.enabled = false;
  return weights_match<G>(anchor, step_seed(c.seed, 0, Step::kAnchor), champion, initial,
                          spsa_keys(c), path, options, stop);
}

namespace loop_detail {

// The anchor row values from an earlier row that measured the same champion with the same pairs
// (the anchor match is deterministic, so its result would be the same); false when none did.
bool reuse_anchor(const Lineage& lineage, uint32_t champion, uint32_t pairs, LineageRow& row);

// Sets the anchor columns of row from a finished anchor match (engine A: the champion), and copies
// them from one row to another.
void set_anchor_columns(LineageRow& row, const selfplay::MatchResult& anchor);
void copy_anchor_columns(const LineageRow& from, LineageRow& to);

// The anchor guard's decision on a row whose gate accepted the candidate (row.champion: the
// candidate, row.parent its parent): kept when the candidate's anchor Elo is at least the
// parent's less margin, else rejected and the parent stays champion. The row's anchor columns
// become the champion's, its reason says both results. Returns whether the candidate was kept.
bool apply_anchor_guard(LineageRow& row, const LineageRow& candidate_anchor,
                        const LineageRow& parent_anchor, double margin,
                        const std::string& gate_reason);

// Sets the gate columns of row from a finished gate (engine A: the candidate).
void set_gate_columns(LineageRow& row, const selfplay::MatchResult& gate);

}  // namespace loop_detail
}  // namespace sp::improve
