#!/usr/bin/env bash
# Rebuilds the checkers 3-move ballot deck, configs/checkers/ballots.txt, with the generator
# (generate.cpp) of a Release build, and prints each candidate's score on stderr. The program has
# the deck built in: rebuild selfplay afterwards.
# Usage: experiments/checkers-ballots/run.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
cmake --build "$build" --target checkers_ballots
"$build/experiments/checkers-ballots/checkers_ballots" --depth 16 --threshold 100 \
  --weights configs/checkers/weights/classic.yaml --out configs/checkers/ballots.txt
