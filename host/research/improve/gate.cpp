#include "host/research/improve/gate.hpp"

#include <cmath>
#include <string>
#include <vector>

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

int guard_failure(const std::vector<GuardEntry>& entries, double margin) {
  int worst = -1;
  double worst_short = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const double shortfall = entries[i].parent_elo - margin - entries[i].elo;
    if (shortfall > worst_short) {
      worst = static_cast<int>(i);
      worst_short = shortfall;
    }
  }
  return worst;
}

std::string guard_text(const GuardEntry& e) {
  return fmt::format("{} {:+.1f} [{:+.0f}, {:+.0f}] vs parent {:+.1f}", e.name, e.elo, e.elo_lo,
                     e.elo_hi, e.parent_elo);
}

bool apply_guard(LineageRow& row, const std::vector<GuardEntry>& entries, double margin,
                 const std::string& gate_reason) {
  const int failed = guard_failure(entries, margin);
  std::string others;
  for (size_t i = 0; i < entries.size(); ++i)
    if (static_cast<int>(i) != failed)
      others += (others.empty() ? "" : ", ") + guard_text(entries[i]);
  if (failed < 0) {
    set_reason(row, gate_reason + "; gauntlet held: " + others);
    return true;
  }
  row.verdict = static_cast<uint8_t>(Verdict::kReject);
  row.champion = row.parent;
  set_reason(row, "anchor guard: " + guard_text(entries[static_cast<size_t>(failed)]) +
                      " (the SPRT had accepted)" + (others.empty() ? "" : "; " + others));
  return false;
}

void set_reference_columns(std::vector<double>& values, size_t k,
                           const selfplay::MatchResult& match) {
  const stats::Estimate e = stats::estimate(match.counter.penta());
  double* v = values.data() + k * kReferenceColumns;
  v[0] = static_cast<double>(match.counter.penta().pairs());
  v[1] = e.elo;
  v[2] = e.elo_lo;
  v[3] = e.elo_hi;
}

void copy_reference_columns(const std::vector<double>& from, std::vector<double>& to, size_t k) {
  for (size_t i = k * kReferenceColumns; i < (k + 1) * kReferenceColumns; ++i) to[i] = from[i];
}

bool reference_measured(const std::vector<double>& values, size_t k, uint32_t pairs) {
  const double* v = values.data() + k * kReferenceColumns;
  return v[0] == static_cast<double>(pairs) && !std::isnan(v[1]);
}

bool reuse_reference(const Lineage& lineage, uint32_t champion, size_t k, uint32_t pairs,
                     std::vector<double>& values) {
  for (size_t i = lineage.rows.size(); i-- > 0;)
    if (lineage.rows[i].champion == champion &&
        reference_measured(lineage.reference_values.at(i), k, pairs)) {
      copy_reference_columns(lineage.reference_values[i], values, k);
      return true;
    }
  return false;
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
