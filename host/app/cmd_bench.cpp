// `selfplay bench`: rollout throughput of a backend and the bench signature. The signature is the
// total number of plies of a fixed workload (4096 random setups x 16 uniform rollouts, seed fixed):
// it depends only on the rules, the playout code and the generator, so it is identical on every
// backend, build type and machine.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "games/common/errors.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/notation.hpp"
#include "host/app/commands.hpp"
#include "host/common/log.hpp"
#include "host/rollout/backend.hpp"
#include "host/rollout/bench.hpp"

namespace sp::app {

Runner add_bench(CLI::App& app) {
  struct Opts {
    std::string game = "ewn";
    std::string backend = "cpu";
    int threads = 1;
    double seconds = 2.0;
    bool sweep = false;
    int sweep_min = 10, sweep_max = 22;
    double sweep_seconds = 0.3;
    uint32_t rollouts_per_leaf = 16;
    uint32_t batch_log2 = 0;
    std::string csv;
    std::string policy = "uniform";
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--game", o->game, "Game")->check(CLI::IsMember({"ewn"}))->capture_default_str();
  app.add_option("--backend", o->backend, "Rollout backend: auto, cpu, cuda, check")->capture_default_str();
  app.add_option("--threads", o->threads, "CPU backend threads (0 = all cores)")
      ->transform(integer_in(0, 4096))
      ->capture_default_str();
  app.add_option("--seconds", o->seconds, "Time for the throughput measurement")
      ->transform(real_in(0, 3600))
      ->capture_default_str();
  app.add_option("--batch-log2", o->batch_log2,
                 "Rollouts per batch as a power of two (0 = backend's preference)")
      ->transform(integer_in(0, 26));
  app.add_option("--rollouts-per-leaf", o->rollouts_per_leaf,
                 "Rollouts per leaf in throughput batches")
      ->transform(integer_in(1, 1 << 20))
      ->capture_default_str();
  app.add_option("--policy", o->policy, "Rollout policy for the throughput runs")
      ->check(CLI::IsMember({"uniform", "heavy"}))->capture_default_str();
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
  app.add_option("--csv", o->csv, "Write the measurements (one row per batch size) to this CSV file");

  return [o]() {
    using namespace rollout;
    if (o->sweep && o->sweep_min > o->sweep_max)
      throw InputError("--sweep-min " + std::to_string(o->sweep_min) + " is above --sweep-max " +
                       std::to_string(o->sweep_max));
    rollout::BackendOptions bopts;
    bopts.threads = o->threads;
    const int max_log2 = std::max<int>(o->sweep ? o->sweep_max : 0, o->batch_log2);
    bopts.max_rollouts = std::max<size_t>(size_t{1} << std::max(max_log2, 22), kSignatureLeaves * kSignatureRollouts);
    bopts.max_leaves = std::max<size_t>(bopts.max_rollouts / o->rollouts_per_leaf + 1, kSignatureLeaves);
    auto backend = rollout::make_backend<EwnGame>(o->backend, bopts);
    const rollout::BackendInfo& info = backend->info();
    std::printf("backend: %s\ndevice: %s\n", info.name.c_str(), info.device.c_str());

    const Totals sig = run_signature(*backend);

    rollout::PlayoutParams<EwnGame> params;
    params.seed = kSignatureSeed + 1;
    params.policies[0].kind = o->policy == "heavy" ? ewn::PolicyKind::kHeavy : ewn::PolicyKind::kUniform;

    std::FILE* csv = nullptr;
    std::string csv_tmp;
    if (!o->csv.empty()) {
      csv_tmp = o->csv + ".tmp";
      csv = std::fopen(csv_tmp.c_str(), "w");
      if (!csv) throw std::runtime_error("cannot write " + csv_tmp);
      std::fprintf(csv, "backend,device,policy,batch_rollouts,leaves,rollouts_per_leaf,batches,"
                        "kernel_playouts_per_s,e2e_playouts_per_s,plies_per_s\n");
    }
    auto row = [&](uint64_t batch, const Throughput& t, uint32_t leaves, uint32_t rpl) {
      if (!csv) return;
      std::string device = info.device;
      for (char& ch : device)
        if (ch == ',' || ch == '"') ch = ' ';
      std::fprintf(csv, "%s,%s,%s,%llu,%u,%u,%llu,%.6g,%.6g,%.6g\n", info.name.c_str(), device.c_str(),
                   o->policy.c_str(), static_cast<unsigned long long>(batch), leaves, rpl,
                   static_cast<unsigned long long>(t.batches), t.kernel_rate(), t.e2e_rate(), t.plies_rate());
    };
    auto batch_for = [&](int log2) { return throughput_batch(params.seed, log2, o->rollouts_per_leaf); };

    if (o->sweep) {
      std::printf("%12s %10s %16s %16s %14s\n", "batch", "leaves", "kernel play/s", "e2e play/s", "plies/s");
      for (int k = o->sweep_min; k <= o->sweep_max; ++k) {
        const auto leaves = batch_for(k);
        const Throughput t = measure(*backend, params, leaves, o->sweep_seconds, 2);
        std::printf("%12llu %10zu %16.4g %16.4g %14.4g\n", 1ull << k, leaves.size(), t.kernel_rate(),
                    t.e2e_rate(), t.plies_rate());
        std::fflush(stdout);
        row(uint64_t{1} << k, t, static_cast<uint32_t>(leaves.size()), leaves[0].rollouts);
      }
    } else {
      int log2 = static_cast<int>(o->batch_log2);
      if (log2 == 0) {
        log2 = 10;
        while ((uint64_t{1} << log2) < info.preferred_rollouts && log2 < 22) ++log2;
      }
      const auto leaves = batch_for(log2);
      const Throughput t = measure(*backend, params, leaves, o->seconds, 1);
      std::printf("batch: %llu rollouts (%zu leaves x %u), %s policy, %llu batches in %.2f s\n",
                  1ull << log2, leaves.size(), leaves[0].rollouts, o->policy.c_str(),
                  static_cast<unsigned long long>(t.batches), t.wall_s);
      std::printf("playouts/s: %.4g (kernel-level %.4g)\n", t.e2e_rate(), t.kernel_rate());
      std::printf("plies/s: %.4g\n", t.plies_rate());
      row(uint64_t{1} << log2, t, static_cast<uint32_t>(leaves.size()), leaves[0].rollouts);
    }
    if (csv) {
      const bool ok = std::fflush(csv) == 0 && std::ferror(csv) == 0;
      std::fclose(csv);
      if (!ok || std::rename(csv_tmp.c_str(), o->csv.c_str()) != 0) {
        std::remove(csv_tmp.c_str());
        throw std::runtime_error("cannot write " + o->csv);
      }
      std::printf("csv: %s\n", o->csv.c_str());
    }
    if (info.name == "null") {  // its statistics come from hashes, not playouts
      std::printf("signature: none (the null backend plays no playouts)\n");
      return 0;
    }
    const double n = static_cast<double>(sig.rollouts);
    std::printf("signature workload: %llu playouts, average plies %.3f, first-player win rate %.4f\n",
                static_cast<unsigned long long>(sig.rollouts), sig.plies / n, sig.wins0 / n);
    std::printf("signature: %llu\n", static_cast<unsigned long long>(sig.plies));
    return 0;
  };
}

}  // namespace sp::app
