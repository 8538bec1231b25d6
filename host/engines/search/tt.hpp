// The transposition table of the tree searches (expectimax, alpha-beta): buckets of two entries,
// slot 0 kept by depth (replaced by a search at least as deep, or by the same position), slot 1
// always replaced. A table of n MiB holds the largest power of two of buckets that fits, so the
// size, and with it every collision, depends only on n and the entry type. Entries keep the key
// (the full 64 bits: a key collision needs two positions with equal keys), the value, the depth
// it was searched to (0 marks an empty slot, so depth-0 results are never stored), the kind of
// bound from a fail-soft window, and the best move.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sp::search {

enum class Bound : uint8_t { kExact, kLower, kUpper };

// True when a stored result of this bound settles a node searched with window (alpha, beta).
template <class Value>
bool bound_settles(Bound bound, Value value, Value alpha, Value beta) {
  return bound == Bound::kExact || (bound == Bound::kLower && value >= beta) ||
         (bound == Bound::kUpper && value <= alpha);
}

template <class Move, class Value>
class TranspositionTable {
 public:
  struct Entry {
    uint64_t key = 0;
    Value value{};
    uint8_t depth = 0;  // 0: empty slot
    Bound bound = Bound::kExact;
    Move move{};
  };

  // Sizes the table to mib MiB (at least one bucket) and clears it.
  void allocate(uint32_t mib) {
    const uint64_t bytes = uint64_t(mib) << 20;
    uint64_t buckets = 1;
    while (buckets * 2 * 2 * sizeof(Entry) <= bytes) buckets *= 2;
    entries_.assign(2 * buckets, Entry{});
    mask_ = buckets - 1;
  }
  bool allocated() const { return !entries_.empty(); }
  size_t size() const { return entries_.size(); }
  void clear() { std::fill(entries_.begin(), entries_.end(), Entry{}); }

  // The entry of key, or nullptr. Precondition: allocated().
  const Entry* probe(uint64_t key) const {
    const Entry* bucket = &entries_[2 * (key & mask_)];
    for (int i = 0; i < 2; ++i)
      if (bucket[i].depth != 0 && bucket[i].key == key) return &bucket[i];
    return nullptr;
  }

  // Precondition: allocated(), 1 <= depth <= 255.
  void store(uint64_t key, int depth, Value value, Bound bound, Move move) {
    Entry* bucket = &entries_[2 * (key & mask_)];
    // The position's own slot if it has one, else slot 0 unless that holds a deeper search.
    const bool in_0 = bucket[0].depth != 0 && bucket[0].key == key;
    const bool in_1 = bucket[1].depth != 0 && bucket[1].key == key;
    Entry& slot = in_0 || (!in_1 && bucket[0].depth <= depth) ? bucket[0] : bucket[1];
    slot.key = key;
    slot.value = value;
    slot.depth = static_cast<uint8_t>(depth);
    slot.bound = bound;
    slot.move = move;
  }

 private:
  std::vector<Entry> entries_;
  uint64_t mask_ = 0;  // bucket index mask
};

}  // namespace sp::search
