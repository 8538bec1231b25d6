// `selfplay bench`: rollout throughput of a backend and two deterministic signatures of a game.
// The playout signature is the total number of plies of a fixed workload (4096 start positions x
// 16 rollouts, seed fixed; host/engines/rollout/bench.hpp); the search signature that of a fixed
// mini-match of MCTS against the game's depth engine (host/play/selfplay/search_bench.hpp). Both
// depend only on the game and the code, so they are identical on every backend, build type, thread
// count and machine.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/base/system/atomic_file.hpp"
#include "host/base/system/log.hpp"
#include "host/base/system/work_pool.hpp"
#include "host/engines/rollout/array_playouts.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/bench.hpp"
#include "host/engines/rollout/lane_playouts.hpp"
#include "host/play/selfplay/host_bench.hpp"
#include "host/play/selfplay/search_bench.hpp"

namespace sp::app {

namespace {

struct BenchOpts {
  std::string game;
  std::string backend = "cpu";
  int threads = 1;
  double seconds = 2.0;
  bool sweep = false;
  int sweep_min = 10, sweep_max = 22;
  double sweep_seconds = 0.3;
  uint32_t rollouts_per_leaf = 16;
  uint32_t batch_log2 = 0;
  std::string csv;
  std::vector<std::string> playout;
  bool search_only = false, playouts_only = false;
  bool host = false;    // --host: the host table instead of the backend's measurements
  uint32_t fanout = 1;  // --host: the engines' fanout
  uint32_t at_once = selfplay::kHostBenchConcurrency;  // --host: games in flight
};

// `KEY=VALUE ...` of --playout for the CSV and the report; "default" without any.
std::string playout_text(const std::vector<std::string>& playout) {
  std::string out;
  for (const std::string& kv : playout) out += (out.empty() ? "" : " ") + kv;
  return out.empty() ? "default" : out;
}

// The rollouts of the batch the plain reference program plays: the first leaves up to this many
// (all of the default batch of up to four threads). It runs at a tenth of the scalar rate or
// less, so a whole large batch (--threads 0 on many cores, --batch-log2) would take minutes a pass.
inline constexpr uint64_t kArraySampleRollouts = 1 << 14;

// The plain reference program's rate (rollout::ArrayPlayouts) on this thread, over whole passes of
// `sample` (at least one, then until `seconds` of wall time have passed), and its plies in one
// pass, which equal the scalar path's on the sample when both play the same playouts.
struct ArrayRate {
  double per_second = 0;
  uint64_t plies_per_pass = 0;
};

template <HostGame G>
ArrayRate measure_array_program(const rollout::PlayoutParams<G>& params,
                                const std::vector<rollout::Leaf<G>>& sample, double seconds) {
  using Program = rollout::ArrayPlayouts<G>;
  using Clock = std::chrono::steady_clock;
  std::vector<typename Program::Board> boards;  // made before the clock starts, as the leaves are
  boards.reserve(sample.size());
  for (const auto& l : sample) boards.push_back(Program::board(l.state));
  uint64_t rollouts = 0, plies = 0, passes = 0;
  double elapsed = 0;
  const auto start = Clock::now();
  do {
    for (size_t i = 0; i < sample.size(); ++i) {
      const rollout::Leaf<G>& l = sample[i];
      const PhiloxKey key = stream_key(params.seed, l.game);
      for (uint32_t r = 0; r < l.rollouts; ++r) {
        BlockStream rng(key, l.ply, l.leaf, r);
        plies += Program::playout(boards[i], params.rules, params.policies[l.policy], rng).plies;
      }
      rollouts += l.rollouts;
    }
    ++passes;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return {elapsed > 0 ? rollouts / elapsed : 0, plies / passes};
}

// The cpu backend's playout paths side by side on the same batch: scalar and the fastest this
// processor runs for the game (SELFPLAY_SIMD does not apply), on one thread and on all cores,
// each measured for half of --seconds. For a game with a plain reference program
// (rollout::ArrayPlayouts), that program first, on one thread and the batch's first leaves, and
// the one-thread rates as multiples of its rate (issue 15's targets are such ratios).
template <HostGame G>
void compare_paths(const BenchOpts& o, const rollout::PlayoutParams<G>& params,
                   const std::vector<rollout::Leaf<G>>& leaves) {
  using namespace rollout;
  SimdPath best = SimdPath::kScalar;
  if constexpr (LanePlayouts<G>::kAvailable)
    for (SimdPath p : {SimdPath::kAvx2, SimdPath::kAvx512})
      if (simd_path_supported(p)) best = p;
  uint64_t rollouts = 0;
  for (const auto& l : leaves) rollouts += l.rollouts;
  std::printf("playout paths (cpu, this batch):\n");
  std::optional<ArrayRate> array;
  std::vector<Leaf<G>> sample;
  if constexpr (ArrayPlayouts<G>::kAvailable) {
    bool handled = true;
    uint64_t sampled = 0;
    for (const auto& l : leaves) {
      handled = handled && ArrayPlayouts<G>::handles(params.policies[l.policy]);
      if (sampled < kArraySampleRollouts) sample.push_back(l), sampled += l.rollouts;
    }
    if (handled) {
      array = measure_array_program<G>(params, sample, o.seconds / 2);
      std::printf("  %-7s %2d thread  %12.4g playouts/s  (reference: %s", "array", 1,
                  array->per_second, ArrayPlayouts<G>::kName);
      if (sample.size() < leaves.size()) std::printf("; the first %zu leaves", sample.size());
      std::printf(")\n");
    } else {
      std::printf("  array   not measured: the reference (%s) does not play these playouts\n",
                  ArrayPlayouts<G>::kName);
    }
  }
  for (int threads : {1, 0}) {
    double scalar_rate = 0;
    for (SimdPath path : {SimdPath::kScalar, best}) {
      BackendOptions opts;
      opts.threads = threads;
      opts.simd = path;
      opts.max_rollouts = std::max<uint64_t>(rollouts, 1);
      opts.max_leaves = std::max<size_t>(leaves.size(), 1);
      auto backend = make_backend<G>("cpu", opts);
      const Throughput t = measure<G>(*backend, params, leaves, o.seconds / 2, 1);
      const int n = backend->work_pool() ? backend->work_pool()->threads() : 1;
      const std::string name = backend->info().playout_path;
      if (path == SimdPath::kScalar) scalar_rate = t.e2e_rate();
      if (array && threads == 1 && path == SimdPath::kScalar) {  // the same work, or no ratio
        std::vector<LeafStats> stats(sample.size());
        backend->run(sample, params, stats);
        uint64_t plies = 0;
        for (const LeafStats& st : stats) plies += st.plies;
        if (plies != array->plies_per_pass)
          throw std::logic_error("bench: the reference program played " +
                                 std::to_string(array->plies_per_pass) +
                                 " plies on its leaves, the scalar path " + std::to_string(plies) +
                                 ": they do not play the same playouts (see games/" + G::kName +
                                 "/array_playout.hpp)");
      }
      std::printf("  %-7s %2d thread%s %12.4g playouts/s", name.c_str(), n, n == 1 ? " " : "s",
                  t.e2e_rate());
      std::string ratios;
      auto ratio = [&](double rate, const char* of) {
        if (rate <= 0) return;
        char text[64];
        std::snprintf(text, sizeof text, "%.2fx %s", t.e2e_rate() / rate, of);
        ratios += (ratios.empty() ? "" : ", ") + std::string(text);
      };
      if (path != SimdPath::kScalar) ratio(scalar_rate, "scalar");
      if (array && threads == 1) ratio(array->per_second, "array program");
      if (!ratios.empty()) std::printf("  (%s)", ratios.c_str());
      std::printf("\n");
      if (best == SimdPath::kScalar) break;
    }
  }
}

// The throughput measurement (one batch size, or a sweep) with an optional CSV.
template <HostGame G>
void throughput(rollout::Backend<G>& backend, const BenchOpts& o,
                const rollout::StartPosition<G>& start) {
  using namespace rollout;
  const BackendInfo& info = backend.info();
  PlayoutParams<G> params;
  params.seed = kSignatureSeed + 1;
  params.policies[0] = read_key_values(GameHost<G>::policy_section(), o.playout, "--playout");
  const std::string policy = playout_text(o.playout);

  std::FILE* csv = nullptr;
  std::string csv_tmp;
  if (!o.csv.empty()) {
    csv_tmp = o.csv + ".tmp";
    csv = std::fopen(csv_tmp.c_str(), "w");
    if (!csv) throw std::runtime_error("cannot write " + csv_tmp);
    std::fprintf(csv,
                 "backend,device,policy,batch_rollouts,leaves,rollouts_per_leaf,batches,"
                 "kernel_playouts_per_s,e2e_playouts_per_s,plies_per_s\n");
  }
  auto row = [&](uint64_t batch, const Throughput& t, uint32_t leaves, uint32_t rpl) {
    if (!csv) return;
    std::string device = info.device;
    for (char& ch : device)
      if (ch == ',' || ch == '"') ch = ' ';
    std::fprintf(csv, "%s,%s,%s,%llu,%u,%u,%llu,%.6g,%.6g,%.6g\n", info.name.c_str(),
                 device.c_str(), policy.c_str(), static_cast<unsigned long long>(batch), leaves,
                 rpl, static_cast<unsigned long long>(t.batches), t.kernel_rate(), t.e2e_rate(),
                 t.plies_rate());
  };
  auto batch_for = [&](int log2) {
    return throughput_batch<G>(start, params.seed, log2, o.rollouts_per_leaf);
  };

  if (o.sweep) {
    std::printf("%12s %10s %16s %16s %14s\n", "batch", "leaves", "kernel play/s", "e2e play/s",
                "plies/s");
    for (int k = o.sweep_min; k <= o.sweep_max; ++k) {
      const auto leaves = batch_for(k);
      const Throughput t = measure<G>(backend, params, leaves, o.sweep_seconds, 2);
      std::printf("%12llu %10zu %16.4g %16.4g %14.4g\n", 1ull << k, leaves.size(), t.kernel_rate(),
                  t.e2e_rate(), t.plies_rate());
      std::fflush(stdout);
      row(uint64_t{1} << k, t, static_cast<uint32_t>(leaves.size()), leaves[0].rollouts);
    }
  } else {
    int log2 = static_cast<int>(o.batch_log2);
    if (log2 == 0) {
      log2 = 10;
      while ((uint64_t{1} << log2) < info.preferred_rollouts && log2 < 22) ++log2;
    }
    const auto leaves = batch_for(log2);
    const Throughput t = measure<G>(backend, params, leaves, o.seconds, 1);
    std::printf("batch: %llu rollouts (%zu leaves x %u), playouts %s, %llu batches in %.2f s\n",
                1ull << log2, leaves.size(), leaves[0].rollouts, policy.c_str(),
                static_cast<unsigned long long>(t.batches), t.wall_s);
    std::printf("playouts/s: %.4g (kernel-level %.4g)\n", t.e2e_rate(), t.kernel_rate());
    std::printf("plies/s: %.4g\n", t.plies_rate());
    row(uint64_t{1} << log2, t, static_cast<uint32_t>(leaves.size()), leaves[0].rollouts);
    if (info.name == "cpu" && !info.playout_path.empty()) compare_paths<G>(o, params, leaves);
  }
  if (csv) {
    const bool ok = std::fflush(csv) == 0 && std::ferror(csv) == 0;
    std::fclose(csv);
    if (!ok || std::rename(csv_tmp.c_str(), o.csv.c_str()) != 0) {
      std::remove(csv_tmp.c_str());
      throw std::runtime_error("cannot write " + o.csv);
    }
    std::printf("csv: %s\n", o.csv.c_str());
  }
}

// The host workload (host_bench.hpp) at `rollouts_per_leaf` on `threads` threads, on a null backend
// of its own.
template <HostGame G>
selfplay::HostBenchResult measure_host(int threads, uint32_t rollouts_per_leaf, double seconds,
                                       uint32_t fanout = 1,
                                       uint32_t at_once = selfplay::kHostBenchConcurrency) {
  auto null = rollout::make_backend<G>(
      "null", selfplay::host_bench_backend_options<G>(rollouts_per_leaf, fanout, at_once));
  return selfplay::run_host_bench<G>(*null, threads, rollouts_per_leaf, seconds, fanout, at_once);
}

std::string host_line(const selfplay::HostBenchResult& r) {
  return fmt::format(
      "{:.4g} leaves per host thread-second ({:.4g} leaves/s on {} thread{}), {:.2f} rollouts "
      "per descent",
      r.leaves_per_thread_second(), r.leaves_per_second(), r.threads, r.threads == 1 ? "" : "s",
      r.rollouts_per_leaf_played());
}

// `bench --host`: the host alone at 1, 8 and 64 rollouts a leaf, on one thread and on all
// (--threads when above 1, else every core), with an optional CSV.
template <HostGame G>
int host_table(const BenchOpts& o) {
  const int all = o.threads > 1 ? o.threads : available_cores();
  std::vector<int> thread_counts{1};
  if (all > 1) thread_counts.push_back(all);
  std::printf("game: %s\n", G::kName);
  std::printf(
      "host: MCTS against MCTS, %u rollouts a move, 4 descents a round, fanout %u, %u games at "
      "once, null backend, %.3g s a row\n",
      selfplay::kHostBenchRolloutsPerMove, o.fanout, o.at_once, o.seconds);
  std::printf("%8s %14s %14s %22s %14s %10s\n", "threads", "rollouts/leaf", "leaves/s",
              "leaves/host-thread-s", "rollouts/s", "host busy");
  std::string csv =
      "game,threads,rollouts_per_leaf,fanout,at_once,leaves,rollouts,batches,seconds,"
      "host_thread_s,leaves_per_s,leaves_per_host_thread_s\n";
  for (int threads : thread_counts)
    for (uint32_t rpl : {1u, 8u, 64u}) {
      const selfplay::HostBenchResult r =
          measure_host<G>(threads, rpl, o.seconds, o.fanout, o.at_once);
      // The share of the threads' wall time the host spent working (the rest: the null
      // backend's answers and waiting between waves).
      const double busy = r.seconds > 0 ? r.host_thread_ms / (10 * r.seconds * r.threads) : 0;
      std::printf("%8d %14u %14.4g %22.4g %14.4g %9.0f%%\n", r.threads, rpl, r.leaves_per_second(),
                  r.leaves_per_thread_second(), r.seconds > 0 ? r.rollouts / r.seconds : 0.0, busy);
      std::fflush(stdout);
      csv +=
          fmt::format("{},{},{},{},{},{},{},{},{:.6g},{:.6g},{:.6g},{:.6g}\n", G::kName, r.threads,
                      rpl, o.fanout, o.at_once, r.leaves, r.rollouts, r.batches, r.seconds,
                      r.host_thread_ms / 1000, r.leaves_per_second(), r.leaves_per_thread_second());
    }
  if (!o.csv.empty()) {
    write_file_atomically(o.csv, csv);
    std::printf("csv: %s\n", o.csv.c_str());
  }
  return 0;
}

template <HostGame G>
int bench(const BenchOpts& o) {
  using namespace rollout;
  if (o.host) return host_table<G>(o);
  if (o.sweep && o.sweep_min > o.sweep_max)
    throw InputError("--sweep-min " + std::to_string(o.sweep_min) + " is above --sweep-max " +
                     std::to_string(o.sweep_max));
  const bool playouts = !o.search_only, search = !o.playouts_only;
  // Read before any work, so that a bad --playout fails at once (exit 2).
  if (playouts) read_key_values(GameHost<G>::policy_section(), o.playout, "--playout");
  BackendOptions bopts;
  bopts.threads = o.threads;
  const int max_log2 = std::max<int>(o.sweep ? o.sweep_max : 0, o.batch_log2);
  bopts.max_rollouts =
      std::max<size_t>(size_t{1} << std::max(max_log2, 22), kSignatureLeaves * kSignatureRollouts);
  bopts.max_leaves =
      std::max<size_t>(bopts.max_rollouts / o.rollouts_per_leaf + 1, kSignatureLeaves);
  auto backend = make_backend<G>(o.backend, bopts);
  const BackendInfo& info = backend->info();
  std::printf("game: %s\nbackend: %s\ndevice: %s\n", G::kName, info.name.c_str(),
              info.device.c_str());
  // The null backend's statistics come from hashes, not playouts: no signature means anything.
  const bool real = info.name != "null";
  const StartPosition<G> start = [](uint64_t seed, uint32_t stream_game) {
    return GameHost<G>::start(typename GameHost<G>::Settings{}, seed, stream_game, nullptr);
  };

  // Where the wall time goes: --seconds sets the measurements, the signatures are fixed work.
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  double signature_s = 0, throughput_s = 0, search_s = 0, host_s = 0;
  const auto print_times = [&] {
    std::string parts;
    if (playouts)
      parts +=
          fmt::format("signature {:.2f} s, throughput and playout paths {:.2f} s (--seconds {:g})",
                      signature_s, throughput_s, o.seconds);
    if (search && real)
      parts += fmt::format("{}search signature {:.2f} s", parts.empty() ? "" : ", ", search_s);
    if (host_s > 0) parts += fmt::format("{}host {:.2f} s", parts.empty() ? "" : ", ", host_s);
    if (!parts.empty()) std::printf("time: %s\n", parts.c_str());
  };
  if (playouts) {
    auto t0 = Clock::now();
    const Totals sig = run_signature<G>(*backend, start);
    signature_s = since(t0);
    t0 = Clock::now();
    throughput<G>(*backend, o, start);
    throughput_s = since(t0);
    if (!real) {
      std::printf("signature: none (the null backend plays no playouts)\n");
    } else {
      const double n = static_cast<double>(sig.rollouts);
      std::printf(
          "signature workload: %llu playouts, average plies %.3f, first-player win rate "
          "%.4f\n",
          static_cast<unsigned long long>(sig.rollouts), sig.plies / n, sig.wins0 / n);
      std::printf("signature: %llu\n", static_cast<unsigned long long>(sig.plies));
    }
  }
  if (search) {
    if (!real) {
      std::printf("search signature: none (the null backend plays no playouts)\n");
      print_times();
      return 0;
    }
    std::fflush(stdout);
    const auto t0 = Clock::now();
    const selfplay::SearchBenchResult r = selfplay::run_search_bench<G>(*backend, o.threads);
    search_s = since(t0);
    std::printf(
        "search workload: %u games, mcts %u, %s %u, draws %u; %llu plies, %llu nodes, "
        "%llu rollouts in %.2f s (%.4g nodes/s)\n",
        r.games, r.mcts_wins, ChanceGame<G> ? "expectimax" : "alphabeta", r.depth_wins, r.draws,
        static_cast<unsigned long long>(r.plies), static_cast<unsigned long long>(r.nodes),
        static_cast<unsigned long long>(r.rollouts), r.seconds,
        r.seconds > 0 ? r.nodes / r.seconds : 0.0);
    std::printf("search signature: %llu\n", static_cast<unsigned long long>(r.signature()));
  }
  if (playouts && search) {
    // What the host alone feeds a backend at 8 rollouts a leaf (bench --host: the full table).
    const auto t0 = Clock::now();
    const selfplay::HostBenchResult h = measure_host<G>(o.threads, 8, o.seconds / 4);
    host_s = since(t0);
    std::printf("host: %s (null backend, 8 rollouts a leaf; bench --host for more)\n",
                host_line(h).c_str());
  }
  print_times();
  return 0;
}

}  // namespace

Runner add_bench(CLI::App& app) {
  auto o = std::make_shared<BenchOpts>();
  add_game_option(app, o->game, false);
  app.add_option("--backend", o->backend, "Rollout backend: auto, cpu, cuda, check, null")
      ->capture_default_str();
  app.add_option("--threads", o->threads, "CPU backend and search threads (0 = all cores)")
      ->transform(integer_in(0, 4096))
      ->capture_default_str();
  app.add_option("--seconds", o->seconds,
                 "Time for the throughput measurement (the cpu backend's playout paths table "
                 "takes about as long again); the signatures are fixed workloads on top, whose "
                 "times the last line prints (a few seconds for Gomoku)")
      ->transform(real_in(0, 3600))
      ->capture_default_str();
  app.add_option("--batch-log2", o->batch_log2,
                 "Rollouts per batch as a power of two (0 = backend's preference)")
      ->transform(integer_in(0, 26));
  app.add_option("--rollouts-per-leaf", o->rollouts_per_leaf,
                 "Rollouts per leaf in throughput batches")
      ->transform(integer_in(1, 1 << 20))
      ->capture_default_str();
  add_key_value_option(app, "--playout", o->playout,
                       "Throughput runs: a playout key of the game's engines, e.g. policy=heavy "
                       "(repeatable; the signatures use the defaults)");
  app.add_flag("--sweep", o->sweep, "Vary the batch size over powers of two");
  app.add_option("--sweep-min", o->sweep_min, "Smallest batch, log2 rollouts")
      ->transform(integer_in(0, 26))
      ->capture_default_str();
  app.add_option("--sweep-max", o->sweep_max, "Largest batch, log2 rollouts")
      ->transform(integer_in(0, 26))
      ->capture_default_str();
  app.add_option("--sweep-seconds", o->sweep_seconds, "Minimum time per sweep point")
      ->transform(real_in(0, 600))
      ->capture_default_str();
  app.add_option("--csv", o->csv,
                 "Write the measurements (one row per batch size) to this CSV file");
  CLI::Option* search_only =
      app.add_flag("--search-only", o->search_only,
                   "Only the search signature (no throughput, no playout signature)");
  CLI::Option* playouts_only =
      app.add_flag("--playouts-only", o->playouts_only,
                   "Only the throughput and the playout signature (no search signature)")
          ->excludes(search_only);
  app.add_flag("--host", o->host,
               "Only the host: leaves per second of wall and of host thread time at 1, 8 and 64 "
               "rollouts a leaf, on 1 thread and on all (--threads above 1, else every core), "
               "each row --seconds, on the null backend; --csv writes the rows")
      ->excludes(search_only)
      ->excludes(playouts_only);
  app.add_option("--fanout", o->fanout,
                 "With --host: the engines' fanout (leaves per descent that expands a node)")
      ->transform(integer_in(1, 256))
      ->capture_default_str();
  app.add_option("--at-once", o->at_once,
                 "With --host: the games in flight (each wave of the pool steps up to half of "
                 "them)")
      ->transform(integer_in(1, 65536))
      ->capture_default_str();

  return [o]() { return with_game(o->game, [&]<class G>() { return bench<G>(*o); }); };
}

}  // namespace sp::app
