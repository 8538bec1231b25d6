// The gate and the gauntlet of `selfplay improve`: the gate match and its SPRT verdict, the anchor
// match against generation 0 and the matches against gate.references, the anchor guard over all of
// them, and the lineage columns they fill.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

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

// A match of the champion engine with side's weights and keys (A) against reference r (B) on the
// anchor's games: anchor.pairs pairs, no SPRT, generation 0's anchor seed.
template <HostGame G>
selfplay::MatchResult reference_match(const ImproveConfig<G>& c, const Side& side,
                                      const Reference<G>& r, const std::string& path,
                                      const ImproveOptions& options,
                                      const std::atomic<bool>& stop) {
  config::Config<G> match = c.gate;
  match.match.pairs = c.anchor.pairs;
  match.games = 2 * uint64_t{c.anchor.pairs};
  match.match.sprt.enabled = false;
  match.seed = step_seed(c.seed, 0, Step::kAnchor);
  match.output.path = path + ".h5";
  set_side(match, 0, side, spsa_keys(c));
  match.engines[1] = r.engine;
  match.policies[1] = r.policy;
  loop_detail::write_text_file(path + ".yaml", config::explain_match_config<G>(match));
  return match_step<G>(match, path + ".yaml", std::filesystem::exists(match.output.path), options,
                       stop);
}

// One member of the gauntlet as the anchor guard judges a candidate: its name ("generation 0" or a
// reference's), the candidate's Elo against it with the 95% interval, and the parent's Elo.
struct GuardEntry {
  std::string name;
  double elo = 0, elo_lo = 0, elo_hi = 0;
  double parent_elo = 0;
};

namespace loop_detail {

// The anchor row values from an earlier row that measured the same champion with the same pairs
// (the anchor match is deterministic, so its result would be the same); false when none did.
bool reuse_anchor(const Lineage& lineage, uint32_t champion, uint32_t pairs, LineageRow& row);

// Sets the anchor columns of row from a finished anchor match (engine A: the champion), and copies
// them from one row to another.
void set_anchor_columns(LineageRow& row, const selfplay::MatchResult& anchor);
void copy_anchor_columns(const LineageRow& from, LineageRow& to);

// The entry of the gauntlet the candidate fails, its Elo below its parent's less margin (the
// one furthest below when several), or -1 when it holds against every one.
int guard_failure(const std::vector<GuardEntry>& entries, double margin);

// "NAME +12.0 [-30, +54] vs parent +3.0": an entry as the guard's reasons write it.
std::string guard_text(const GuardEntry& e);

// The anchor guard's decision on a row whose gate accepted the candidate (row.champion: the
// candidate, row.parent its parent): kept when it holds against every entry (guard_failure), else
// rejected and the parent stays champion; the reason says the results (the failing one first;
// truncated to the column's width, the progress line has them all).
// Returns whether the candidate was kept. The caller sets the champion's columns.
bool apply_guard(LineageRow& row, const std::vector<GuardEntry>& entries, double margin,
                 const std::string& gate_reason);

// Reference k's columns of a /references row, from a finished match (engine A: the champion) or
// from another row; whether row `values` holds a measurement of reference k with `pairs` pairs.
void set_reference_columns(std::vector<double>& values, size_t k,
                           const selfplay::MatchResult& match);
void copy_reference_columns(const std::vector<double>& from, std::vector<double>& to, size_t k);
bool reference_measured(const std::vector<double>& values, size_t k, uint32_t pairs);
// The row values of reference k from an earlier row that measured the same champion with the same
// pairs; false when none did.
bool reuse_reference(const Lineage& lineage, uint32_t champion, size_t k, uint32_t pairs,
                     std::vector<double>& values);

// Sets the gate columns of row from a finished gate (engine A: the candidate).
void set_gate_columns(LineageRow& row, const selfplay::MatchResult& gate);

}  // namespace loop_detail
}  // namespace sp::improve
