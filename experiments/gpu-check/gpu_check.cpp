// The device check: on a machine with an NVIDIA GPU, proves the cuda backend bit-identical to the
// cpu backend on many batches of every game in games/games.hpp, then sweeps batch sizes on both and
// prints a results table last. It needs only the CUDA toolkit and a C++ compiler (no YAML, HDF5,
// CLI or test libraries), because the GPU machines have nothing else installed.
//
// Usage: gpu_check [--out DIR] [--quick | --sanitize] [--target cuda|cpu] [--games a,b]
//                  [--seconds S] [--max-log2 K]
//   DIR receives sweep-cuda.csv, sweep-cpu.csv (one row per game and batch size), kernel.csv (one
//   row per game: peak rates, signatures, checks) and table.md. --quick: fewer sizes and shorter
//   sweeps, still a batch that runs the kernel's grid-stride loop three times. --sanitize: small
//   batches only, no signature, sweeps or table (for compute-sanitizer). --seconds and --max-log2
//   shorten the sweeps (the CPU rehearsal). Exit 0 when every check passed, 1 on a mismatch or
//   failure, 2 for a usage error, 3 when no CUDA device is usable.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/bench.hpp"

namespace {

using namespace sp;
using namespace sp::rollout;

struct Options {
  std::string out = ".";
  bool quick = false;
  bool sanitize = false;
  std::string target = "cuda";  // the backend under test; `cpu` rehearses the program without a GPU
  std::vector<std::string> games;  // empty: every game
  double seconds = 0;              // per sweep point; 0: 0.5 (0.2 with --quick)
  int max_log2 = 0;  // largest sweep batch; 0: 2^24 cuda, 2^22 cpu (--quick: 2^22, 2^20)
};

// What the check needs of each game beyond the Game concept: the start positions `selfplay bench`
// uses (GameHost<G>::start with the default settings, rebuilt here without the config library),
// the positions of the bit-identity checks (check_start: every playout variant's kernel), the
// weighted playout policy, the pinned playout signature (tests/bench_test.cpp) and the kernel
// target of the issues (playouts/s at kernel level on an H200).
template <class G>
struct Setup;

template <>
struct Setup<EwnGame> {
  static ewn::State start(uint64_t seed, uint32_t game) {
    WordStream rng({seed, game, 0, kLeafSetup, 0});  // random arrangements, player 0 first
    const ewn::Arrangement a0 = ewn::random_arrangement(rng), a1 = ewn::random_arrangement(rng);
    return ewn::initial_state(a0, a1, 0);
  }
  static constexpr ewn::PolicyKind kWeighted = ewn::PolicyKind::kHeavy;
  static constexpr const char* kWeightedName = "heavy";
  static ewn::State check_start(uint64_t seed, uint32_t game) { return start(seed, game); }
  static constexpr uint64_t kSignature = 1413994;
  static constexpr double kKernelTarget = 2e9;  // issue 11
};

template <>
struct Setup<CheckersGame> {
  static checkers::State start(uint64_t, uint32_t) { return checkers::initial_state(); }
  static checkers::State check_start(uint64_t, uint32_t) { return checkers::initial_state(); }
  static constexpr checkers::PolicyKind kWeighted = checkers::PolicyKind::kWeighted;
  static constexpr const char* kWeightedName = "weighted";
  static constexpr uint64_t kSignature = 4638732;
  static constexpr double kKernelTarget = 1e8;  // issue 12
};

template <>
struct Setup<GomokuGame> {
  static gomoku::State start(uint64_t, uint32_t) { return gomoku::initial_state(); }  // 15x15
  // The checks' positions: both board sizes and both rules, so that every one of the six
  // kernels (board size x policy kind) runs.
  static gomoku::State check_start(uint64_t, uint32_t game) {
    gomoku::Rules rules;
    rules.size = game % 2 ? 20 : 15;
    rules.rule = game % 4 >= 2 ? gomoku::WinRule::kStandard : gomoku::WinRule::kFreestyle;
    return gomoku::initial_state(rules);
  }
  static constexpr gomoku::PolicyKind kWeighted = gomoku::PolicyKind::kWeighted;
  static constexpr const char* kWeightedName = "weighted";
  // Mixed batches also hold pattern playouts (their own two kernels).
  static constexpr gomoku::PolicyKind kThird = gomoku::PolicyKind::kPattern;
  static constexpr uint64_t kSignature = 7150806;
  static constexpr double kKernelTarget = 1e8;  // issue 13, 15x15
};

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
  std::fflush(stdout);
  if (!ok) ++failures;
}

uint64_t total_rollouts(const std::vector<LeafStats>& s) {
  uint64_t t = 0;
  for (const LeafStats& x : s) t += x.rollouts;
  return t;
}

// "" when equal, else where they first differ.
std::string first_difference(const std::vector<LeafStats>& got,
                             const std::vector<LeafStats>& want) {
  if (got.size() != want.size())
    return ": " + std::to_string(got.size()) + " results, want " + std::to_string(want.size());
  for (size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == want[i])) return ": first difference at leaf " + std::to_string(i);
  return "";
}

// Policies of a batch: every leaf on the uniform policy, every leaf on the weighted one, or all
// mixed in one batch (leaf i on policy i % 3: uniform, weighted, and the game's third policy where
// it has one (Gomoku's pattern playouts), else weighted again), which the cuda backend groups
// before the launch and un-permutes after.
enum class Mix { kUniform, kWeighted, kMixed };

template <class G>
void set_policies(std::vector<Leaf<G>>& leaves, PlayoutParams<G>& p, Mix mix) {
  p.policies[0].kind = mix == Mix::kWeighted ? Setup<G>::kWeighted : decltype(p.policies[0].kind){};
  p.policies[1].kind = Setup<G>::kWeighted;
  if constexpr (requires { Setup<G>::kThird; })
    p.policies[2].kind = Setup<G>::kThird;
  else
    p.policies[2].kind = Setup<G>::kWeighted;
  if (mix == Mix::kMixed)
    for (size_t i = 0; i < leaves.size(); ++i) leaves[i].policy = static_cast<uint32_t>(i % 3);
}

template <class G>
std::string mix_name(Mix mix) {
  return mix == Mix::kUniform    ? "uniform"
         : mix == Mix::kWeighted ? Setup<G>::kWeightedName
                                 : "mixed";
}

// A batch of more than `at_least` rollouts (uniform counts of 64, or varied counts 1..64), so that
// a launch with fewer threads than that runs its grid-stride loop more than once.
template <class G>
std::vector<Leaf<G>> batch_above(uint64_t at_least, bool uniform) {
  const size_t n = uniform ? at_least / 64 + 1 : at_least / 20 + 1;  // varied: 32.5 rollouts a leaf
  auto leaves = random_batch<G>(Setup<G>::check_start, 77, n, 64, uniform);
  uint64_t total = 0;
  for (const auto& l : leaves) total += l.rollouts;
  while (!uniform && total - leaves.back().rollouts > at_least) {
    total -= leaves.back().rollouts;
    leaves.pop_back();
  }
  return leaves;
}

// Bit-identity of the backend under test against cpu on one game: sizes that are and are not
// multiples of the block size, one leaf, uniform and varied rollout counts, both policies and a
// mix, several block sizes, a batch that runs the grid-stride loop three times, one leaf with many
// rollouts, an empty batch, the check backend with two batches in flight.
template <class G>
void correctness(const Options& opt) {
  const std::string game = G::kName;
  BackendOptions o;
  o.threads = 0;
  o.max_leaves = 1 << 17;
  o.max_rollouts = 1 << 23;
  auto cpu = make_backend<G>("cpu", o);
  std::vector<size_t> sizes{1, 31, 127, 1000, 4099, 65537};
  std::vector<int> blocks{64, 128, 256};
  if (opt.quick) sizes = {1, 127, 4099};
  if (opt.sanitize) sizes = {1, 33, 130}, blocks = {64, 128};
  if (opt.target == "cpu") blocks = {128};  // the rehearsal: block sizes mean nothing on the cpu
  std::vector<std::unique_ptr<Backend<G>>> tested;
  for (int block : blocks) {
    o.block_size = block;
    tested.push_back(make_backend<G>(opt.target, o));
  }
  for (size_t n : sizes)
    for (bool uniform : {true, false})
      for (Mix mix : {Mix::kUniform, Mix::kWeighted, Mix::kMixed}) {
        auto leaves = random_batch<G>(Setup<G>::check_start, 1000 + n, n, n == 1 ? 1 : 37, uniform);
        PlayoutParams<G> p;
        p.seed = 4242 + n;
        set_policies(leaves, p, mix);
        std::vector<LeafStats> want(leaves.size());
        cpu->run(leaves, p, want);
        for (size_t b = 0; b < blocks.size(); ++b) {
          std::vector<LeafStats> got(leaves.size());
          tested[b]->run(leaves, p, got);
          check(got == want, game + ": block " + std::to_string(blocks[b]) + ", " +
                                 std::to_string(n) + " leaves, " +
                                 (uniform ? "uniform" : "varied") + " rollouts, " +
                                 mix_name<G>(mix) + " policy" + first_difference(got, want));
        }
      }

  o.block_size = 0;
  auto under_test = make_backend<G>(opt.target, o);
  PlayoutParams<G> p;
  if (!opt.sanitize) {
    // The cuda backend launches at most preferred_rollouts / 2 threads (a grid of 4 x the resident
    // blocks, against a preferred batch of 8 x the resident threads;
    // host/engines/cuda/cuda_backend.cu), so a batch above the largest preferred_rollouts runs the
    // grid-stride loop at least three times, on every block size.
    std::vector<Backend<G>*> all{under_test.get()};
    for (const auto& backend : tested) all.push_back(backend.get());
    blocks.insert(blocks.begin(), 0);
    uint64_t grid_threads = 1;
    for (const Backend<G>* backend : all)
      grid_threads = std::max<uint64_t>(grid_threads, backend->info().preferred_rollouts / 2);
    for (bool uniform : {true, false}) {
      auto leaves = batch_above<G>(2 * grid_threads, uniform);
      set_policies(leaves, p, Mix::kMixed);
      std::vector<LeafStats> want(leaves.size());
      cpu->run(leaves, p, want);
      const uint64_t total = total_rollouts(want);
      for (size_t b = 0; b < all.size(); ++b) {
        std::vector<LeafStats> got(leaves.size());
        all[b]->run(leaves, p, got);
        check(got == want && total > 2 * grid_threads,
              game + ": block " + (blocks[b] ? std::to_string(blocks[b]) : "default") + ", " +
                  std::to_string(total) + " rollouts (" + (uniform ? "uniform" : "varied") +
                  " counts, mixed policies) on grids of at most " + std::to_string(grid_threads) +
                  " threads: " + std::to_string((total + grid_threads - 1) / grid_threads) +
                  " or more grid-stride iterations" + first_difference(got, want));
      }
    }
  }
  const uint32_t many = opt.sanitize ? 1000 : 100000;
  const auto one = random_batch<G>(Setup<G>::check_start, 7, 1, many, true);
  std::vector<LeafStats> a(1), b(1);
  under_test->run(one, p, a);
  cpu->run(one, p, b);
  check(a == b,
        game + ": one leaf with " + std::to_string(many) + " rollouts" + first_difference(a, b));
  // An empty batch must neither fail nor disturb the next batch, which still equals cpu.
  try {
    std::vector<LeafStats> none;
    under_test->run({}, p, none);
    const auto after = random_batch<G>(Setup<G>::check_start, 10, 33, 16, false);
    std::vector<LeafStats> got(after.size()), want(after.size());
    under_test->run(after, p, got);
    cpu->run(after, p, want);
    check(got == want,
          game + ": empty batch, then a batch equal to cpu" + first_difference(got, want));
  } catch (const std::exception& e) {
    check(false, game + ": empty batch: " + e.what());
  }
  if (opt.sanitize) return;
  // The check backend with two batches in flight: no mismatch reported, and its results (those
  // of the backend under test) equal cpu's for each batch, in submission order.
  auto checked = make_backend<G>("check", o);
  const auto x = random_batch<G>(Setup<G>::check_start, 8, 500, 64, false);
  const auto y = random_batch<G>(Setup<G>::check_start, 9, 700, 32, true);
  std::vector<LeafStats> rx(x.size()), ry(y.size()), cx(x.size()), cy(y.size());
  try {
    const Ticket tx = checked->submit(x, p), ty = checked->submit(y, p);
    checked->wait(tx, rx);
    checked->wait(ty, ry);
    cpu->run(x, p, cx);
    cpu->run(y, p, cy);
    check(rx == cx && ry == cy, game + ": check backend, two batches in flight, results equal cpu");
  } catch (const std::exception& e) {
    check(false, game + ": check backend: " + e.what());
  }
}

struct SweepResult {
  double peak_kernel = 0, peak_e2e = 0;
};

// CSV fields must not hold commas.
std::string csv_text(std::string s) {
  for (char& c : s)
    if (c == ',' || c == '"') c = ' ';
  return s;
}

template <class G>
SweepResult sweep(Backend<G>& backend, int lo, int hi, double seconds, std::ofstream& csv) {
  PlayoutParams<G> params;
  params.seed = kSignatureSeed + 1;
  SweepResult r;
  std::printf("%s %s sweep (%s)\n%12s %10s %16s %16s\n", G::kName, backend.info().name.c_str(),
              backend.info().device.c_str(), "batch", "leaves", "kernel play/s", "e2e play/s");
  for (int k = lo; k <= hi; ++k) {
    const auto leaves = throughput_batch<G>(Setup<G>::start, params.seed, k, 64);
    const Throughput t = measure(backend, params, leaves, seconds, 2);
    std::printf("%12llu %10zu %16.4g %16.4g\n", 1ull << k, leaves.size(), t.kernel_rate(),
                t.e2e_rate());
    std::fflush(stdout);
    csv << G::kName << ',' << backend.info().name << ',' << csv_text(backend.info().device)
        << ",uniform," << (1ull << k) << ',' << leaves.size() << ',' << leaves[0].rollouts << ','
        << t.batches << ',' << t.kernel_rate() << ',' << t.e2e_rate() << ',' << t.plies_rate()
        << '\n';
    r.peak_kernel = std::max(r.peak_kernel, t.kernel_rate());
    r.peak_e2e = std::max(r.peak_e2e, t.e2e_rate());
  }
  return r;
}

struct Files {
  std::ofstream sweep_gpu, sweep_cpu, kernel;
  std::string rows;  // table.md rows
  std::string device;
};

template <class G>
void check_game(const Options& opt, Files& files) {
  const int failures_before = failures;
  correctness<G>(opt);
  if (opt.sanitize) return;
  BackendOptions o;
  o.threads = 0;
  o.max_rollouts = size_t{1} << 24;
  o.max_leaves = (size_t{1} << 24) / 64 + kSignatureLeaves;
  auto gpu = make_backend<G>(opt.target, o);
  auto cpu = make_backend<G>("cpu", o);
  files.device = gpu->info().device;
  const Totals sig_gpu = run_signature<G>(*gpu, Setup<G>::start),
               sig_cpu = run_signature<G>(*cpu, Setup<G>::start);
  check(sig_gpu.plies == sig_cpu.plies && sig_gpu.wins0 == sig_cpu.wins0 &&
            sig_gpu.wins1 == sig_cpu.wins1,
        std::string(G::kName) + ": signature " + std::to_string(sig_gpu.plies) + " on " +
            opt.target + ", " + std::to_string(sig_cpu.plies) + " on cpu");
  check(sig_cpu.plies == Setup<G>::kSignature, std::string(G::kName) + ": cpu signature " +
                                                   std::to_string(sig_cpu.plies) + ", pinned " +
                                                   std::to_string(Setup<G>::kSignature));
  const double secs = opt.seconds > 0 ? opt.seconds : opt.quick ? 0.2 : 0.5;
  const int gpu_hi = opt.max_log2 ? opt.max_log2 : opt.quick ? 22 : 24;
  const int cpu_hi = std::min(gpu_hi, opt.quick ? 20 : 22);
  const SweepResult g = sweep(*gpu, std::min(10, gpu_hi), gpu_hi, secs, files.sweep_gpu);
  const SweepResult c = sweep(*cpu, std::min(12, cpu_hi), cpu_hi, secs, files.sweep_cpu);
  const bool ok = failures == failures_before;
  const double ratio = c.peak_e2e > 0 ? g.peak_e2e / c.peak_e2e : 0.0;
  files.kernel << G::kName << ',' << opt.target << ',' << csv_text(gpu->info().device) << ','
               << g.peak_kernel << ',' << g.peak_e2e << ',' << c.peak_e2e << ',' << ratio << ','
               << Setup<G>::kKernelTarget << ',' << sig_gpu.plies << ',' << sig_cpu.plies << ','
               << (ok ? "PASS" : "FAIL") << '\n';
  char row[512];
  std::snprintf(row, sizeof row,
                "| %s | %.4g | %.4g | %.4g | %.1f | %.0e (%s) | %llu | %llu | %s |\n", G::kName,
                g.peak_kernel, g.peak_e2e, c.peak_e2e, ratio, Setup<G>::kKernelTarget,
                g.peak_kernel >= Setup<G>::kKernelTarget ? "met" : "not met",
                static_cast<unsigned long long>(sig_gpu.plies),
                static_cast<unsigned long long>(sig_cpu.plies), ok ? "PASS" : "FAIL");
  files.rows += row;
}

bool wanted(const Options& opt, const char* name) {
  return opt.games.empty() ||
         std::find(opt.games.begin(), opt.games.end(), name) != opt.games.end();
}

constexpr const char* kUsage =
    "usage: gpu_check [--out DIR] [--quick | --sanitize] [--target cuda|cpu] [--games a,b] "
    "[--seconds S] "
    "[--max-log2 K]\n";

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--out") && has_value)
      opt.out = argv[++i];
    else if (!std::strcmp(argv[i], "--quick"))
      opt.quick = true;
    else if (!std::strcmp(argv[i], "--sanitize"))
      opt.sanitize = true;
    else if (!std::strcmp(argv[i], "--target") && has_value)
      opt.target = argv[++i];
    else if (!std::strcmp(argv[i], "--seconds") && has_value)
      opt.seconds = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-log2") && has_value)
      opt.max_log2 = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--games") && has_value) {
      std::string list = argv[++i];
      for (size_t pos = 0; pos <= list.size();) {
        const size_t comma = std::min(list.find(',', pos), list.size());
        opt.games.push_back(list.substr(pos, comma - pos));
        pos = comma + 1;
      }
    } else if (!std::strcmp(argv[i], "--help")) {
      std::printf("%s", kUsage);
      return 0;
    } else {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    }
  }
  for (const std::string& g : opt.games)
    if (!is_game(g)) {
      std::fprintf(stderr, "gpu_check: unknown game '%s'; known games: %s\n", g.c_str(),
                   game_names_text().c_str());
      return 2;
    }
  if (opt.max_log2 < 0 || opt.max_log2 > 24 || opt.seconds < 0 ||
      (opt.target != "cuda" && opt.target != "cpu")) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  std::string reason;
  if (opt.target == "cuda" && !cuda_available(&reason)) {
    std::printf("no usable CUDA device: %s\n", reason.c_str());
    return 3;
  }
  Files files;
  try {
    if (!opt.sanitize) {
      files.sweep_gpu.open(opt.out + "/sweep-cuda.csv");
      files.sweep_cpu.open(opt.out + "/sweep-cpu.csv");
      files.kernel.open(opt.out + "/kernel.csv");
      if (!files.sweep_gpu || !files.sweep_cpu || !files.kernel)
        throw std::runtime_error("cannot write the CSV files in " + opt.out);
      const char* sweep_header =
          "game,backend,device,policy,batch_rollouts,leaves,rollouts_per_leaf,batches,"
          "kernel_playouts_per_s,e2e_playouts_per_s,plies_per_s\n";
      files.sweep_gpu << sweep_header;
      files.sweep_cpu << sweep_header;
      files.kernel << "game,target,device,kernel_playouts_per_s,e2e_playouts_per_s,"
                      "cpu_playouts_per_s,gpu_over_cpu,kernel_target,signature_tested,"
                      "signature_cpu,checks\n";
    }
#define SP_CHECK_GAME(G) \
  if (wanted(opt, G::kName)) check_game<G>(opt, files);
    SP_FOR_EACH_GAME(SP_CHECK_GAME)
#undef SP_CHECK_GAME
    if (opt.sanitize) {
      std::printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
      return failures ? 1 : 0;
    }
    char date[16];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    const std::string table =
        "gpu_check " + std::string(date) + ", " + opt.target + " on " + files.device +
        ", cpu backend on " + std::to_string(omp_get_num_procs()) + " threads" +
        (opt.quick ? ", --quick" : "") + "\n\n" + "| game | " + opt.target +
        " kernel playouts/s | " + opt.target + " end-to-end playouts/s | cpu playouts/s | " +
        opt.target + "/cpu | kernel target | signature " + opt.target +
        " | signature cpu | checks |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" +
        files.rows;
    std::ofstream(opt.out + "/table.md") << table;
    std::printf("\n%s", table.c_str());
  } catch (const std::exception& e) {
    std::printf("FAIL %s\n", e.what());
    return 1;
  }
  return failures ? 1 : 0;
}
