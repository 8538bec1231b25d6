#!/usr/bin/env bash
# The main job: set up, build Release, run the default EWN self-play campaign (CUDA when a GPU is
# present, else all CPU cores), then the rollout benchmark. It builds only the selfplay program:
# scripts/test.sh builds and runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build/release --target selfplay -DCMAKE_BUILD_TYPE=Release
bin=build/release/host/app/selfplay
mkdir -p out
"$bin" run configs/ewn/campaign.yaml --out "out/ewn-campaign-$(date -u +%Y%m%d-%H%M%S).h5"
"$bin" bench --backend auto --seconds 3
