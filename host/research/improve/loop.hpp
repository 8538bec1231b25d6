// `selfplay improve`: the research loop. Each generation plays a self-play campaign with the
// champion's weights, fits a candidate to the positions of the last `data.window` campaigns
// (Texel), gates it against the champion in an SPRT match, and keeps it only when the SPRT accepts
// H1. Every `gate.anchor_every` generations and at the end the champion plays generation 0 on a
// fixed anchor match. What a generation wrote lives in DIR/gen-NNN/; DIR/lineage.h5 has a row per
// finished generation and DIR/champion.yaml the current best weights.
//
// Every step is a file the existing commands understand (campaign.yaml, tune.yaml, gate.yaml,
// anchor.yaml with their outputs), written before the step runs, so a researcher can rerun or
// inspect any of them. Seeds derive from (seed, generation, step) alone, and a resumed step
// continues its own file (campaigns and matches resume; a fit is rerun, it is deterministic), so a
// loop killed at any moment and resumed writes the same lineage, weights and records as one that
// ran through.
#pragma once

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/config/schema.hpp"
#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/game_host.hpp"
#include "host/base/system/log.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/load.hpp"
#include "host/play/ranks/campaign_ranks.hpp"
#include "host/play/ranks/match_ranks.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/match.hpp"
#include "host/research/improve/gate.hpp"
#include "host/research/improve/improve_config.hpp"
#include "host/research/improve/improve_options.hpp"
#include "host/research/improve/lineage.hpp"
#include "host/research/improve/loop_ranks.hpp"
#include "host/research/improve/progress.hpp"
#include "host/research/improve/steps.hpp"
#include "host/research/tune/tune_config.hpp"
#include "host/research/tune/tune_run.hpp"

namespace sp::improve {

struct ImproveResult {
  Lineage lineage;
  bool interrupted = false;
  std::string stopped_by;  // why the loop ended: "generations", "rejections", "wall clock"
  std::string summary;     // the closing table
};

// What a resume must match: the effective config (every key) without backend and stop, whose
// values change how fast the loop runs or how long, not what it computes; the champion's weights
// given by their values; gate.references by their engines (name, explain_reference's YAML), not
// their files' paths. selfplay::identity_difference names the first key that differs.
std::string loop_identity(const std::string& explain_all, const std::vector<std::string>& names,
                          const std::vector<double>& initial_weights,
                          const std::vector<std::pair<std::string, std::string>>& references = {});

// selfplay::identity_difference of a stored loop identity and the current one, where keys the
// stored one lacks (added by a later version) count as equal when they hold their default (the
// identity of a default config): the loop then computes what it did when it started.
std::string loop_identity_difference(const std::string& stored, const std::string& current,
                                     const std::string& defaults);

// Claims DIR for the loop: refuses an existing, non-empty DIR without resume and a resume of a DIR
// without lineage.h5 (unless it holds only a start cut short: improve.yaml and gen-000); creates
// it. Returns whether a lineage is there to continue. Throws InputError.
bool claim_loop_dir(const std::string& dir, bool resume);

// Why the loop stops before playing generation rows.size() (stop keys and --generations), or "".
std::string stop_reason(const Lineage& lineage, const StopSettings& stop);

// Consecutive rejections at the end of the lineage.
uint32_t trailing_rejections(const Lineage& lineage);

// The effective configuration of a loop: its config, with the backend overrides of options.
template <HostGame G>
ImproveConfig<G> with_overrides(ImproveConfig<G> c, const ImproveOptions& options) {
  selfplay::RunOptions run;
  run.backend = options.backend;
  run.threads = options.threads;
  run.device = options.device;
  selfplay::apply_overrides(c.selfplay, run);
  c.gate.backend = c.selfplay.backend;
  if (options.generations) c.stop.generations = *options.generations;
  return c;
}

// Runs (or, with options.resume, continues) the loop of config c in options.out. stop
// (SIGINT/SIGTERM/SIGHUP) ends it at the next point a step can stop cleanly; the result is then
// interrupted and --resume continues it. Throws InputError for a DIR that exists without resume
// (and the reverse), a resume with another config (naming the key), and the errors of the steps.
template <HostGame G>
ImproveResult run_improve(const ImproveConfig<G>& c, const ImproveOptions& options,
                          const std::atomic<bool>& stop) {
  namespace fs = std::filesystem;
  using namespace loop_detail;
  ImproveResult result;
  if constexpr (!FeatureGame<G>) {
    throw InputError(std::string(G::kName) + " has no evaluation features: nothing to improve");
  } else {
    const std::string dir = fs::absolute(options.out).lexically_normal().string();
    const std::string lineage_path = dir + "/lineage.h5";
    const std::string champion_path = dir + "/champion.yaml";
    const std::string initial_source = c.gate.engines[0].weights;
    std::vector<std::string> names;
    for (const std::string_view f : G::feature_names()) names.emplace_back(f);
    const eval::Weights initial = eval::load_weights<G>(initial_source);
    std::vector<std::string> reference_names;
    std::vector<std::pair<std::string, std::string>> reference_engines;
    for (const Reference<G>& r : c.references) {
      reference_names.push_back(r.name);
      reference_engines.emplace_back(r.name, detail::explain_reference(r));
    }
    const size_t n_refs = c.references.size();
    const std::string identity =
        loop_identity(explain_improve_config(c, true), names, initial.w, reference_engines);

    const bool have_lineage = claim_loop_dir(dir, options.resume);
    Lineage& lineage = result.lineage;
    if (have_lineage) {
      lineage = read_lineage(lineage_path);
      if (lineage.game != G::kName)
        throw InputError(lineage_path + " is a loop of " + lineage.game + ", this config plays " +
                         G::kName);
      if (lineage.features != names)
        throw InputError(fmt::format(
            "cannot resume {}: its lineage weighs {} features, this build's {} has {} (features "
            "were added since it started); start a new loop from its champion's weights",
            dir, lineage.features.size(), G::kName, names.size()));
      ImproveConfig<G> defaults{};
      improve_config_schema<G>().apply_defaults(defaults);
      const std::string default_identity =
          loop_identity(explain_improve_config(defaults, true), names, initial.w);
      if (const std::string diff =
              loop_identity_difference(lineage.identity, identity, default_identity);
          !diff.empty())
        throw InputError("cannot resume " + dir + ": the config differs from the loop's at " +
                         diff + " (a resumed loop must compute what it started)");
      log::info(fmt::format("resume: {} finished generations in {}", lineage.rows.size() - 1,
                            lineage_path));
    } else {
      // Generation 0: the initial weights, copied so that the loop never reads them again.
      fs::create_directories(generation_dir(dir, 0));
      write_text_file(dir + "/improve.yaml", explain_improve_config(c));
      write_text_file(weights_file(dir, 0), read_text_file(initial_source));
      lineage.game = G::kName;
      lineage.config_text = explain_improve_config(c, true);
      lineage.identity = identity;
      lineage.features = names;
      LineageRow row;
      set_reason(row, "initial weights " + initial_source);
      const std::string hash =
          weights_hash(initial.w, initial.move_scores, eval::move_score_spec<G>().defaults);
      std::snprintf(row.weights_hash, sizeof row.weights_hash, "%s", hash.c_str());
      row.anchor_elo = row.anchor_elo_lo = row.anchor_elo_hi = 0;
      lineage.rows.push_back(row);
      lineage.weights.push_back(initial.w);
      lineage.engine_keys = spsa_keys(c);
      if (!lineage.engine_keys.empty())
        lineage.engine_values.push_back(configured_engine_values(c));
      lineage.references = reference_names;
      if (n_refs) lineage.reference_values.push_back(unmeasured_references(n_refs));
      write_lineage(lineage_path, lineage);
    }
    if (lineage.references != reference_names)  // the identity compares them: a damaged file
      throw InputError(lineage_path + ": its /references are not gate.references");
    const std::vector<std::string>& key_names = lineage.engine_keys;
    if (key_names != spsa_keys(c))  // the identity compares the config: only a damaged file
      throw InputError(lineage_path + ": its /engine keys are not tune.spsa's parameters");
    // Generation k as a side of a match: its weights file and key values.
    const auto side = [&](uint32_t k) {
      return Side{weights_file(dir, k),
                  key_names.empty() ? std::vector<double>{} : lineage.engine_values.at(k)};
    };
    // champion.yaml follows the lineage. A loop killed between the two writes left the previous
    // champion's file there, which is replaced; any other content was edited by hand: refused, as
    // is a generation's weights file whose values are not the lineage's.
    // With tune.spsa, champion-engine.yaml beside it holds the champion's engine keys.
    const auto publish_champion = [&] {
      const uint32_t champion = lineage.rows.back().champion;
      // Compared by values: a comment or a number written another way is not a change.
      if (!fs::exists(champion_path) ||
          !weights_file_holds<G>(champion_path, lineage.weights.at(champion)))
        write_text_file(champion_path, read_text_file(weights_file(dir, champion)));
      if (!key_names.empty()) {
        const std::string keys =
            engine_keys_yaml(champion, key_names, lineage.engine_values.at(champion));
        const std::string keys_path = dir + "/champion-engine.yaml";
        if (!fs::exists(keys_path) || read_text_file(keys_path) != keys)
          write_text_file(keys_path, keys);
      }
    };
    if (have_lineage) {
      const uint32_t champion = lineage.rows.back().champion;
      check_weights_file<G>(weights_file(dir, champion), lineage.weights.at(champion));
      check_weights_file<G>(weights_file(dir, 0), lineage.weights.at(0));  // the anchors' side
      const uint32_t previous =
          lineage.rows.size() >= 2 ? lineage.rows[lineage.rows.size() - 2].champion : champion;
      if (fs::exists(champion_path)) {
        const auto holds = [&](uint32_t k) {
          try {
            return weights_file_holds<G>(champion_path, lineage.weights.at(k));
          } catch (const InputError&) {
            return false;  // not a weights file any more
          }
        };
        if (!holds(champion) && !holds(previous))
          throw InputError("cannot resume " + dir + ": " + champion_path +
                           " is not the weights of generation " + std::to_string(champion) + " (" +
                           weights_file(dir, champion) +
                           ") the lineage names: edited by hand? Restore it from that file");
      }
    }
    publish_champion();

    const auto g_first = static_cast<uint32_t>(lineage.rows.size());
    LoopProgress progress(g_first, c.stop.generations);
    while (!stop) {
      result.stopped_by = stop_reason(lineage, c.stop);
      if (!result.stopped_by.empty()) break;
      const auto g = static_cast<uint32_t>(lineage.rows.size());
      const uint32_t parent = lineage.rows.back().champion;
      const std::string gdir = generation_dir(dir, g);
      fs::create_directories(gdir);
      progress.start_generation(g);
      const double cpu0 = cpu_seconds_now();
      const auto wall0 = Clock::now();
      LineageRow row;
      std::vector<double> row_refs = unmeasured_references(n_refs);  // the champion's
      row.generation = g;
      row.parent = parent;
      row.champion = parent;
      const std::string parent_file = weights_file(dir, parent);
      const auto parent_weights =
          std::make_shared<const eval::Weights>(eval::load_weights<G>(parent_file));
      // The fit reads the campaigns of earlier generations too: one that is gone is said now,
      // before this generation's campaign is played for nothing.
      for (uint32_t k = g >= c.data.window ? g - c.data.window + 1 : 1; k < g; ++k)
        if (const std::string earlier = generation_dir(dir, k) + "/campaign.h5";
            !fs::is_regular_file(earlier))
          throw InputError("cannot continue " + dir + ": " + earlier +
                           ", which the fit of generation " + std::to_string(g) +
                           " reads (data.window " + std::to_string(c.data.window) +
                           "), is missing; restore it, or start a new loop");

      // 1. Self-play with the champion's weights where the engines use the initial ones.
      config::Config<G> campaign = c.selfplay;
      campaign.seed = step_seed(c.seed, g, Step::kCampaign);
      campaign.output.path = gdir + "/campaign.h5";
      for (int p = 0; p < 2; ++p) {
        config::EngineConfig& e = campaign.engines[p];
        if (e.weights.empty() || e.weights != initial_source) continue;
        e.weights = parent_file;
        e.evaluation = parent_weights;
        // The champion engine's own type plays with the champion's tuned keys too.
        if (e.type == c.gate.engines[0].type)
          set_engine_keys<G>(campaign, p, key_names, side(parent).keys);
      }
      write_text_file(gdir + "/campaign.yaml", config::explain_campaign_config<G>(campaign));
      {
        const selfplay::RunResult r = campaign_step<G>(
            campaign, gdir + "/campaign.yaml", fs::exists(campaign.output.path), options, stop);
        if (r.interrupted) {
          result.interrupted = true;
          break;
        }
        row.games = r.games_in_file;
        row.rollouts = file_rollouts(campaign.output.path);
        progress.step_done("campaign",
                           fmt::format("{} games, {} rollouts", row.games, row.rollouts));
      }

      // 2. The fit: the window's campaigns, starting from the champion.
      std::vector<std::string> inputs;
      for (uint32_t k = g >= c.data.window ? g - c.data.window + 1 : 1; k <= g; ++k)
        inputs.push_back(generation_dir(dir, k) + "/campaign.h5");
      const std::string candidate_path = weights_file(dir, g);
      write_text_file(gdir + "/tune.yaml",
                      tune_yaml(G::kName, step_seed(c.seed, g, Step::kTune), inputs, c.data, c.tune,
                                parent_file, candidate_path, fmt::format("gen-{:03}", g),
                                gdir + "/tune-losses.csv"));
      bool fitted = false, diverged = false;
      // The move-score fit's validation loss before and after (tune.move_scores.fit), else NaN.
      double table_loss_before = std::nan(""), table_loss = std::nan("");
      {
        const tune::TuneConfig tc = tune::load_tune_config(gdir + "/tune.yaml");
        std::FILE* log_file = std::fopen((gdir + "/tune.log").c_str(), "w");
        if (!log_file) throw std::runtime_error("cannot write " + gdir + "/tune.log");
        try {
          const tune::TuneReport report = tune::run_tune(tc, log_file);
          std::fclose(log_file);
          row.train_positions = report.train_positions;
          row.validation_positions = report.validation_positions;
          row.k = report.k.k;
          row.train_loss_before = report.result.before.train_loss;
          row.train_loss = report.result.after.train_loss;
          row.validation_loss_before = report.result.before.validation_loss;
          row.validation_loss = report.result.after.validation_loss;
          if (report.fitted_move_scores && !report.fitted_move_scores->result.history.empty()) {
            const auto& history = report.fitted_move_scores->result.history;
            table_loss_before = history.front().validation.loss;
            table_loss = history.back().validation.loss;
          }
          fitted = true;
        } catch (const tune::TuneDiverged& e) {
          std::fclose(log_file);
          diverged = true;
          row.verdict = static_cast<uint8_t>(Verdict::kReject);
          set_reason(row, std::string("fit diverged: ") + e.what());
        } catch (...) {
          std::fclose(log_file);
          throw;
        }
      }
      std::vector<double> candidate(names.size(), std::nan(""));
      if (fitted) {
        const eval::Weights fit = eval::load_weights<G>(candidate_path);
        candidate = fit.w;
        const std::string hash =
            weights_hash(candidate, fit.move_scores, eval::move_score_spec<G>().defaults);
        std::snprintf(row.weights_hash, sizeof row.weights_hash, "%s", hash.c_str());
        const std::string why = fit_rejection(
            FitChange{candidate != parent_weights->w,
                      fit.move_scores != parent_weights->move_scores, row.validation_loss_before,
                      row.validation_loss, table_loss_before, table_loss},
            c.tune.require_validation_gain);
        if (!why.empty()) {
          fitted = false;
          row.verdict = static_cast<uint8_t>(Verdict::kReject);
          set_reason(row, why);
        }
      }
      progress.step_done("tune", fitted
                                     ? fmt::format("{} positions, validation loss {:.6f} -> "
                                                   "{:.6f}",
                                                   row.train_positions, row.validation_loss_before,
                                                   row.validation_loss)
                                     : reason_of(row));

      // 2b. SPSA of the champion engine's keys (tune.spsa), with the weights the gate will play:
      // the fit's, or the champion's when the fit was rejected (the candidate is then the
      // champion's weights with new keys). A diverged fit rejects the generation without it.
      std::vector<double> candidate_keys = side(parent).keys;
      if (!key_names.empty() && !diverged) {
        if (stop) break;
        if (!fitted) {
          write_text_file(candidate_path, read_text_file(parent_file));
          candidate = parent_weights->w;
          const std::string hash = weights_hash(candidate, parent_weights->move_scores,
                                                eval::move_score_spec<G>().defaults);
          std::snprintf(row.weights_hash, sizeof row.weights_hash, "%s", hash.c_str());
        }
        const std::optional<std::vector<double>> tuned =
            spsa_step<G>(c, g, gdir, candidate_path, candidate_keys, stop);
        if (!tuned) {
          result.interrupted = true;
          break;
        }
        std::string moved;
        for (size_t i = 0; i < key_names.size(); ++i)
          moved += fmt::format("{}{} {} -> {}", i ? ", " : "", key_names[i],
                               config::detail::format_real(candidate_keys[i]),
                               config::detail::format_real((*tuned)[i]));
        const bool changed = *tuned != candidate_keys;
        candidate_keys = *tuned;
        progress.step_done("spsa", changed ? moved : "every key as it was: " + moved);
        if (changed) fitted = true;  // something to gate
      }

      // 3. The gate: candidate (A) against champion (B), SPRT. (A stop during the fit ends the loop
      // here: a resume fits again, deterministically.)
      if (stop) break;
      if (fitted) {
        const GateOutcome gate = gate_candidate<G>(c, step_seed(c.seed, g, Step::kGate),
                                                   {candidate_path, candidate_keys}, side(parent),
                                                   gdir + "/gate", options, stop);
        if (gate.match.interrupted) {
          result.interrupted = true;
          break;
        }
        set_gate_columns(row, gate.match);
        row.verdict = static_cast<uint8_t>(gate.verdict);
        if (gate.verdict == Verdict::kAccept) row.champion = g;
        set_reason(row, gate.reason);
        progress.step_done(
            "gate", fmt::format("{} {:+.1f} Elo [{:+.1f}, {:+.1f}]: {}", verdict_name(gate.verdict),
                                row.elo, row.elo_lo, row.elo_hi, gate.reason));

        // 3b. The anchor guard: an accepted candidate must also hold its parent's level against
        // generation 0 and every reference (the gauntlet), on the anchor's games. Both sides'
        // results go in the row's anchor and reference columns (the champion's after this
        // generation), so no anchor match repeats them.
        if (gate.verdict == Verdict::kAccept && c.anchor.guard) {
          const Side candidate_side{candidate_path, candidate_keys};
          LineageRow parent_anchor, candidate_anchor;
          std::vector<double> parent_refs = unmeasured_references(n_refs);
          std::vector<double> candidate_refs = parent_refs;
          bool interrupted = false;
          if (parent == 0) {
            parent_anchor.anchor_elo = parent_anchor.anchor_elo_lo = parent_anchor.anchor_elo_hi =
                0;
          } else if (!reuse_anchor(lineage, parent, c.anchor.pairs, parent_anchor)) {
            const selfplay::MatchResult r =
                anchor_match<G>(c, side(parent), side(0), gdir + "/guard-parent", options, stop);
            interrupted = r.interrupted;
            if (!interrupted) set_anchor_columns(parent_anchor, r);
          }
          if (!interrupted) {
            const selfplay::MatchResult r =
                anchor_match<G>(c, candidate_side, side(0), gdir + "/guard", options, stop);
            interrupted = r.interrupted;
            if (!interrupted) set_anchor_columns(candidate_anchor, r);
          }
          for (size_t k = 0; k < n_refs && !interrupted; ++k) {
            const Reference<G>& ref = c.references[k];
            if (!reuse_reference(lineage, parent, k, c.anchor.pairs, parent_refs)) {
              const selfplay::MatchResult r = reference_match<G>(
                  c, side(parent), ref, gdir + "/guard-parent-" + ref.name, options, stop);
              interrupted = r.interrupted;
              if (interrupted) break;
              set_reference_columns(parent_refs, k, r);
            }
            const selfplay::MatchResult r = reference_match<G>(
                c, candidate_side, ref, gdir + "/guard-" + ref.name, options, stop);
            interrupted = r.interrupted;
            if (!interrupted) set_reference_columns(candidate_refs, k, r);
          }
          if (interrupted) {
            result.interrupted = true;
            break;
          }
          std::vector<GuardEntry> entries{
              {"generation 0", candidate_anchor.anchor_elo, candidate_anchor.anchor_elo_lo,
               candidate_anchor.anchor_elo_hi, parent_anchor.anchor_elo}};
          for (size_t k = 0; k < n_refs; ++k) {
            const double* v = candidate_refs.data() + k * kReferenceColumns;
            entries.push_back(
                {c.references[k].name, v[1], v[2], v[3], parent_refs[k * kReferenceColumns + 1]});
          }
          const bool kept = apply_guard(row, entries, c.anchor.guard_margin, gate.reason);
          copy_anchor_columns(kept ? candidate_anchor : parent_anchor, row);
          row_refs = kept ? candidate_refs : parent_refs;
          std::string results;
          for (const GuardEntry& e : entries)
            results += (results.empty() ? "" : ", ") + guard_text(e);
          progress.step_done("guard", fmt::format("{} ({}, margin {})", kept ? "kept" : "rejected",
                                                  results, c.anchor.guard_margin));
        }
      }

      // 4. The anchor: the champion after this generation against generation 0.
      Lineage next = lineage;
      next.rows.push_back(row);
      const bool anchor_due =
          (c.anchor.every > 0 && g % c.anchor.every == 0) || !stop_reason(next, c.stop).empty();
      bool references_due = false;
      for (size_t k = 0; k < n_refs && anchor_due; ++k)
        references_due |= !reference_measured(row_refs, k, c.anchor.pairs) &&
                          !reuse_reference(lineage, row.champion, k, c.anchor.pairs, row_refs);
      if (anchor_due && (std::isnan(row.anchor_elo) || references_due)) {
        if (stop) break;
        const Side champion =
            row.champion == g ? Side{candidate_path, candidate_keys} : side(row.champion);
        if (std::isnan(row.anchor_elo)) {
          if (row.champion == 0) {
            row.anchor_elo = row.anchor_elo_lo = row.anchor_elo_hi = 0;
          } else if (!reuse_anchor(lineage, row.champion, c.anchor.pairs, row)) {
            const selfplay::MatchResult r =
                anchor_match<G>(c, champion, side(0), gdir + "/anchor", options, stop);
            if (r.interrupted) {
              result.interrupted = true;
              break;
            }
            set_anchor_columns(row, r);
          }
          progress.step_done("anchor",
                             fmt::format("champion gen {} against gen 0: {:+.1f} Elo [{:+.1f}, "
                                         "{:+.1f}] over {} pairs",
                                         row.champion, row.anchor_elo, row.anchor_elo_lo,
                                         row.anchor_elo_hi, row.anchor_pairs));
        }
        // The references: the champion against each on the anchor's games.
        for (size_t k = 0; k < n_refs && !result.interrupted; ++k) {
          if (reference_measured(row_refs, k, c.anchor.pairs)) continue;
          const Reference<G>& ref = c.references[k];
          const selfplay::MatchResult r =
              reference_match<G>(c, champion, ref, gdir + "/anchor-" + ref.name, options, stop);
          if (r.interrupted) {
            result.interrupted = true;
            break;
          }
          set_reference_columns(row_refs, k, r);
          const double* v = row_refs.data() + k * kReferenceColumns;
          progress.step_done("reference",
                             fmt::format("champion gen {} against {}: {:+.1f} Elo [{:+.1f}, "
                                         "{:+.1f}] over {} pairs",
                                         row.champion, ref.name, v[1], v[2], v[3], v[0]));
        }
        if (result.interrupted) break;
      }

      // 5. The lineage, then the champion it names.
      row.cpu_seconds = cpu_seconds_now() - cpu0;
      row.wall_seconds = std::chrono::duration<double>(Clock::now() - wall0).count();
      lineage.rows.push_back(row);
      lineage.weights.push_back(candidate);
      if (!key_names.empty()) lineage.engine_values.push_back(candidate_keys);
      if (n_refs) lineage.reference_values.push_back(row_refs);
      write_lineage(lineage_path, lineage);
      publish_champion();
      progress.generation_done();
    }
    if (stop) result.interrupted = true;
    send_order({OrderKind::kEnd, false, ""});
    result.summary = format_lineage_table(lineage);
  }
  return result;
}

// A follower of a ranked loop (rank > 0, loop_ranks.hpp): plays its share of each campaign and
// match rank 0 orders, from the config file rank 0 wrote, until rank 0 says the loop ended.
// Returns whether a step was stopped (by a signal): the loop was then interrupted.
template <HostGame G>
bool follow_improve(const ImproveOptions& options, const std::atomic<bool>& stop) {
  bool interrupted = false;
  for (;;) {
    const StepOrder order = wait_order();
    if (order.kind == OrderKind::kEnd) return interrupted || stop;
    if (order.kind == OrderKind::kCampaign) {
      const auto o = step_options<selfplay::RunOptions>(order.resume, false, options.device);
      interrupted |=
          selfplay::run_campaign_ranks<G>(config::load_campaign_config<G>(order.config), o, stop)
              .interrupted;
    } else {
      const auto o = step_options<selfplay::MatchOptions>(order.resume, false, options.device);
      interrupted |=
          selfplay::run_match_ranks<G>(config::load_match_config<G>(order.config), o, stop)
              .interrupted;
    }
  }
}

}  // namespace sp::improve
