#include "games/checkers/egtb/verify.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>

#include "games/checkers/notation.hpp"

namespace sp::checkers::egtb {
namespace {

constexpr uint64_t kChunk = 1 << 13;  // positions per parallel item

// The plies file disagrees with a won or lost position: a win needs a lost successor at fewer
// plies (a conversion counts 0), a loss every successor that does not convert at fewer plies.
bool plies_wrong(const Tables& tables, const State& p, const MoveList& list, Value value) {
  const int at = tables.plies(p);
  if (at < 0 || value == kDraw) return false;
  if (list.size == 0) return at != 0;
  bool found = false;
  for (int k = 0; k < list.size; ++k) {
    State child = p;
    apply(child, list.moves[k]);
    const int after = tables.plies_after(p, child);
    if (value == kWin && tables.probe(child) == kLoss && after < at) found = true;
    if (value == kLoss && after >= at && at < 254) return true;
  }
  return value == kWin && !found;
}

}  // namespace

EndgameVerifyResult verify(const std::string& dir, const ParallelFor& parallel_for,
                           const std::function<void(const EndgameProgress&)>& progress) {
  const Tables tables(dir);
  EndgameVerifyResult result;
  EndgameProgress at;
  at.tables_total = static_cast<int>(tables.size());
  at.positions_total = tables.positions();
  std::mutex mutex;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& file : tables.files()) {
    const SignatureIndex& index = file->index();
    const uint64_t chunks = (index.size() + kChunk - 1) / kChunk;
    std::atomic<uint64_t> errors{0};
    run_parallel(parallel_for, chunks, [&](size_t c) {
      const uint64_t end = std::min<uint64_t>(index.size(), (c + 1) * kChunk);
      for (uint64_t i = c * kChunk; i < end; ++i) {
        const Boards b = index.unrank(i);
        const State p = state_of(b);
        MoveList list;
        generate_moves(p, list);
        Value expected = kLoss;
        std::string missing;
        for (int k = 0; k < list.size && expected != kWin; ++k) {
          State child = p;
          apply(child, list.moves[k]);
          const Value v = tables.probe(child);
          if (v == kUnknown) missing = table_file_name(material_of(canonical(child)));
          if (v == kLoss) expected = kWin;
          if (v == kDraw) expected = kDraw;
        }
        const Value stored = file->value(i);
        if (missing.empty() && stored == expected && !plies_wrong(tables, p, list, stored))
          continue;
        errors.fetch_add(1, std::memory_order_relaxed);
        std::lock_guard lock(mutex);
        if (result.first_errors.size() >= 20) continue;
        static constexpr const char* kNames[] = {"unknown", "win", "loss", "draw"};
        result.first_errors.push_back(
            file->path() + " index " + std::to_string(i) + " (" + to_string(p) + "): " +
            (!missing.empty() ? "a successor's table " + missing + " is missing"
             : stored != expected
                 ? std::string("stored ") + kNames[stored] + ", its moves give " + kNames[expected]
                 : "its plies (" + std::to_string(tables.plies(p)) +
                       ") do not fall along its best moves"));
      }
    });
    result.errors += errors.load();
    result.positions += index.size();
    result.tables += 1;
    at.table = file->path();
    at.tables_done += 1;
    at.positions_done += index.size();
    at.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(at);
  }
  return result;
}

}  // namespace sp::checkers::egtb
