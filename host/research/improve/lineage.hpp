// DIR/lineage.h5 of `selfplay improve`: one row per generation in /lineage, the candidate's
// weights row for row in /weights (float32, one column per feature, the names in the
// `features` attribute), with tune.spsa the candidate's engine keys row for row in /engine
// (float64, one column per key, the names in its `keys` attribute), with gate.references the
// champion's results against each reference row for row in /references (float64, columns pairs,
// elo, elo_lo, elo_hi per reference, NaN where not measured, the names in its `names` attribute),
// the loop's effective config
// and game as root attributes. The file is
// rewritten whole after each generation (a temporary file installed by rename), so it always holds
// every finished generation and nothing else; the loop resumes from it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace sp::improve {

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

enum class Verdict : uint8_t { kInitial = 0, kAccept = 1, kReject = 2 };
const char* verdict_name(Verdict v);  // "initial", "accept", "reject"

struct LineageRow {
  uint32_t generation = 0;
  uint32_t parent = 0;         // the champion the candidate was made from and gated against
  uint32_t champion = 0;       // the champion after this generation (itself when accepted)
  char weights_hash[17] = {};  // fnv1a64 of the candidate's weight values, 16 hex digits
  uint64_t games = 0;          // of this generation's campaign
  uint64_t rollouts = 0;       // summed over its moves
  uint64_t train_positions = 0, validation_positions = 0;  // of the fit (the whole window)
  double k = kNotMeasured;                                 // Texel's K
  double train_loss_before = kNotMeasured, train_loss = kNotMeasured;
  double validation_loss_before = kNotMeasured, validation_loss = kNotMeasured;
  // The gate (candidate A against champion B): games, pentanomial counts, LLR with its bounds.
  uint64_t wins = 0, draws = 0, losses = 0;
  uint64_t penta[5] = {};  // LL, LD, WL+DD, WD, WW
  double llr = 0, llr_lower = 0, llr_upper = 0;
  uint8_t verdict = 0;  // Verdict
  char reason[120] = {};
  double elo = kNotMeasured, elo_lo = kNotMeasured, elo_hi = kNotMeasured;  // 95%, pentanomial
  // The anchor match of the champion after this generation against generation 0, where one was
  // played (NaN otherwise; 0 with 0 pairs when the champion is generation 0).
  uint64_t anchor_pairs = 0;
  double anchor_elo = kNotMeasured, anchor_elo_lo = kNotMeasured, anchor_elo_hi = kNotMeasured;
  double cpu_seconds = 0, wall_seconds = 0;  // of this generation, every run of it summed
};

// Columns of the table as the notebook reads them (name order of the compound type).
std::vector<std::string> lineage_columns();

struct Lineage {
  std::string game;
  std::string config_text;  // the loop's effective config (explain, all keys)
  std::string identity;     // what a resume must match (see improve.hpp)
  std::vector<std::string> features;
  std::vector<LineageRow> rows;
  std::vector<std::vector<double>> weights;  // per row: the candidate's (row 0: generation 0's)
  // tune.spsa: the champion engine's keys it tunes, and per row the candidate's values (row 0:
  // the champion engine's as configured). Empty without tune.spsa.
  std::vector<std::string> engine_keys;
  std::vector<std::vector<double>> engine_values;
  // gate.references: their names, and per row the champion's results against each (after that
  // generation): kReferenceColumns values per reference, NaN where not measured. Empty without.
  std::vector<std::string> references;
  std::vector<std::vector<double>> reference_values;
};

// pairs, elo, elo_lo, elo_hi: the columns of /references per reference.
inline constexpr size_t kReferenceColumns = 4;
std::vector<std::string> reference_columns(const std::vector<std::string>& names);
// A row of /references with nothing measured.
std::vector<double> unmeasured_references(size_t count);

// Writes the whole lineage to path through `path.tmp` and io::install_file. Throws H5Error or
// std::runtime_error when the disk refuses (the old file stays).
void write_lineage(const std::string& path, const Lineage& lineage);
// Reads a lineage written by write_lineage. Throws sp::InputError naming the file when it is not
// one.
Lineage read_lineage(const std::string& path);

void set_reason(LineageRow& row, const std::string& reason);  // truncated to fit
std::string reason_of(const LineageRow& row);

}  // namespace sp::improve
