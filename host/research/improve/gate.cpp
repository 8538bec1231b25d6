#include "host/research/improve/gate.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "host/base/stats/match_stats.hpp"

namespace sp::improve {

GateOutcome gate_verdict(selfplay::MatchResult match, const config::SprtSettings& sprt) {
  GateOutcome out;
  const uint64_t pairs = match.counter.penta().pairs();
  if (match.sprt && match.sprt->decision == stats::SprtState::kAcceptH1) {
    out.verdict = Verdict::kAccept;
    out.reason = fmt::format("SPRT accepted H1 (elo1 {}) after {} pairs", sprt.elo1, pairs);
  } else if (match.sprt && match.sprt->decision == stats::SprtState::kAcceptH0) {
    out.reason = fmt::format("SPRT accepted H0 (elo0 {}) after {} pairs", sprt.elo0, pairs);
  } else {
    out.reason =
        fmt::format("SPRT undecided after {} pairs (LLR {:.2f} in [{:.2f}, {:.2f}])", pairs,
                    match.sprt ? match.sprt->llr : 0.0, match.sprt ? match.sprt->lower : 0.0,
                    match.sprt ? match.sprt->upper : 0.0);
  }
  out.match = std::move(match);
  return out;
}

namespace loop_detail {

void set_anchor_columns(LineageRow& row, const selfplay::MatchResult& anchor) {
  const stats::Estimate e = stats::estimate(anchor.counter.penta());
  row.anchor_pairs = anchor.counter.penta().pairs();
  row.anchor_elo = e.elo;
  row.anchor_elo_lo = e.elo_lo;
  row.anchor_elo_hi = e.elo_hi;
}

void copy_anchor_columns(const LineageRow& from, LineageRow& to) {
  to.anchor_pairs = from.anchor_pairs;
  to.anchor_elo = from.anchor_elo;
  to.anchor_elo_lo = from.anchor_elo_lo;
  to.anchor_elo_hi = from.anchor_elo_hi;
}

bool apply_anchor_guard(LineageRow& row, const LineageRow& candidate_anchor,
                        const LineageRow& parent_anchor, double margin,
                        const std::string& gate_reason) {
  const std::string versus =
      fmt::format("against generation 0 {:+.1f} Elo [{:+.1f}, {:+.1f}], its parent {:+.1f}",
                  candidate_anchor.anchor_elo, candidate_anchor.anchor_elo_lo,
                  candidate_anchor.anchor_elo_hi, parent_anchor.anchor_elo);
  const bool holds = candidate_anchor.anchor_elo >= parent_anchor.anchor_elo - margin;
  copy_anchor_columns(holds ? candidate_anchor : parent_anchor, row);
  if (holds) {
    set_reason(row, gate_reason + "; " + versus);
  } else {
    row.verdict = static_cast<uint8_t>(Verdict::kReject);
    row.champion = row.parent;
    set_reason(row, "anchor guard: " + versus + " (the SPRT had accepted)");
  }
  return holds;
}

bool reuse_anchor(const Lineage& lineage, uint32_t champion, uint32_t pairs, LineageRow& row) {
  for (auto it = lineage.rows.rbegin(); it != lineage.rows.rend(); ++it)
    if (it->champion == champion && it->anchor_pairs == pairs && !std::isnan(it->anchor_elo)) {
      row.anchor_pairs = it->anchor_pairs;
      row.anchor_elo = it->anchor_elo;
      row.anchor_elo_lo = it->anchor_elo_lo;
      row.anchor_elo_hi = it->anchor_elo_hi;
      return true;
    }
  return false;
}

void set_gate_columns(LineageRow& row, const selfplay::MatchResult& gate) {
  const stats::Wdl& wdl = gate.counter.wdl();
  row.wins = wdl.wins;
  row.draws = wdl.draws;
  row.losses = wdl.losses;
  for (int k = 0; k < 5; ++k) row.penta[k] = gate.counter.penta().counts[k];
  if (gate.sprt) {
    row.llr = gate.sprt->llr;
    row.llr_lower = gate.sprt->lower;
    row.llr_upper = gate.sprt->upper;
  }
  const stats::Estimate e = stats::estimate(gate.counter.penta());
  row.elo = e.elo;
  row.elo_lo = e.elo_lo;
  row.elo_hi = e.elo_hi;
}

}  // namespace loop_detail
}  // namespace sp::improve
