#!/usr/bin/env bash
# The main job: set up, build Release, and run the default self-play job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build/release -DCMAKE_BUILD_TYPE=Release
bin=build/release/host/app/selfplay
"$bin" bench --backend auto --threads 0 --seconds 3
"$bin" demo --games 2 --seed 1
