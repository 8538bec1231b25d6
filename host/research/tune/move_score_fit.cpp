#include "host/research/tune/move_score_fit.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/errors.hpp"
#include "host/research/tune/texel.hpp"

namespace sp::tune {
namespace {

// Choices per block of the deterministic sums (as texel.cpp's rows).
constexpr size_t kBlock = 1024;
// Fewer candidates than this per pass run on one thread: a parallel region costs more.
constexpr size_t kParallelCandidates = size_t{1} << 16;

size_t block_count(size_t n) { return (n + kBlock - 1) / kBlock; }

double score_of(const MoveChoices& c, size_t k, const double* u) {
  const int32_t a = c.entries[2 * k], b = c.entries[2 * k + 1];
  return (a >= 0 ? u[a] : 0.0) + (b >= 0 ? u[b] : 0.0);
}

// Mean loss (and, when grad is non-null, its gradient by u) of softmax(candidate scores under u).
double loss_and_gradient(const MoveChoices& c, const std::vector<double>& u,
                         std::vector<double>* grad) {
  const size_t n = c.size(), e = u.size(), blocks = block_count(n);
  assert(n > 0);
  std::vector<double> block_loss(blocks, 0.0);
  std::vector<double> block_grad(grad ? blocks * e : 0, 0.0);
#pragma omp parallel for schedule(static) if (c.candidates() >= kParallelCandidates)
  for (size_t b = 0; b < blocks; ++b) {
    const size_t end = std::min(n, (b + 1) * kBlock);
    double* g = grad ? block_grad.data() + b * e : nullptr;
    std::vector<double> s;
    double sum = 0;
    for (size_t i = b * kBlock; i < end; ++i) {
      const size_t lo = c.first[i], hi = c.first[i + 1];
      s.resize(hi - lo);
      double top = -std::numeric_limits<double>::infinity();
      for (size_t k = lo; k < hi; ++k) top = std::max(top, s[k - lo] = score_of(c, k, u.data()));
      double z = 0;
      for (double& v : s) z += (v = std::exp(v - top));
      const size_t played = lo + c.played[i];
      sum += std::log(z) - std::log(s[played - lo]);
      if (!g) continue;
      for (size_t k = lo; k < hi; ++k) {
        const double p = s[k - lo] / z - (k == played ? 1.0 : 0.0);
        for (int r = 0; r < 2; ++r)
          if (const int32_t x = c.entries[2 * k + r]; x >= 0) g[x] += p;
      }
    }
    block_loss[b] = sum;
  }
  double total = 0;
  for (const double v : block_loss) total += v;
  if (grad) {
    grad->assign(e, 0.0);
    for (size_t b = 0; b < blocks; ++b)
      for (size_t j = 0; j < e; ++j) (*grad)[j] += block_grad[b * e + j];
    for (double& g : *grad) g /= static_cast<double>(n);
  }
  return total / static_cast<double>(n);
}

}  // namespace

void MoveChoices::add(std::span<const std::array<int32_t, 2>> candidates, uint32_t played_index,
                      uint64_t game) {
  assert(played_index < candidates.size());
  for (const auto& c : candidates) entries.insert(entries.end(), c.begin(), c.end());
  first.push_back(static_cast<uint32_t>(entries.size() / 2));
  played.push_back(played_index);
  games.push_back(game);
}

void MoveChoices::append(const MoveChoices& other, size_t i) {
  const auto* lo = other.entries.data() + 2 * size_t{other.first[i]};
  const auto* hi = other.entries.data() + 2 * size_t{other.first[i + 1]};
  entries.insert(entries.end(), lo, hi);
  first.push_back(static_cast<uint32_t>(entries.size() / 2));
  played.push_back(other.played[i]);
  games.push_back(other.games[i]);
}

ChoiceSplit split_choices_by_game(const MoveChoices& c, double fraction, uint64_t seed) {
  ChoiceSplit s;
  for (size_t i = 0; i < c.size(); ++i)
    (in_validation(c.games[i], seed, fraction) ? s.validation : s.train).append(c, i);
  return s;
}

ChoiceStats choice_stats(const MoveChoices& c, const std::vector<double>& w, double t) {
  assert(c.size() > 0 && t > 0);
  std::vector<double> u(w.size()), rounded(w.size());
  for (size_t j = 0; j < w.size(); ++j) {
    u[j] = w[j] / t;
    rounded[j] = std::round(w[j]);
  }
  ChoiceStats out;
  out.loss = loss_and_gradient(c, u, nullptr);
  uint64_t top1 = 0, top5 = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const size_t lo = c.first[i], played = lo + c.played[i];
    const double mine = score_of(c, played, rounded.data());
    size_t rank = 0;  // the candidates the search orders before the played one
    for (size_t k = lo; k < c.first[i + 1]; ++k) {
      const double s = score_of(c, k, rounded.data());
      rank += s > mine || (s == mine && k < played);
    }
    top1 += rank == 0;
    top5 += rank < 5;
  }
  out.top1 = static_cast<double>(top1) / static_cast<double>(c.size());
  out.top5 = static_cast<double>(top5) / static_cast<double>(c.size());
  return out;
}

TemperatureFit fit_temperature(const MoveChoices& c, const std::vector<double>& w, double lo,
                               double hi) {
  assert(c.size() > 0 && 0 < lo && lo < hi);
  bool differ = false;
  for (size_t i = 0; i < c.size() && !differ; ++i)
    for (size_t k = c.first[i] + 1; k < c.first[i + 1] && !differ; ++k)
      differ = score_of(c, k, w.data()) != score_of(c, c.first[i], w.data());
  if (!differ)
    throw InputError(
        "the temperature cannot be fitted: the initial move scores give every candidate of every "
        "position the same score (any temperature fits equally)");
  const auto at = [&](double log_t) {
    std::vector<double> u(w);
    for (double& v : u) v /= std::exp(log_t);
    return loss_and_gradient(c, u, nullptr);
  };
  const double a0 = std::log(lo), b0 = std::log(hi);
  const GoldenMinimum m = golden_minimum(at, a0, b0, 1e-6);
  const double best = m.x;
  TemperatureFit fit;
  fit.t = std::exp(best);
  fit.loss = m.value;
  fit.at_boundary = best - a0 < 1e-3 || b0 - best < 1e-3;
  return fit;
}

MoveScoreFitResult fit_move_scores(const MoveChoices& train, const MoveChoices& validation,
                                   const std::vector<double>& w0, double t,
                                   const MoveScoreFitOptions& o,
                                   const std::function<void(const MoveScoreEpoch&)>& on_report) {
  const size_t e = w0.size();
  assert(train.size() > 0 && t > 0 && o.epochs >= 0 && o.report_every >= 1);
  assert(o.tuned.empty() || o.tuned.size() == e);
  const auto tuned = [&](size_t j) { return o.tuned.empty() || o.tuned[j]; };
  MoveScoreFitResult result;
  result.seen.assign(e, 0);
  for (const int32_t x : train.entries)
    if (x >= 0) ++result.seen[static_cast<size_t>(x)];

  std::vector<double> u0(e), u(e), grad(e), m(e, 0.0), v(e, 0.0), w(w0);
  for (size_t j = 0; j < e; ++j) u0[j] = u[j] = std::clamp(w0[j], -o.bound, o.bound) / t;
  const auto weights = [&] {
    for (size_t j = 0; j < e; ++j)
      w[j] = u[j] == u0[j] ? w0[j] : std::clamp(u[j] * t, -o.bound, o.bound);
  };
  const auto objective = [&](double loss) {
    double penalty = 0;
    for (size_t j = 0; j < e; ++j)
      if (tuned(j)) penalty += (u[j] - u0[j]) * (u[j] - u0[j]);
    return loss + o.l2 * penalty;
  };
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double beta1_t = 1, beta2_t = 1;
  for (int epoch = 0;; ++epoch) {
    const double loss = loss_and_gradient(train, u, epoch == o.epochs ? nullptr : &grad);
    const bool broken = !std::isfinite(loss);
    const bool last = epoch == o.epochs || broken;
    if (epoch == 0) result.objective_before = objective(loss);
    if (epoch == 0 || last || epoch % o.report_every == 0) {
      weights();
      MoveScoreEpoch r;
      r.epoch = epoch;
      r.train = choice_stats(train, w, t);
      r.validation =
          validation.size() > 0 ? choice_stats(validation, w, t) : ChoiceStats{kNaN, kNaN, kNaN};
      result.history.push_back(r);
      if (on_report) on_report(r);
    }
    if (broken)
      result.diverged =
          "the training loss is " + std::to_string(loss) + " at epoch " + std::to_string(epoch);
    if (last) {
      result.objective_after = objective(loss);
      break;
    }
    beta1_t *= o.adam_beta1;
    beta2_t *= o.adam_beta2;
    for (size_t j = 0; j < e; ++j) {
      if (!tuned(j)) continue;
      const double g = grad[j] + 2 * o.l2 * (u[j] - u0[j]);
      if (g == 0 && m[j] == 0) continue;  // no data and at its prior: it stays exactly there
      m[j] = o.adam_beta1 * m[j] + (1 - o.adam_beta1) * g;
      v[j] = o.adam_beta2 * v[j] + (1 - o.adam_beta2) * g * g;
      const double m_hat = m[j] / (1 - beta1_t), v_hat = v[j] / (1 - beta2_t);
      u[j] = std::clamp(u[j] - o.learning_rate * m_hat / (std::sqrt(v_hat) + o.adam_epsilon),
                        -o.bound / t, o.bound / t);
    }
  }
  weights();
  result.weights = w;
  if (result.diverged.empty())
    result.diverged = objective_rise(result.objective_before, result.objective_after,
                                     result.history.back().epoch);
  return result;
}

}  // namespace sp::tune
