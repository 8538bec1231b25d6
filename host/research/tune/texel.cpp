#include "host/research/tune/texel.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_set>

#include "core/errors.hpp"
#include "core/philox.hpp"

namespace sp::tune {
namespace {

// Rows per block of the deterministic sums: each block is summed in row order, then the blocks in
// block order, whatever thread computed them.
constexpr size_t kBlock = 4096;
// Less work than this (feature values per pass) runs on one thread: a parallel region costs more.
constexpr size_t kParallelWork = size_t{1} << 20;

double sigmoid(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}

// Loss of one position at logit z, and its derivative by z.
struct PointLoss {
  double value, slope;
};

PointLoss point_loss(double z, double r, Loss loss) {
  const double p = sigmoid(z);
  if (loss == Loss::kMse) return {(p - r) * (p - r), 2 * (p - r) * p * (1 - p)};
  // -(r log p + (1 - r) log(1 - p)) = softplus(z) - r z, without overflow for large |z|.
  const double softplus = std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z)));
  return {softplus - r * z, p - r};
}

size_t block_count(size_t n) { return (n + kBlock - 1) / kBlock; }

double dot(const float* x, const double* w, size_t f) {
  double s = 0;
  for (size_t j = 0; j < f; ++j) s += w[j] * static_cast<double>(x[j]);
  return s;
}

// Mean loss (and, when grad is non-null, its gradient by u) of sigmoid(u . x).
double loss_and_gradient(const Positions& p, const std::vector<double>& u, Loss loss,
                         std::vector<double>* grad) {
  const size_t n = p.size(), f = p.num_features, blocks = block_count(n);
  assert(n > 0 && u.size() == f);
  std::vector<double> block_loss(blocks, 0.0);
  std::vector<double> block_grad(grad ? blocks * f : 0, 0.0);
#pragma omp parallel for schedule(static) if (n * f >= kParallelWork)
  for (size_t b = 0; b < blocks; ++b) {
    const size_t end = std::min(n, (b + 1) * kBlock);
    double sum = 0;
    double* g = grad ? block_grad.data() + b * f : nullptr;
    for (size_t i = b * kBlock; i < end; ++i) {
      const float* x = p.row(i);
      const PointLoss l = point_loss(dot(x, u.data(), f), p.results[i], loss);
      sum += l.value;
      if (g)
        for (size_t j = 0; j < f; ++j) g[j] += l.slope * static_cast<double>(x[j]);
    }
    block_loss[b] = sum;
  }
  double total = 0;
  for (size_t b = 0; b < blocks; ++b) total += block_loss[b];
  if (grad) {
    grad->assign(f, 0.0);
    for (size_t b = 0; b < blocks; ++b)
      for (size_t j = 0; j < f; ++j) (*grad)[j] += block_grad[b * f + j];
    for (double& g : *grad) g /= static_cast<double>(n);
  }
  return total / static_cast<double>(n);
}

// Mean loss of sigmoid(k * s_i) for precomputed scores s.
double loss_of_scores(const std::vector<double>& s, const std::vector<float>& r, double k,
                      Loss loss) {
  const size_t n = s.size(), blocks = block_count(n);
  std::vector<double> block_loss(blocks, 0.0);
#pragma omp parallel for schedule(static) if (n >= kParallelWork / 8)
  for (size_t b = 0; b < blocks; ++b) {
    const size_t end = std::min(n, (b + 1) * kBlock);
    double sum = 0;
    for (size_t i = b * kBlock; i < end; ++i) sum += point_loss(k * s[i], r[i], loss).value;
    block_loss[b] = sum;
  }
  double total = 0;
  for (const double v : block_loss) total += v;
  return total / static_cast<double>(n);
}

}  // namespace

void Positions::append(const Positions& other, size_t i) {
  assert(other.num_features == num_features && i < other.size());
  const float* x = other.row(i);
  features.insert(features.end(), x, x + num_features);
  results.push_back(other.results[i]);
  games.push_back(other.games[i]);
}

double mean_loss(const Positions& p, const std::vector<double>& w, double k, Loss loss) {
  std::vector<double> u(w);
  for (double& v : u) v *= k;
  return loss_and_gradient(p, u, loss, nullptr);
}

bool in_validation(uint64_t game, uint64_t seed, double fraction) {
  const uint64_t h = splitmix64(splitmix64(seed) ^ game);
  return static_cast<double>(h >> 11) * 0x1.0p-53 < fraction;
}

Split split_by_game(Positions p, double fraction, uint64_t seed) {
  Split s;
  s.train.num_features = s.validation.num_features = p.num_features;
  for (size_t i = 0; i < p.size(); ++i)
    (in_validation(p.games[i], seed, fraction) ? s.validation : s.train).append(p, i);
  return s;
}

size_t count_games(const Positions& p) {
  return std::unordered_set<uint64_t>(p.games.begin(), p.games.end()).size();
}

KFit fit_k(const Positions& p, const std::vector<double>& w, Loss loss,
           const KFitOptions& options) {
  assert(p.size() > 0 && w.size() == p.num_features);
  assert(0 < options.lo && options.lo < options.hi && options.grid_points >= 2);
  std::vector<double> s(p.size());
  bool any = false;
  for (size_t i = 0; i < p.size(); ++i) {
    s[i] = dot(p.row(i), w.data(), p.num_features);
    any = any || s[i] != 0;
  }
  if (!any)
    throw InputError(
        "K cannot be fitted: the initial weights score every training position 0 (any K fits "
        "equally); start from weights that are not all zero on these features");
  const auto at = [&](double log_k) { return loss_of_scores(s, p.results, std::exp(log_k), loss); };
  const double a0 = std::log(options.lo), b0 = std::log(options.hi);
  KFit fit;
  if (options.method == KSearch::kGrid) {
    const int n = options.grid_points;
    int best = 0;
    double best_loss = 0;
    for (int i = 0; i < n; ++i) {
      const double l = at(a0 + (b0 - a0) * i / (n - 1));
      if (i == 0 || l < best_loss) best = i, best_loss = l;
    }
    fit.k = std::exp(a0 + (b0 - a0) * best / (n - 1));
    fit.loss = best_loss;
    fit.at_boundary = best == 0 || best == n - 1;
    return fit;
  }
  const GoldenMinimum m = golden_minimum(at, a0, b0, std::log1p(options.tolerance));
  const double best = m.x;
  fit.k = std::exp(best);
  fit.loss = m.value;
  const double edge = 1e-3;  // within 0.1% of an end
  fit.at_boundary = best - a0 < edge || b0 - best < edge;
  return fit;
}

TexelResult tune_weights(const Positions& train, const Positions& validation,
                         const std::vector<double>& w0, double k, const TexelOptions& o,
                         const std::function<void(const EpochReport&)>& on_report) {
  const size_t f = train.num_features;
  assert(train.size() > 0 && w0.size() == f && k > 0 && o.epochs >= 0 && o.report_every >= 1);
  assert(validation.size() == 0 || validation.num_features == f);
  assert(o.tuned.empty() || o.tuned.size() == f);
  assert((o.lower.empty() || o.lower.size() == f) && (o.upper.empty() || o.upper.size() == f));
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const auto tuned = [&](size_t j) { return o.tuned.empty() || o.tuned[j]; };
  const auto lower = [&](size_t j) { return o.lower.empty() ? -kInf : o.lower[j]; };
  const auto upper = [&](size_t j) { return o.upper.empty() ? kInf : o.upper[j]; };

  std::vector<double> w(w0), u(f);
  for (size_t j = 0; j < f; ++j) {
    if (tuned(j)) w[j] = std::clamp(w[j], lower(j), upper(j));
    u[j] = k * w[j];
  }
  std::vector<double> grad(f), m(f, 0.0), v(f, 0.0);
  TexelResult result;
  const auto objective = [&](double train_loss) {
    double penalty = 0;
    for (size_t j = 0; j < f; ++j)
      if (tuned(j)) penalty += u[j] * u[j];
    return train_loss + o.l2 * penalty;
  };
  double beta1_t = 1, beta2_t = 1;
  for (int epoch = 0;; ++epoch) {
    const double train_loss =
        loss_and_gradient(train, u, o.loss, epoch == o.epochs ? nullptr : &grad);
    // Once a loss is NaN or infinite every later step is too: stop and report this epoch.
    const bool broken = !std::isfinite(train_loss);
    const bool last = epoch == o.epochs || broken;
    if (epoch == 0 || last || epoch % o.report_every == 0) {
      EpochReport r{epoch, train_loss, std::numeric_limits<double>::quiet_NaN()};
      if (validation.size() > 0)
        r.validation_loss = loss_and_gradient(validation, u, o.loss, nullptr);
      result.history.push_back(r);
      if (on_report) on_report(r);
    }
    if (epoch == 0) result.objective_before = objective(train_loss);
    if (broken)
      result.diverged = "the training loss is " + std::to_string(train_loss) + " at epoch " +
                        std::to_string(epoch);
    if (last) {
      result.objective_after = objective(train_loss);
      break;
    }
    beta1_t *= o.adam_beta1;
    beta2_t *= o.adam_beta2;
    for (size_t j = 0; j < f; ++j) {
      if (!tuned(j)) continue;
      const double g = grad[j] + 2 * o.l2 * u[j];
      double step = o.learning_rate * g;
      if (o.optimizer == Optimizer::kAdam) {
        m[j] = o.adam_beta1 * m[j] + (1 - o.adam_beta1) * g;
        v[j] = o.adam_beta2 * v[j] + (1 - o.adam_beta2) * g * g;
        const double m_hat = m[j] / (1 - beta1_t), v_hat = v[j] / (1 - beta2_t);
        step = o.learning_rate * m_hat / (std::sqrt(v_hat) + o.adam_epsilon);
      }
      u[j] = std::clamp(u[j] - step, k * lower(j), k * upper(j));
    }
  }
  for (size_t j = 0; j < f; ++j)
    if (tuned(j)) w[j] = std::clamp(u[j] / k, lower(j), upper(j));
  result.weights = std::move(w);
  result.before = result.history.front();
  result.after = result.history.back();
  if (result.diverged.empty())
    result.diverged = objective_rise(result.objective_before, result.objective_after,
                                     result.history.back().epoch);
  return result;
}

std::string objective_rise(double before, double after, int epochs) {
  if (after <= before + kDivergedRise * std::abs(before)) return "";
  char text[160];
  std::snprintf(text, sizeof text,
                "the training objective (loss plus L2) rose from %.6g to %.6g over %d epochs",
                before, after, epochs);
  return text;
}

GoldenMinimum golden_minimum(const std::function<double(double)>& f, double a, double b,
                             double tolerance) {
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double c = b - ratio * (b - a), d = a + ratio * (b - a);
  double fc = f(c), fd = f(d);
  while (b - a > tolerance) {
    if (fc <= fd) {
      b = d, d = c, fd = fc;
      c = b - ratio * (b - a);
      fc = f(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + ratio * (b - a);
      fd = f(d);
    }
  }
  return fc <= fd ? GoldenMinimum{c, fc} : GoldenMinimum{d, fd};
}

}  // namespace sp::tune
