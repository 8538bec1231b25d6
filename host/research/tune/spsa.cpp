#include "host/research/tune/spsa.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "games/hosts.hpp"
#include "host/base/hdf5/h5.hpp"
#include "host/base/system/atomic_file.hpp"
#include "host/base/system/build_info.hpp"
#include "host/base/system/system.hpp"
#include "host/play/config/load.hpp"
#include "host/research/tune/spsa_game.hpp"
#include "host/research/tune/tune_config.hpp"
#include "host/research/tune/tune_run.hpp"

namespace sp::tune {
namespace {

// Leaf word of the Delta stream: apart from every stream a game draws from.
constexpr uint32_t kLeafSpsa = 0xFFFFFFF0u;

double big_a_of(const SpsaSettings& s) { return s.big_a < 0 ? 0.1 * s.iterations : s.big_a; }

// The /spsa table: one row of 8-byte columns per iteration.
class TrajectoryFile {
 public:
  TrajectoryFile(const std::string& path, const std::vector<std::string>& names,
                 const std::string& config_text, uint64_t seed)
      : path_(path), tmp_(path + ".partial"), columns_(3 + 2 * names.size()) {
    namespace fs = std::filesystem;
    if (const fs::path parent = fs::path(path).parent_path(); !parent.empty())
      fs::create_directories(parent);
    file_ = io::create_file(tmp_, false);
    type_ = io::Datatype(io::check_id(H5Tcreate(H5T_COMPOUND, 8 * columns_), "H5Tcreate", "/spsa"));
    size_t offset = 0;
    const auto add = [&](const std::string& name, hid_t type) {
      io::check(H5Tinsert(type_.get(), name.c_str(), offset, type), "H5Tinsert", name);
      offset += 8;
    };
    add("iteration", H5T_NATIVE_INT64);
    add("wins", H5T_NATIVE_INT64);
    add("losses", H5T_NATIVE_INT64);
    for (const auto& n : names) add("theta_" + n, H5T_NATIVE_DOUBLE);
    for (const auto& n : names) add("c_k_" + n, H5T_NATIVE_DOUBLE);
    const std::vector<unsigned char> fill(8 * columns_, 0);
    io::ChunkedLayout layout;
    layout.chunk_rows = 64;
    table_ = io::create_table(file_.get(), "spsa", type_.get(), layout, fill.data());
    io::write_attribute(table_.get(), "parameters", names);
    io::write_attribute(table_.get(), "seed", seed);
    io::write_attribute(file_.get(), "config", config_text);
  }
  void append(const SpsaRow& r) {
    std::vector<unsigned char> row(8 * columns_);
    size_t at = 0;
    const auto put = [&](auto v) {
      std::memcpy(row.data() + at, &v, 8);
      at += 8;
    };
    put(int64_t{r.iteration});
    put(r.wins);
    put(r.losses);
    for (double t : r.theta) put(t);
    for (double c : r.c_k) put(c);
    io::append_rows(table_.get(), type_.get(), row.data(), 1);
    io::flush_file(file_, tmp_);
  }
  // Closes the file and renames it over path: path holds a complete trajectory or nothing new.
  void finish() {
    table_.close("/spsa");
    type_.close("/spsa type");
    file_.close(tmp_);
    std::filesystem::rename(tmp_, path_);
  }

 private:
  std::string path_, tmp_;
  size_t columns_;
  io::File file_;
  io::Datatype type_;
  io::Dataset table_;
};

std::string result_yaml(const SpsaSettings& s, uint64_t seed, const std::string& config_path,
                        const std::vector<double>& theta) {
  std::string out;
  out += "# SPSA result of selfplay tune (method: spsa)\n";
  out += fmt::format("# config      {}\n", config_path);
  out += fmt::format("# match       {} (engine A = engines.player0 tuned, {})\n", s.match,
                     s.mirror ? "mirrored: B plays theta - c_k Delta" : "B fixed");
  out += fmt::format("# iterations  {}, {} pairs each, seed {}, A {}, alpha {}, gamma {}\n",
                     s.iterations, s.pairs, seed, big_a_of(s), s.alpha, s.gamma);
  out += fmt::format("# date        {}, commit {}\n", utc_now(), build::git_commit());
  out += fmt::format("# program     {}\n", build::program_text());
  out += "# Copy the values into engines.player0 of a match or campaign config.\n";
  for (size_t i = 0; i < s.parameters.size(); ++i) {
    const SpsaParamConfig& p = s.parameters[i];
    out += fmt::format("{}: {}  # start {}, range [{}, {}]\n", p.name, theta[i], p.start, p.min,
                       p.max);
  }
  return out;
}

}  // namespace

std::vector<std::string> spsa_tunable(const std::vector<config::KeyInfo>& keys) {
  std::vector<std::string> out;
  for (const config::KeyInfo& k : keys)
    if (k.real && k.applies) out.push_back(k.name);
  return out;
}

void check_spsa_name(const SpsaParamConfig& p, const std::vector<config::KeyInfo>& keys,
                     const std::string& engine, const config::Document& doc,
                     const std::string& where) {
  const std::vector<std::string> tunable = spsa_tunable(keys);
  if (std::find(tunable.begin(), tunable.end(), p.name) != tunable.end()) return;
  std::string list;
  for (const std::string& n : tunable) list += (list.empty() ? "" : ", ") + n;
  const std::string can =
      "the keys SPSA can tune in " + engine + ": " + (list.empty() ? std::string("none") : list);
  const std::string name = config::detail::quote(p.name);
  const auto key = std::find_if(keys.begin(), keys.end(),
                                [&](const config::KeyInfo& k) { return k.name == p.name; });
  std::string what;
  if (key == keys.end()) {
    const std::string hint = config::closest_match(p.name, tunable);
    what = "unknown engine key " + name + "; " + can +
           (hint.empty() ? "" : "; did you mean '" + hint + "'?");
  } else if (!key->real) {
    what = name + " is not a real-valued key (" + key->type + "); " + can;
  } else {
    what = name + " applies only " + key->applies_text + "; " + can;
  }
  doc.fail(p.name_at, where + ".name", what);
}

SpsaGains spsa_gains(const SpsaParamConfig& p, uint32_t iterations, double big_a, double alpha,
                     double gamma) {
  SpsaGains g;
  g.c = p.c_end * std::pow(static_cast<double>(iterations), gamma);
  const double a_end = p.r_end * p.c_end * p.c_end;
  g.a = a_end * std::pow(big_a + iterations, alpha);
  return g;
}

std::vector<int> spsa_delta(uint64_t seed, uint32_t iteration, size_t count) {
  std::vector<int> delta(count);
  BlockStream stream(StreamId{seed, iteration, 0, kLeafSpsa, 0});
  Philox4x32 block{};
  for (size_t i = 0; i < count; ++i) {
    if (i % 4 == 0) block = stream.next();
    delta[i] = (block.v[i % 4] & 1u) ? 1 : -1;
  }
  return delta;
}

double spsa_c_k(const SpsaGains& g, uint32_t k, double gamma) {
  return g.c / std::pow(static_cast<double>(k), gamma);
}

std::vector<double> spsa_perturb(const std::vector<double>& theta, const std::vector<int>& delta,
                                 const std::vector<SpsaParamConfig>& params,
                                 const std::vector<SpsaGains>& gains, uint32_t k, double gamma,
                                 int sign) {
  std::vector<double> out(theta.size());
  for (size_t i = 0; i < theta.size(); ++i)
    out[i] = std::clamp(theta[i] + sign * spsa_c_k(gains[i], k, gamma) * delta[i], params[i].min,
                        params[i].max);
  return out;
}

std::vector<double> spsa_update(const std::vector<double>& theta, const std::vector<int>& delta,
                                const std::vector<SpsaParamConfig>& params,
                                const std::vector<SpsaGains>& gains, uint32_t k, double big_a,
                                double alpha, double gamma, int64_t wins, int64_t losses) {
  std::vector<double> out(theta.size());
  for (size_t i = 0; i < theta.size(); ++i) {
    const double c_k = spsa_c_k(gains[i], k, gamma);
    const double a_k = gains[i].a / std::pow(big_a + k, alpha);
    const double r_k = a_k / (c_k * c_k);
    out[i] = std::clamp(theta[i] + r_k * c_k * static_cast<double>(wins - losses) * delta[i],
                        params[i].min, params[i].max);
  }
  return out;
}

SpsaResult run_spsa_loop(const TuneConfig& config, const std::string& match_text,
                         const SpsaPlay& play, std::FILE* out, const std::atomic<bool>& stop) {
  const SpsaSettings& s = config.spsa;
  const uint64_t seed = config.seed;
  const size_t n = s.parameters.size();
  std::vector<std::string> names;
  std::vector<SpsaGains> gains;
  const double big_a = big_a_of(s);
  for (const SpsaParamConfig& p : s.parameters) {
    names.push_back(p.name);
    gains.push_back(spsa_gains(p, s.iterations, big_a, s.alpha, s.gamma));
  }
  TrajectoryFile file(s.output, names, match_text, seed);

  SpsaResult result;
  std::vector<double> theta;
  for (const auto& p : s.parameters) theta.push_back(std::clamp(p.start, p.min, p.max));
  fmt::print(out, "spsa        {} iterations x {} pairs, {}, match {}, A {:.4g}\n", s.iterations,
             s.pairs, s.mirror ? "mirrored" : "against the fixed engine B", s.match, big_a);
  for (uint32_t k = 1; k <= s.iterations && !stop; ++k) {
    const std::vector<int> delta = spsa_delta(seed, k, n);
    const auto plus = spsa_perturb(theta, delta, s.parameters, gains, k, s.gamma, +1);
    const auto minus = spsa_perturb(theta, delta, s.parameters, gains, k, s.gamma, -1);
    const uint64_t game_seed = splitmix64(splitmix64(seed) ^ k);
    SpsaRow row;
    row.iteration = k;
    if (s.mirror) {
      if (!play(game_seed, plus, &minus, row.wins, row.losses)) break;
    } else {
      // theta + c_k Delta and theta - c_k Delta each against B on the same games: W counts the
      // wins of the first and the losses of the second.
      int64_t w1 = 0, l1 = 0, w2 = 0, l2 = 0;
      if (!play(game_seed, plus, nullptr, w1, l1) || !play(game_seed, minus, nullptr, w2, l2))
        break;
      row.wins = w1 + l2;
      row.losses = l1 + w2;
    }
    theta = spsa_update(theta, delta, s.parameters, gains, k, big_a, s.alpha, s.gamma, row.wins,
                        row.losses);
    row.theta = theta;
    for (size_t i = 0; i < n; ++i) row.c_k.push_back(spsa_c_k(gains[i], k, s.gamma));
    file.append(row);
    std::string line =
        fmt::format("iter {:>5}/{}  W {:>3} L {:>3} ", k, s.iterations, row.wins, row.losses);
    for (size_t i = 0; i < n; ++i) line += fmt::format(" {} {:.5g}", names[i], theta[i]);
    fmt::print(out, "{}\n", line);
    std::fflush(out);
    result.rows.push_back(std::move(row));
  }
  file.finish();
  result.theta = theta;
  write_file_atomically(s.result, result_yaml(s, seed, config.source_path, theta));
  fmt::print(out, "wrote       {}\nwrote       {}\n", s.output, s.result);
  return result;
}

SpsaResult run_spsa(const TuneConfig& config, std::FILE* out, const std::atomic<bool>& stop) {
  const SpsaSettings& s = config.spsa;
  if (s.parameters.empty()) throw InputError(config.source_path + ": key 'spsa.parameters': empty");
  const std::string game = config::config_file_game(s.match);
  if (!config.game.name.empty() && config.game.name != game)
    fail_at(
        config, config.game.at, "game",
        config.game.name + ", but spsa.match (" + excerpt(s.match) + ") is a config for " + game);
  return with_game(game, [&]<class G>() {
    return run_spsa<G>(config, config::load_match_config<G>(s.match), out, stop);
  });
}

}  // namespace sp::tune
