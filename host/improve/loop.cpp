#include "host/improve/loop.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "host/common/atomic_file.hpp"
#include "host/selfplay/campaign.hpp"

namespace sp::improve {

uint64_t step_seed(uint64_t seed, uint32_t generation, Step step) {
  uint64_t x = splitmix64(seed);
  x = splitmix64(x ^ generation);
  return splitmix64(x ^ static_cast<uint64_t>(step));
}

std::string weights_hash(const std::vector<double>& w) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const double v : w) {
    for (const char ch : fmt::format("{};", v)) {
      h ^= static_cast<unsigned char>(ch);
      h *= 0x100000001b3ull;
    }
  }
  return fmt::format("{:016x}", h);
}

std::string generation_dir(const std::string& dir, uint32_t generation) {
  return fmt::format("{}/gen-{:03}", dir, generation);
}

std::string weights_file(const std::string& dir, uint32_t generation) {
  return generation_dir(dir, generation) + (generation == 0 ? "/weights.yaml" : "/candidate.yaml");
}

std::string loop_identity(const std::string& explain_all, const std::vector<std::string>& names,
                          const std::vector<double>& initial_weights) {
  YAML::Node tree = YAML::Load(explain_all);
  tree.remove("stop");
  if (tree["selfplay"]) tree["selfplay"].remove("backend");
  YAML::Node values;
  for (size_t i = 0; i < names.size() && i < initial_weights.size(); ++i)
    values[names[i]] = fmt::format("{}", initial_weights[i]);
  // The engines that follow the champion name its file; the file's path does not matter.
  const std::string initial_path = tree["champion"]["weights"].as<std::string>("");
  for (const char* p : {"player0", "player1"}) {
    YAML::Node e = tree["selfplay"]["engines"][p];
    if (e && e["weights"] && e["weights"].as<std::string>("") == initial_path)
      e["weights"] = "champion";
  }
  tree["champion"]["weights"] = values;
  return selfplay::emit_identity(tree);
}

namespace {

YAML::Node child(const YAML::Node& node, const std::string& key) {
  return node.IsMap() && node[key] ? node[key] : YAML::Node(YAML::NodeType::Undefined);
}

// Removes from `now` the keys `old` lacks whose value is the one `defaults` has there.
void drop_new_defaults(YAML::Node now, const YAML::Node& old, const YAML::Node& defaults) {
  if (!now.IsMap()) return;
  std::vector<std::string> drop;
  for (auto kv : now) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Node o = child(old, key), d = child(defaults, key);
    if (!o.IsDefined()) {
      if (d.IsDefined() && YAML::Dump(d) == YAML::Dump(kv.second)) drop.push_back(key);
    } else if (kv.second.IsMap()) {
      drop_new_defaults(kv.second, o, d);
    }
  }
  for (const std::string& key : drop) now.remove(key);
}

}  // namespace

std::string loop_identity_difference(const std::string& stored, const std::string& current,
                                     const std::string& defaults) {
  YAML::Node now = YAML::Load(current);
  drop_new_defaults(now, YAML::Load(stored), YAML::Load(defaults));
  return selfplay::identity_difference(stored, selfplay::emit_identity(now));
}

bool claim_loop_dir(const std::string& dir, bool resume) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir, ec))
    throw InputError(dir + " exists and is not a directory: --out names the loop's directory");
  const bool has_lineage = exists && fs::exists(dir + "/lineage.h5", ec);
  if (!resume) {
    if (exists && !fs::is_empty(dir, ec))
      throw InputError(dir + " exists and is not empty: continue its loop with --resume, or give " +
                       "another --out");
    fs::create_directories(dir, ec);
    if (ec) throw InputError("cannot create " + dir + ": " + ec.message());
    return false;
  }
  if (!exists) throw InputError("--resume: " + dir + " does not exist (start the loop without it)");
  if (has_lineage) return true;
  // A start cut short before its lineage was written leaves at most these (and the temporary
  // files of the writes it was in: lineage.h5.tmp, improve.yaml.tmp-XXXXXX).
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "improve.yaml" && name != "gen-000" && name != "lineage.h5.tmp" &&
        name.rfind("improve.yaml.tmp", 0) != 0)
      throw InputError("--resume: " + dir + " has no lineage.h5 but holds " + name +
                       ": not a loop's directory");
  }
  return false;
}

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

std::string duration_text(double s) {
  if (!(s >= 0) || !std::isfinite(s)) return "?";
  const auto t = static_cast<uint64_t>(s + 0.5);
  if (t < 60) return fmt::format("{}s", t);
  if (t < 3600) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}h{:02}m", t / 3600, t / 60 % 60);
}

}  // namespace

std::string format_lineage_table(const Lineage& lineage) {
  std::string out =
      fmt::format("{:>4}  {:<8} {:>6} {:>6}  {:<22} {:<22} {}\n", "gen", "verdict", "champ",
                  "games", "Elo vs champion (95%)", "Elo vs gen 0 (95%)", "reason");
  for (const LineageRow& r : lineage.rows) {
    const uint64_t gate_games = r.wins + r.draws + r.losses;
    out += fmt::format("{:>4}  {:<8} {:>6} {:>6}  {:<22} {:<22} {}\n", r.generation,
                       verdict_name(static_cast<Verdict>(r.verdict)), r.champion,
                       gate_games ? std::to_string(gate_games) : "",
                       elo_text(r.elo, r.elo_lo, r.elo_hi),
                       elo_text(r.anchor_elo, r.anchor_elo_lo, r.anchor_elo_hi), reason_of(r));
  }
  return out;
}

uint32_t trailing_rejections(const Lineage& lineage) {
  uint32_t n = 0;
  for (auto it = lineage.rows.rbegin(); it != lineage.rows.rend(); ++it) {
    if (static_cast<Verdict>(it->verdict) != Verdict::kReject) break;
    ++n;
  }
  return n;
}

std::string stop_reason(const Lineage& lineage, const StopSettings& stop) {
  const size_t finished = lineage.rows.empty() ? 0 : lineage.rows.size() - 1;
  if (finished >= stop.generations)
    return fmt::format("generations: {} of {} played", finished, stop.generations);
  if (stop.rejections > 0 && trailing_rejections(lineage) >= stop.rejections)
    return fmt::format("rejections: {} candidates in a row rejected", stop.rejections);
  if (stop.wall_seconds > 0) {
    double wall = 0;
    for (const LineageRow& r : lineage.rows) wall += r.wall_seconds;
    if (wall >= stop.wall_seconds)
      return fmt::format("wall clock: {} of {} used", duration_text(wall),
                         duration_text(stop.wall_seconds));
  }
  return "";
}

double cpu_seconds_now() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

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

void write_text_file(const std::string& path, const std::string& text) {
  write_file_atomically(path, text);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError("cannot read " + path);
  return ss.str();
}

std::string tune_yaml(const std::string& game, uint64_t seed,
                      const std::vector<std::string>& inputs, const DataSettings& data,
                      const TuneSettings& tune, const std::string& initial,
                      const std::string& output, const std::string& name, const std::string& log) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "game" << YAML::Value << game;
  y << YAML::Key << "method" << YAML::Value << "texel";
  y << YAML::Key << "seed" << YAML::Value << seed;
  y << YAML::Key << "data" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
  for (const std::string& in : inputs) y << in;
  y << YAML::EndSeq;
  y << YAML::Key << "validation_fraction" << YAML::Value << data.validation_fraction;
  y << YAML::Key << "positions_per_game" << YAML::Value << data.positions_per_game;
  y << YAML::EndMap;
  y << YAML::Key << "weights" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "initial" << YAML::Value << initial;
  y << YAML::Key << "output" << YAML::Value << output;
  y << YAML::Key << "name" << YAML::Value << name;
  y << YAML::Key << "tune" << YAML::Value;
  if (tune.features.empty()) {
    y << "all";
  } else {
    y << YAML::Flow << YAML::BeginSeq;
    for (const std::string& f : tune.features) y << f;
    y << YAML::EndSeq;
  }
  y << YAML::EndMap;
  y << YAML::Key << "texel" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "optimizer" << YAML::Value
    << (tune.optimizer == tune::Optimizer::kAdam ? "adam" : "gd");
  y << YAML::Key << "loss" << YAML::Value << (tune.loss == tune::Loss::kMse ? "mse" : "logloss");
  y << YAML::Key << "learning_rate" << YAML::Value << fmt::format("{}", tune.learning_rate);
  y << YAML::Key << "epochs" << YAML::Value << tune.epochs;
  y << YAML::Key << "l2" << YAML::Value << fmt::format("{}", tune.l2);
  y << YAML::Key << "log" << YAML::Value << log;
  y << YAML::EndMap;
  y << YAML::EndMap;
  return std::string(
             "# The fit of one generation of selfplay improve (rerun: selfplay tune "
             "THIS_FILE).\n") +
         y.c_str() + "\n";
}

std::string spsa_yaml(const std::string& game, uint64_t seed, const SpsaStepSettings& spsa,
                      const std::vector<double>& start, const std::string& gdir) {
  const auto real = [](double v) { return config::detail::format_real(v); };
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "game" << YAML::Value << game;
  y << YAML::Key << "method" << YAML::Value << "spsa";
  y << YAML::Key << "seed" << YAML::Value << seed;
  y << YAML::Key << "spsa" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "match" << YAML::Value << gdir + "/spsa-match.yaml";
  y << YAML::Key << "iterations" << YAML::Value << spsa.iterations;
  y << YAML::Key << "pairs" << YAML::Value << spsa.pairs;
  y << YAML::Key << "mirror" << YAML::Value << spsa.mirror;
  y << YAML::Key << "A" << YAML::Value << real(spsa.big_a);
  y << YAML::Key << "alpha" << YAML::Value << real(spsa.alpha);
  y << YAML::Key << "gamma" << YAML::Value << real(spsa.gamma);
  y << YAML::Key << "output" << YAML::Value << gdir + "/spsa.h5";
  y << YAML::Key << "result" << YAML::Value << gdir + "/spsa-result.yaml";
  y << YAML::Key << "parameters" << YAML::Value << YAML::BeginSeq;
  for (size_t i = 0; i < spsa.parameters.size(); ++i) {
    const tune::SpsaParamConfig& p = spsa.parameters[i];
    y << YAML::Flow << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << p.name;
    y << YAML::Key << "start" << YAML::Value << real(start.at(i));
    y << YAML::Key << "min" << YAML::Value << real(p.min);
    y << YAML::Key << "max" << YAML::Value << real(p.max);
    y << YAML::Key << "c_end" << YAML::Value << real(p.c_end);
    y << YAML::Key << "r_end" << YAML::Value << real(p.r_end);
    y << YAML::EndMap;
  }
  y << YAML::EndSeq;
  y << YAML::EndMap;
  y << YAML::EndMap;
  return std::string(
             "# The SPSA step of one generation of selfplay improve (rerun: selfplay tune "
             "THIS_FILE).\n") +
         y.c_str() + "\n";
}

std::string engine_keys_yaml(uint32_t champion, const std::vector<std::string>& keys,
                             const std::vector<double>& values) {
  std::string out = fmt::format(
      "# The engine keys of the champion (generation {}) that tune.spsa tunes: add them to the "
      "engine\n# that reads champion.yaml.\n",
      champion);
  for (size_t i = 0; i < keys.size(); ++i)
    out += keys[i] + ": " + config::detail::format_real(values.at(i)) + "\n";
  return out;
}

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

uint64_t file_rollouts(const std::string& path) {
  // The plies of complete games, not /perf: a resumed run replays the games a kill cut short, whose
  // batches /perf counts twice.
  const io::CampaignReader reader(path);
  constexpr uint64_t kChunk = 1 << 20;
  uint64_t n = 0;
  for (uint64_t first = 0; first < reader.plies_count(); first += kChunk)
    for (const io::PlyRow& p : reader.plies(first, kChunk)) n += p.rollouts;
  return n;
}

}  // namespace loop_detail
}  // namespace sp::improve
