#include "host/research/improve/progress.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "host/base/system/log.hpp"
#include "host/research/improve/lineage.hpp"

namespace sp::improve {

namespace {

std::string elo_text(double elo, double lo, double hi) {
  if (std::isnan(elo)) return "";
  if (!std::isfinite(elo)) return elo > 0 ? "+inf" : "-inf";
  std::string s = fmt::format("{:+.1f}", elo);
  if (std::isfinite(lo) && std::isfinite(hi) && (lo != elo || hi != elo))
    s += fmt::format(" [{:+.0f}, {:+.0f}]", lo, hi);
  else if (!std::isfinite(lo) || !std::isfinite(hi))
    s += " [unbounded]";
  return s;
}

}  // namespace

std::string duration_text(double s) {
  if (!(s >= 0) || !std::isfinite(s)) return "?";
  const auto t = static_cast<uint64_t>(s + 0.5);
  if (t < 60) return fmt::format("{}s", t);
  if (t < 3600) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}h{:02}m", t / 3600, t / 60 % 60);
}

std::string format_lineage_table(const Lineage& lineage) {
  std::string out = fmt::format("{:>4}  {:<8} {:>6} {:>6}  {:<22} {:<22} ", "gen", "verdict",
                                "champ", "games", "Elo vs champion (95%)", "Elo vs gen 0 (95%)");
  for (const std::string& name : lineage.references)
    out += fmt::format("{:<22} ", "Elo vs " + name);
  out += "reason\n";
  for (size_t i = 0; i < lineage.rows.size(); ++i) {
    const LineageRow& r = lineage.rows[i];
    const uint64_t gate_games = r.wins + r.draws + r.losses;
    out += fmt::format("{:>4}  {:<8} {:>6} {:>6}  {:<22} {:<22} ", r.generation,
                       verdict_name(static_cast<Verdict>(r.verdict)), r.champion,
                       gate_games ? std::to_string(gate_games) : "",
                       elo_text(r.elo, r.elo_lo, r.elo_hi),
                       elo_text(r.anchor_elo, r.anchor_elo_lo, r.anchor_elo_hi));
    for (size_t k = 0; k < lineage.references.size(); ++k) {
      const double* v = lineage.reference_values.at(i).data() + k * kReferenceColumns;
      out += fmt::format("{:<22} ", elo_text(v[1], v[2], v[3]));
    }
    out += reason_of(r) + "\n";
  }
  return out;
}

double cpu_seconds_now() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

namespace loop_detail {

void LoopProgress::step_done(const char* step, const std::string& what) {
  const double in_gen = seconds_since(gen_start_);
  std::string eta;
  if (done_ > 0) {
    const double mean = total_ / done_;
    const double gen_left = std::max(0.0, mean - in_gen);
    const double loop_left = gen_left + mean * (last_ > g_ ? last_ - g_ : 0);
    eta = fmt::format("; ETA generation {}, loop {}", duration_text(gen_left),
                      duration_text(loop_left));
  } else {
    eta = "; ETA after the first generation";
  }
  log::info(fmt::format("gen {}/{} {}: {} ({} into the generation{})", g_, last_, step, what,
                        duration_text(in_gen), eta));
  (void)first_;
}

}  // namespace loop_detail
}  // namespace sp::improve
