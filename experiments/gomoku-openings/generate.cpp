// Builds Gomoku's shipped openings file (configs/gomoku/openings.pos): random short openings near
// the centre of the 15x15 board (candidate k has 3, 4 or 5 stones for k mod 3 = 0, 1, 2, each on
// an empty square within 3 of h8 that does not end the game, drawn from the stream (seed, k) as
// `opening: random` draws them, games/gomoku/host.hpp), each position searched by our alpha-beta
// (experiments/common/position_score.hpp: a fresh transposition table per position, so every
// score is a function of the opening alone) to a fixed depth over an evaluation weights file, and
// kept when the search finds it balanced: |score| at most the threshold and no proven result.
// A candidate that is a rotation or reflection of an earlier one (the board's 8 symmetries map
// the centre block onto itself) is left out, since it would play the same games mirrored.
//
// Usage: gomoku_openings [--depth D] [--threshold T] [--count N] [--candidates C] [--seed S]
//                        [--weights FILE] [--out FILE]
//   --depth       plies searched from each opening (default 4)
//   --threshold   largest |score| kept, in evaluation units (default 0.5: classic.yaml's three
//                 weighs 1, its two 0.1)
//   --count       stop once this many are kept (default 300)
//   --candidates  draw at most this many candidates (default 3000)
//   --seed        seed of the candidates' streams (default 2026)
//   --weights     evaluation weights (default configs/gomoku/weights/classic.yaml)
//   --out         write the file there (default: print it on stdout)
// Prints one line per candidate on stderr: the opening, its score for Black, the nodes searched
// and what happened to it.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "experiments/common/position_score.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/host.hpp"
#include "games/gomoku/notation.hpp"
#include "games/gomoku/openings.hpp"
#include "host/engines/eval/weights.hpp"

namespace {

using namespace sp;
struct Options {
  int depth = 4;
  double threshold = 0.5;
  size_t count = 300;
  uint32_t candidates = 3000;
  uint64_t seed = 2026;
  std::string weights = "configs/gomoku/weights/classic.yaml";
  std::string out;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "gomoku_openings: %s\nusage: gomoku_openings [--depth D] [--threshold T] "
               "[--count N] [--candidates C] [--seed S] [--weights FILE] [--out FILE]\n",
               why);
  std::exit(2);
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) usage(("missing value after " + arg).c_str());
    const char* value = argv[++i];
    char* end = nullptr;
    if (arg == "--depth") {
      o.depth = static_cast<int>(std::strtol(value, &end, 10));
      if (*end || o.depth < 1 || o.depth > 64) usage("--depth: 1..64");
    } else if (arg == "--threshold") {
      o.threshold = std::strtod(value, &end);
      if (*end || !(o.threshold >= 0)) usage("--threshold: a number >= 0");
    } else if (arg == "--count") {
      o.count = std::strtoul(value, &end, 10);
      if (*end || o.count == 0) usage("--count: a count >= 1");
    } else if (arg == "--candidates") {
      o.candidates = static_cast<uint32_t>(std::strtoul(value, &end, 10));
      if (*end || o.candidates == 0) usage("--candidates: a count >= 1");
    } else if (arg == "--seed") {
      o.seed = std::strtoull(value, &end, 0);
      if (*end) usage("--seed: an integer");
    } else if (arg == "--weights") {
      o.weights = value;
    } else if (arg == "--out") {
      o.out = value;
    } else {
      usage(("unknown option " + arg).c_str());
    }
  }
  return o;
}

// The smallest of the position's keys under the 8 symmetries of the square board: the same for an
// opening and its rotations and reflections.
std::vector<int> canonical_key(const std::vector<gomoku::Move>& moves, int n) {
  std::vector<int> best;
  for (int t = 0; t < 8; ++t) {
    std::array<std::vector<int>, 2> side;
    for (size_t i = 0; i < moves.size(); ++i) {
      int x = moves[i].x, y = moves[i].y;
      if (t & 1) x = n - 1 - x;
      if (t & 2) y = n - 1 - y;
      if (t & 4) std::swap(x, y);
      side[i % 2].push_back(y * n + x);
    }
    std::vector<int> key;
    for (auto& v : side) {
      std::sort(v.begin(), v.end());
      key.insert(key.end(), v.begin(), v.end());
      key.push_back(-1);
    }
    if (best.empty() || key < best) best = key;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const gomoku::Rules rules{};  // 15x15 freestyle
  eval::Weights weights;
  try {
    weights = eval::load_weights<GomokuGame>(o.weights);
  } catch (const InputError& e) {
    std::fprintf(stderr, "gomoku_openings: %s\n", e.what());
    return 2;
  }
  experiments::PositionScorer<GomokuGame> scorer(weights, rules, o.depth);

  std::set<std::vector<int>> seen;
  std::vector<std::vector<gomoku::Move>> kept;
  uint32_t drawn = 0, mirrored = 0, unbalanced = 0;
  uint64_t nodes = 0;
  for (uint32_t k = 0; k < o.candidates && kept.size() < o.count; ++k) {
    ++drawn;
    WordStream rng({o.seed, k, 0, kLeafSetup, 0});
    std::string text;
    const int stones = 3 + static_cast<int>(k % 3);
    const gomoku::State s = gomoku::random_opening(rules, stones, rng, &text);
    const std::vector<gomoku::Move> moves =
        gomoku::read_openings(text, "candidate").openings[0].moves;
    if (!seen.insert(canonical_key(moves, rules.size)).second) {
      std::fprintf(stderr, "%-12s a symmetry of an earlier candidate\n", text.c_str());
      ++mirrored;
      continue;
    }
    const experiments::PositionScore score = scorer.score(s);
    nodes += score.nodes;
    const bool keep = experiments::keeps(score, o.threshold);
    std::fprintf(stderr, "%-12s black %+12.2f%s  depth %d  %llu nodes  %s\n", text.c_str(),
                 score.black, score.proven ? " (proven)" : "", score.depth,
                 static_cast<unsigned long long>(score.nodes), keep ? "kept" : "unbalanced");
    if (keep)
      kept.push_back(moves);
    else
      ++unbalanced;
  }

  char threshold[32];
  std::snprintf(threshold, sizeof threshold, "%g", o.threshold);
  const std::string header =
      "Balanced 15x15 Gomoku openings in Gomocup's pos format: one per line, the stones Black\n"
      "first, columns a-o from the left, rows 1-15 from the top (h8 is the centre).\n"
      "Made by experiments/gomoku-openings (see its README):\n"
      "  gomoku_openings --depth " +
      std::to_string(o.depth) + " --threshold " + std::string(threshold) + " --count " +
      std::to_string(o.count) + " --candidates " + std::to_string(o.candidates) + " --seed " +
      std::to_string(o.seed) + " --weights " + o.weights + "\n" + "Of " + std::to_string(drawn) +
      " random openings of 3, 4 and 5 stones within 3 squares of h8, " + std::to_string(mirrored) +
      " were\n"
      "rotations or reflections of earlier ones; our alpha-beta searched the others to that depth\n"
      "over those weights and dropped " +
      std::to_string(unbalanced) +
      " as unbalanced (|score| above the threshold, or a proven\n"
      "result). The " +
      std::to_string(kept.size()) +
      " kept follow in the order they were drawn.\n"
      "`opening: file` (rules section) plays opening k mod " +
      std::to_string(kept.size()) +
      " in game k, or in both games of pair k\n"
      "when paired. selfplay has this file built in: rebuild it after an edit.";
  const std::string file = gomoku::write_openings(kept, header);
  std::fprintf(stderr, "%u candidates, %u symmetries, %u unbalanced, %zu kept, %llu nodes\n", drawn,
               mirrored, unbalanced, kept.size(), static_cast<unsigned long long>(nodes));
  if (o.out.empty()) {
    std::fputs(file.c_str(), stdout);
    return 0;
  }
  std::ofstream out(o.out, std::ios::binary);
  out << file;
  out.close();
  if (!out) {
    std::fprintf(stderr, "gomoku_openings: cannot write %s\n", o.out.c_str());
    return 1;
  }
  return 0;
}
