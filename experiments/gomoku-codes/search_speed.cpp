// The pattern search's speed at one source revision: depth 7 from four openings, three times,
// with pattern.yaml's ladder (no code weighs). Built by search_speed.sh against a revision's
// sources; -DCODES for revisions with the pattern codes (their weight vector has the code entries).
#include <chrono>
#include <cstdio>
#include <vector>
#include "games/gomoku/notation.hpp"
#include "games/gomoku/pattern_search.hpp"
using namespace sp::gomoku;
int main() {  // prints nodes, seconds, nodes/s and the sum of the root values
  std::vector<double> w{0,   -2,    5,    -3,     1,  -0.8, 0.8, -0.6, 0.15, -0.12,
                        0.1, -0.08, 0.02, -0.015, 10, -4,   6,   -3,   3,    -2};
#ifdef CODES
  w.resize(kPatternFeatures + kCodeFeatures, 0);
#endif
  PatternSearchOptions o;
  o.depth = 7;
  o.tt_size_mb = 16;
  o.root_vct_nodes = 0;
  uint64_t nodes = 0;
  double secs = 0;
  long vsum = 0;
  const char* games[] = {"h8i9g7i7i8g9", "h8h9g8i8", "h8i8g9j7k6", "h8g9i7i9j8"};
  for (int rep = 0; rep < 3; ++rep)
    for (const char* g : games) {
      State s = play_moves(initial_state(), g);
      PatternSearch ps(w, o);
      auto t0 = std::chrono::steady_clock::now();
      auto r = ps.search(s);
      secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      nodes += r.nodes;
      vsum += r.value;
    }
  std::printf("nodes %llu  secs %.3f  nodes/s %.0f  vsum %ld\n", (unsigned long long)nodes, secs,
              nodes / secs, vsum);
}
