// Builds the checkers 3-move ballot deck (configs/checkers/ballots.txt): every legal sequence of
// three plies from the standard start (games/checkers/ballots.hpp, three_ply_starts), each
// position searched by our alpha-beta (host/engines/search/alphabeta.hpp: iterative deepening, a
// fresh 64 MiB transposition table per ballot, so every score is a function of the ballot alone) to
// a fixed depth over an evaluation weights file, and kept unless the search finds it lost for one
// side: |score| above the threshold, or a proven result. Ballots that reach the same position as
// an earlier one (a transposition: 9-13 22-18 10-14 and 10-14 22-18 9-13) are dropped, since they
// would play the same games.
//
// Usage: checkers_ballots [--depth D] [--threshold T] [--weights FILE] [--out FILE] [--limit N]
//   --depth      plies searched from each ballot's position (default 14)
//   --threshold  largest |score| kept, in evaluation units (a man = 100; default 100)
//   --weights    evaluation weights (default configs/checkers/weights/classic.yaml)
//   --out        write the deck there (default: print it on stdout)
//   --limit      search only the first N candidates (a quick look; the deck is then partial)
// Prints one line per candidate on stderr: the ballot, its score for Black, the nodes searched and
// what happened to it.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "experiments/checkers-ballots/score.hpp"
#include "games/checkers/ballots.hpp"
#include "games/checkers/notation.hpp"
#include "host/engines/eval/weights.hpp"

namespace {

using namespace sp;
struct Options {
  int depth = 14;
  double threshold = 100;
  std::string weights = "configs/checkers/weights/classic.yaml";
  std::string out;
  size_t limit = 0;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "checkers_ballots: %s\nusage: checkers_ballots [--depth D] [--threshold T] "
               "[--weights FILE] [--out FILE] [--limit N]\n",
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
    } else if (arg == "--weights") {
      o.weights = value;
    } else if (arg == "--out") {
      o.out = value;
    } else if (arg == "--limit") {
      o.limit = std::strtoul(value, &end, 10);
      if (*end) usage("--limit: a count");
    } else {
      usage(("unknown option " + arg).c_str());
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  eval::Weights weights;
  try {
    weights = eval::load_weights<CheckersGame>(o.weights);
  } catch (const InputError& e) {
    std::fprintf(stderr, "checkers_ballots: %s\n", e.what());
    return 2;
  }
  checkers::BallotScorer scorer(weights, o.depth);

  std::vector<checkers::Ballot> candidates = checkers::three_ply_starts();
  if (o.limit > 0 && o.limit < candidates.size()) candidates.resize(o.limit);
  std::map<std::vector<uint32_t>, std::string> seen;  // position -> the ballot that reached it
  std::vector<std::string> kept;
  int lost = 0, transposed = 0;
  uint64_t nodes = 0;
  for (const checkers::Ballot& b : candidates) {
    const std::string text = checkers::ballot_text(b);
    const checkers::State s = checkers::ballot_position(b);
    const std::vector<uint32_t> key{s.pieces[0], s.pieces[1], s.kings, s.side};
    if (const auto it = seen.find(key); it != seen.end()) {
      std::fprintf(stderr, "%-20s the position of %s\n", text.c_str(), it->second.c_str());
      ++transposed;
      continue;
    }
    seen.emplace(key, text);
    const checkers::BallotScore score = scorer.score(b);
    nodes += score.nodes;
    const bool keep = checkers::keeps(score, o.threshold);
    std::fprintf(stderr, "%-20s black %+12.1f%s  depth %d  %llu nodes  %s\n", text.c_str(),
                 score.black, score.proven ? " (proven)" : "", score.depth,
                 static_cast<unsigned long long>(score.nodes), keep ? "kept" : "lost");
    if (keep)
      kept.push_back(text);
    else
      ++lost;
  }

  const std::string deck_header =
      "# English checkers 3-move ballots: openings of three plies (Black, White, Black) from the\n"
      "# standard start, one per line. Made by experiments/checkers-ballots (see its README):\n"
      "#   checkers_ballots --depth " +
      std::to_string(o.depth) + " --threshold " + std::to_string(static_cast<int>(o.threshold)) +
      " --weights " + o.weights + "\n# Of the " + std::to_string(candidates.size()) +
      " legal three-ply sequences, " + std::to_string(transposed) +
      " reach the position of an earlier one and\n"
      "# are left out; each other position was searched by our alpha-beta to that depth over "
      "those\n"
      "# weights, and " +
      std::to_string(lost) +
      " were dropped as lost for one side (|score| above the threshold, a man\n"
      "# being 100, or a proven result). The " +
      std::to_string(kept.size()) +
      " kept follow in move generation order.\n"
      "# `start: ballots` (rules section) plays ballot k mod " +
      std::to_string(kept.size()) +
      " in game k, or in both games of pair k\n"
      "# when paired. selfplay has this file built in: rebuild it after an edit.\n";
  std::string deck = deck_header;
  for (const std::string& k : kept) deck += k + "\n";
  std::fprintf(stderr, "%zu candidates, %d transpositions, %d lost, %zu kept, %llu nodes\n",
               candidates.size(), transposed, lost, kept.size(),
               static_cast<unsigned long long>(nodes));
  if (o.out.empty()) {
    std::fputs(deck.c_str(), stdout);
    return 0;
  }
  std::ofstream file(o.out, std::ios::binary);
  file << deck;
  file.close();
  if (!file) {
    std::fprintf(stderr, "checkers_ballots: cannot write %s\n", o.out.c_str());
    return 1;
  }
  return 0;
}
