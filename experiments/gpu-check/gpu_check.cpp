// The device check: on a machine with an NVIDIA GPU, proves the cuda backend bit-identical to the
// cpu backend on many batches, then sweeps batch sizes on both and prints a results table last.
// It needs only the CUDA toolkit and a C++ compiler (no YAML, HDF5, CLI or test libraries), because
// the GPU machines have nothing else installed.
//
// Usage: gpu_check [--out DIR] [--quick] [--target cuda|cpu]
//   DIR receives sweep-cuda.csv, sweep-cpu.csv and table.md. Exit 0 when every check passed,
//   1 on a mismatch or failure, 3 when no CUDA device is usable.
#include <omp.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "games/ewn/game.hpp"
#include "host/rollout/backend.hpp"
#include "host/rollout/bench.hpp"
#include "host/rollout/check_backend.hpp"
#include "host/rollout/cpu_backend.hpp"

namespace {

using namespace sp;
using namespace sp::rollout;

struct Options {
  std::string out = ".";
  bool quick = false;
  std::string target = "cuda";  // the backend under test; `cpu` rehearses the script without a GPU
};

int failures = 0;

// EWN's start positions as `selfplay bench` takes them from GameHost<EwnGame>::start with the
// default settings (random arrangements, player 0 first), without the config library.
ewn::State ewn_start(uint64_t seed, uint32_t game) {
  WordStream rng({seed, game, 0, kLeafSetup, 0});
  const ewn::Arrangement a0 = ewn::random_arrangement(rng), a1 = ewn::random_arrangement(rng);
  return ewn::initial_state(a0, a1, 0);
}

// The bench workloads of host/rollout/bench.hpp for EWN.
std::vector<Leaf<EwnGame>> random_batch(uint64_t seed, size_t n, uint32_t max_rollouts,
                                        bool uniform_count) {
  return sp::rollout::random_batch<EwnGame>(ewn_start, seed, n, max_rollouts, uniform_count);
}
std::vector<Leaf<EwnGame>> throughput_batch(uint64_t seed, int log2, uint32_t rollouts_per_leaf) {
  return sp::rollout::throughput_batch<EwnGame>(ewn_start, seed, log2, rollouts_per_leaf);
}
Totals run_signature(Backend<EwnGame>& backend) {
  return sp::rollout::run_signature<EwnGame>(backend, ewn_start);
}

void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
  std::fflush(stdout);
  if (!ok) ++failures;
}

// Bit-identity of cuda against cpu on random batches: sizes that are and are not multiples of the
// block size, one leaf, uniform and varied rollout counts, both policies, several block sizes.
void correctness(const Options& opt) {
  BackendOptions o;
  o.threads = 0;
  o.max_leaves = 1 << 17;
  o.max_rollouts = 1 << 22;
  auto cpu = make_backend<EwnGame>("cpu", o);
  const std::vector<size_t> sizes = opt.quick ? std::vector<size_t>{1, 127, 4099}
                                              : std::vector<size_t>{1, 31, 127, 1000, 4099, 65537};
  for (int block : {64, 128, 256}) {
    o.block_size = block;
    auto cuda = make_backend<EwnGame>(opt.target, o);
    for (size_t n : sizes)
      for (bool uniform : {true, false})
        for (auto kind : {ewn::PolicyKind::kUniform, ewn::PolicyKind::kHeavy}) {
          const auto leaves = random_batch(1000 + n, n, n == 1 ? 1 : 37, uniform);
          PlayoutParams<EwnGame> p;
          p.seed = 4242 + n;
          p.policies[0].kind = kind;
          p.policies[1].kind = kind == ewn::PolicyKind::kUniform ? ewn::PolicyKind::kHeavy : ewn::PolicyKind::kUniform;
          std::vector<LeafStats> a(leaves.size()), b(leaves.size());
          cuda->run(leaves, p, a);
          cpu->run(leaves, p, b);
          size_t first_diff = leaves.size();
          for (size_t i = 0; i < leaves.size() && first_diff == leaves.size(); ++i)
            if (!(a[i] == b[i])) first_diff = i;
          check(first_diff == leaves.size(),
                "block " + std::to_string(block) + ", " + std::to_string(n) + " leaves, " +
                    (uniform ? "uniform" : "varied") + " rollouts, " +
                    (kind == ewn::PolicyKind::kUniform ? "uniform" : "heavy") + " policy" +
                    (first_diff == leaves.size() ? "" : ": first difference at leaf " + std::to_string(first_diff)));
        }
  }
  // One leaf, many rollouts; an empty batch; the check backend with two batches in flight.
  o.block_size = 0;
  auto cuda = make_backend<EwnGame>(opt.target, o);
  const auto one = random_batch(7, 1, 100000, true);
  PlayoutParams<EwnGame> p;
  std::vector<LeafStats> a(1), b(1);
  cuda->run(one, p, a);
  cpu->run(one, p, b);
  check(a[0] == b[0], "one leaf with 100000 rollouts");
  // An empty batch must neither fail nor disturb the next batch, which still equals cpu.
  try {
    std::vector<LeafStats> none;
    cuda->run({}, p, none);
    const auto after = random_batch(10, 33, 16, false);
    std::vector<LeafStats> got(after.size()), want(after.size());
    cuda->run(after, p, got);
    cpu->run(after, p, want);
    check(got == want, "empty batch, then a batch equal to cpu");
  } catch (const std::exception& e) {
    check(false, std::string("empty batch: ") + e.what());
  }
  // The check backend with two batches in flight: no mismatch reported, and its results (those
  // of the backend under test) equal cpu's for each batch, in submission order.
  auto checked = make_backend<EwnGame>("check", o);
  const auto x = random_batch(8, 500, 64, false), y = random_batch(9, 700, 32, true);
  std::vector<LeafStats> rx(x.size()), ry(y.size()), cx(x.size()), cy(y.size());
  try {
    const Ticket tx = checked->submit(x, p), ty = checked->submit(y, p);
    checked->wait(tx, rx);
    checked->wait(ty, ry);
    cpu->run(x, p, cx);
    cpu->run(y, p, cy);
    check(rx == cx && ry == cy, "check backend, two batches in flight, results equal cpu");
  } catch (const std::exception& e) {
    check(false, std::string("check backend: ") + e.what());
  }
}

struct SweepResult {
  double peak_kernel = 0, peak_e2e = 0;
};

SweepResult sweep(Backend<EwnGame>& backend, int lo, int hi, double seconds, const std::string& csv_path) {
  std::ofstream csv(csv_path);
  csv << "backend,device,policy,batch_rollouts,leaves,rollouts_per_leaf,batches,kernel_playouts_per_s,"
         "e2e_playouts_per_s,plies_per_s\n";
  std::string device = backend.info().device;
  for (char& c : device)
    if (c == ',') c = ' ';
  PlayoutParams<EwnGame> params;
  params.seed = kSignatureSeed + 1;
  SweepResult r;
  std::printf("%s sweep (%s)\n%12s %10s %16s %16s\n", backend.info().name.c_str(), backend.info().device.c_str(),
              "batch", "leaves", "kernel play/s", "e2e play/s");
  for (int k = lo; k <= hi; ++k) {
    const auto leaves = throughput_batch(params.seed, k, 64);
    const Throughput t = measure(backend, params, leaves, seconds, 2);
    std::printf("%12llu %10zu %16.4g %16.4g\n", 1ull << k, leaves.size(), t.kernel_rate(), t.e2e_rate());
    std::fflush(stdout);
    csv << backend.info().name << ',' << device << ",uniform," << (1ull << k) << ',' << leaves.size() << ','
        << leaves[0].rollouts << ',' << t.batches << ',' << t.kernel_rate() << ',' << t.e2e_rate() << ','
        << t.plies_rate() << '\n';
    r.peak_kernel = std::max(r.peak_kernel, t.kernel_rate());
    r.peak_e2e = std::max(r.peak_e2e, t.e2e_rate());
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) opt.out = argv[++i];
    else if (!std::strcmp(argv[i], "--quick")) opt.quick = true;
    else if (!std::strcmp(argv[i], "--target") && i + 1 < argc) opt.target = argv[++i];
    else {
      std::fprintf(stderr, "usage: gpu_check [--out DIR] [--quick] [--target cuda|cpu]\n");
      return 2;
    }
  }
  std::string reason;
  if (opt.target == "cuda" && !cuda_available(&reason)) {
    std::printf("no usable CUDA device: %s\n", reason.c_str());
    return 3;
  }
  try {
    correctness(opt);
    BackendOptions o;
    o.threads = 0;
    o.max_rollouts = size_t{1} << 24;
    o.max_leaves = (size_t{1} << 24) / 64 + kSignatureLeaves;
    auto cuda = make_backend<EwnGame>(opt.target, o);
    auto cpu = make_backend<EwnGame>("cpu", o);
    const Totals sig_cuda = run_signature(*cuda), sig_cpu = run_signature(*cpu);
    check(sig_cuda.plies == sig_cpu.plies && sig_cuda.wins0 == sig_cpu.wins0, "signature equal on cuda and cpu");
    const double secs = opt.quick ? 0.2 : 0.5;
    const SweepResult g = sweep(*cuda, 10, opt.quick ? 20 : 24, secs, opt.out + "/sweep-cuda.csv");
    const SweepResult c = sweep(*cpu, 12, opt.quick ? 18 : 22, secs, opt.out + "/sweep-cpu.csv");
    char date[16];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    const std::string table =
        "| date | device | GPU kernel playouts/s | GPU end-to-end playouts/s | CPU (" +
        std::to_string(omp_get_num_procs()) + " threads) playouts/s | GPU/CPU | signature cuda | signature cpu | checks |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    char row[1024];
    std::snprintf(row, sizeof row, "| %s | %s | %.4g | %.4g | %.4g | %.1f | %llu | %llu | %s |\n", date,
                  cuda->info().device.c_str(), g.peak_kernel, g.peak_e2e, c.peak_e2e,
                  c.peak_e2e > 0 ? g.peak_e2e / c.peak_e2e : 0.0, static_cast<unsigned long long>(sig_cuda.plies),
                  static_cast<unsigned long long>(sig_cpu.plies), failures ? "FAIL" : "PASS");
    std::ofstream(opt.out + "/table.md") << table << row;
    std::printf("\n%s%s", table.c_str(), row);
  } catch (const std::exception& e) {
    std::printf("FAIL %s\n", e.what());
    return 1;
  }
  return failures ? 1 : 0;
}
