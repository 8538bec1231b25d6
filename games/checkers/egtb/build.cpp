#include "games/checkers/egtb/build.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "core/errors.hpp"

namespace sp::checkers::egtb {
namespace {

// The build's byte per position: the value in bits 6-7 (kUnknown while unresolved), bit 5 set
// when an exit draws, bits 0-4 the moves inside the pair not yet refuted (at most 4 per king).
constexpr uint8_t kDrawExit = 0x20;
constexpr uint8_t kCountMask = 0x1F;
constexpr uint8_t resolved(Value v) { return static_cast<uint8_t>(v << 6); }
constexpr Value value_of(uint8_t byte) { return static_cast<Value>(byte >> 6); }

constexpr uint64_t kChunk = 1 << 13;  // positions per parallel item

struct Half {
  Material m;
  SignatureIndex index;
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> plies;  // won and lost positions: plies to a conversion (table.hpp)
  explicit Half(const Material& material)
      : m(material), index(material), bytes(index.size(), 0), plies(index.size(), 0) {}
};

// A frontier entry: the half (bit 63) and the index.
constexpr uint64_t kOtherHalf = 1ull << 63;

bool is_promotion(const State& s, const MoveEffect& e) {
  return (s.kings & e.from) == 0 && (e.to & crown_row(s.side)) != 0;
}

// The successor's value for its side to move, from the finished tables.
Value exit_value(const Tables& tables, const State& child) {
  const Value v = tables.probe(child);
  if (v == kUnknown)
    throw std::logic_error("egtb build: an exit into a table not built yet (" +
                           table_file_name(material_of(canonical(child))) + ")");
  return v;
}

// The init pass for one position: its exits' values and its moves inside the pair.
uint8_t first_value(const Tables& tables, const Boards& b, bool* has_move) {
  const State p = state_of(b);
  MoveList list;
  generate_moves(p, list);
  *has_move = list.size > 0;
  if (list.size == 0) return resolved(kLoss);
  const bool capture = move_jumps(list.moves[0]) > 0;
  uint8_t inside = 0, draw_exit = 0;
  for (int i = 0; i < list.size; ++i) {
    const MoveEffect e = effect_of(list.moves[i]);
    if (!capture && !is_promotion(p, e)) {
      ++inside;
      continue;
    }
    State child = p;
    apply_effect(child, e.from, e.to, e.captured);
    const Value v = exit_value(tables, child);
    if (v == kLoss) return resolved(kWin);
    if (v == kDraw) draw_exit = kDrawExit;
  }
  if (inside == 0) return resolved(draw_exit ? kDraw : kLoss);
  return static_cast<uint8_t>(draw_exit | inside);
}

// Concatenates per-item vectors.
std::vector<uint64_t> joined(std::vector<std::vector<uint64_t>>& parts) {
  size_t n = 0;
  for (const auto& p : parts) n += p.size();
  std::vector<uint64_t> out;
  out.reserve(n);
  for (auto& p : parts) {
    out.insert(out.end(), p.begin(), p.end());
    std::vector<uint64_t>().swap(p);
  }
  return out;
}

// Solves a material and its flip (one Half when they are the same).
void solve_pair(const Tables& tables, Half& a, Half* b_or_null, const ParallelFor& parallel_for) {
  Half& b = b_or_null ? *b_or_null : a;
  Half* halves[2] = {&a, &b};
  const int count_halves = b_or_null ? 2 : 1;
  std::vector<uint64_t> frontier;
  for (int h = 0; h < count_halves; ++h) {
    Half& half = *halves[h];
    const uint64_t chunks = (half.index.size() + kChunk - 1) / kChunk;
    std::vector<std::vector<uint64_t>> found(chunks);
    run_parallel(parallel_for, chunks, [&](size_t c) {
      const uint64_t end = std::min<uint64_t>(half.index.size(), (c + 1) * kChunk);
      for (uint64_t i = c * kChunk; i < end; ++i) {
        bool has_move = true;
        const uint8_t byte = first_value(tables, half.index.unrank(i), &has_move);
        half.bytes[i] = byte;
        const Value v = value_of(byte);
        // Resolved here: the win or the loss is a conversion away (none left: the end).
        half.plies[i] = has_move ? 1 : 0;
        if (v == kWin || v == kLoss) found[c].push_back(i | (h ? kOtherHalf : 0));
      }
    });
    std::vector<uint64_t> more = joined(found);
    frontier.insert(frontier.end(), more.begin(), more.end());
  }
  for (int level = 1; !frontier.empty(); ++level) {
    const uint64_t chunks = (frontier.size() + kChunk - 1) / kChunk;
    std::vector<std::vector<uint64_t>> next(chunks);
    run_parallel(parallel_for, chunks, [&](size_t c) {
      const uint64_t end = std::min<uint64_t>(frontier.size(), (c + 1) * kChunk);
      for (uint64_t f = c * kChunk; f < end; ++f) {
        const int h = (frontier[f] & kOtherHalf) ? 1 : 0;
        const uint64_t at = frontier[f] & ~kOtherHalf;
        const Half& from = *halves[h];
        // Predecessors have the other side to move: the flip of this position's material.
        const int to_h = count_halves == 2 ? 1 - h : 0;
        Half& to = *halves[to_h];
        const Value v = value_of(from.bytes[at]);
        const Boards q = from.index.unrank(at);
        const uint32_t empty = ~(q.black | q.white);
        // White moved last: each White piece steps back where the square is empty (a man came
        // from the south, a king from anywhere) and White had no capture there.
        for (uint32_t pieces = q.white; pieces;) {
          const uint32_t t = 1u << pop_lsb(pieces);
          const bool king = (q.kings & t) != 0;
          for (int d = 0; d < kDirections; ++d) {
            if (!king && d != kSouthWest && d != kSouthEast) continue;
            const uint32_t s = shift(t, d) & empty;
            if (!s) continue;
            State r = state_of({q.black, q.white ^ t ^ s, king ? q.kings ^ t ^ s : q.kings});
            r.side = 1;
            if (all_jumpers(r)) continue;
            const uint64_t i = to.index.rank(canonical(r));
            std::atomic_ref<uint8_t> cell(to.bytes[i]);
            uint8_t old = cell.load(std::memory_order_relaxed);
            for (;;) {
              if (value_of(old) != kUnknown) break;
              uint8_t now;
              if (v == kLoss) {
                now = resolved(kWin);
              } else if ((old & kCountMask) == 1) {
                now = resolved((old & kDrawExit) ? kDraw : kLoss);
              } else {
                now = static_cast<uint8_t>(old - 1);
              }
              if (cell.compare_exchange_weak(old, now, std::memory_order_relaxed)) {
                const Value nv = value_of(now);
                if (nv == kWin || nv == kLoss) {
                  // Its level (the thread that resolved it is its only writer): a win's best
                  // move leads to a loss one level down, a loss's every move to a lower level.
                  to.plies[i] = static_cast<uint8_t>(std::min(254, level + 1));
                  next[c].push_back(i | (to_h ? kOtherHalf : 0));
                }
                break;
              }
            }
          }
        }
      }
    });
    frontier = joined(next);
  }
}

std::vector<uint8_t> final_values(const Half& half, uint64_t* wins, uint64_t* losses,
                                  uint64_t* draws) {
  std::vector<uint8_t> values(half.bytes.size());
  *wins = *losses = *draws = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    Value v = value_of(half.bytes[i]);
    if (v == kUnknown) v = kDraw;
    values[i] = v;
    (v == kWin ? *wins : v == kLoss ? *losses : *draws) += 1;
  }
  return values;
}

}  // namespace

std::vector<Material> materials_of(int pieces) {
  std::vector<Material> out;
  for (int bk = 0; bk <= pieces; ++bk)
    for (int bm = 0; bk + bm <= pieces; ++bm)
      for (int wk = 0; bk + bm + wk <= pieces; ++wk) {
        const Material m{bk, bm, wk, pieces - bk - bm - wk};
        if (bk + bm > 0 && m.white_kings + m.white_men > 0) out.push_back(m);
      }
  std::stable_sort(out.begin(), out.end(),
                   [](const Material& x, const Material& y) { return x.men() < y.men(); });
  return out;
}

uint64_t configurations(int pieces) {
  uint64_t n = 0;
  for (int bk = 0; bk <= pieces; ++bk)
    for (int bm = 0; bk + bm <= pieces; ++bm)
      for (int wk = 0; bk + bm + wk <= pieces; ++wk)
        n += SignatureIndex({bk, bm, wk, pieces - bk - bm - wk}).size();
  return n;
}

EndgameBuildResult build(const EndgameBuildOptions& options) {
  if (options.pieces < 2 || options.pieces > kMaxPieces)
    throw InputError("egtb build: pieces must be 2 to " + std::to_string(kMaxPieces));
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  if (!fs::is_directory(options.dir, ec))
    throw InputError("egtb build: cannot make the folder " + excerpt(options.dir) +
                     (ec ? ": " + ec.message() : ""));
  // A killed build leaves at most a temporary file of the table pair in hand.
  for (fs::directory_iterator it(options.dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("checkers-") && name.ends_with(".tmp")) fs::remove(it->path(), ec);
  }
  Tables tables(options.dir);
  struct Pair {
    Material a, b;
    bool same;
  };
  std::vector<Pair> pairs;
  uint64_t total = 0;
  for (int n = 2; n <= options.pieces; ++n)
    for (const Material& m : materials_of(n)) {
      const Material f = m.flipped();
      const bool seen = std::any_of(pairs.begin(), pairs.end(),
                                    [&](const Pair& p) { return p.a == m || p.b == m; });
      if (seen) continue;
      pairs.push_back({m, f, m == f});
      total += SignatureIndex(m).size() + (m == f ? 0 : SignatureIndex(f).size());
    }
  const int tables_total = static_cast<int>(pairs.size() * 2) -
                           static_cast<int>(std::count_if(pairs.begin(), pairs.end(),
                                                          [](const Pair& p) { return p.same; }));
  EndgameBuildResult result;
  EndgameProgress progress;
  progress.tables_total = tables_total;
  progress.positions_total = total;
  const auto start = std::chrono::steady_clock::now();
  const auto report = [&](const Material& m, bool kept, const std::vector<uint8_t>* values) {
    progress.table = table_file_name(m);
    progress.kept = kept;
    progress.tables_done += 1;
    const uint64_t size = SignatureIndex(m).size();
    progress.positions_done += size;
    result.positions += size;
    progress.wins = progress.losses = progress.draws = 0;
    if (values)
      for (uint8_t v : *values)
        (v == kWin ? progress.wins : v == kLoss ? progress.losses : progress.draws) += 1;
    progress.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.progress) options.progress(progress);
  };
  for (const Pair& p : pairs) {
    if (tables.has(p.a) && tables.has(p.b)) {
      report(p.a, true, nullptr);
      if (!p.same) report(p.b, true, nullptr);
      result.tables_kept += p.same ? 1 : 2;
      continue;
    }
    if (options.stop && options.stop->load()) {
      result.stopped = true;
      return result;
    }
    Half a(p.a);
    std::unique_ptr<Half> b = p.same ? nullptr : std::make_unique<Half>(p.b);
    solve_pair(tables, a, b.get(), options.parallel_for);
    uint64_t w, l, d;
    for (Half* half : {&a, b.get()}) {
      if (!half) continue;
      const std::vector<uint8_t> values = final_values(*half, &w, &l, &d);
      std::vector<uint8_t>().swap(half->bytes);
      for (size_t i = 0; i < values.size(); ++i)
        if (values[i] == kDraw) half->plies[i] = 0;
      write_table(options.dir, half->m, values, half->plies);
      tables.add(options.dir, half->m);
      report(half->m, false, &values);
      result.tables_built += 1;
    }
  }
  return result;
}

}  // namespace sp::checkers::egtb
