# The weight-tuning loop shared by experiments/*-weight-tuning/run.sh (sourced, not run):
# fill a game's config templates, then campaign -> texel tune -> match of the tuned weights
# against the initial ones. Each experiment sets its sizes and its @...@ fields and calls these.

# fill_templates SRC_DIR OUT_DIR NAME=VALUE... : copies every SRC_DIR/*.yaml to OUT_DIR with each
# @NAME@ replaced by VALUE; a field left unfilled is an error.
fill_templates() {
  local src=$1 dst=$2
  shift 2
  local args=() pair
  for pair in "$@"; do args+=(-e "s|@${pair%%=*}@|${pair#*=}|g"); done
  local f
  for f in "$src"/*.yaml; do
    sed "${args[@]}" "$f" >"$dst/$(basename "$f")"
    if grep -n '@[A-Z]*@' "$dst/$(basename "$f")" >&2; then
      echo "fill_templates: $(basename "$f"): a field above has no value" >&2
      return 2
    fi
  done
}

# tuning_loop BIN OUT_DIR CAMPAIGN_TEXT TUNE_TEXT MATCH_TEXT : the three steps on OUT_DIR's
# campaign.yaml, tune.yaml and match.yaml, each step's output in OUT_DIR/{run,tune,match}.log and
# the texel loss curve in OUT_DIR/tune-losses.csv; the *_TEXT arguments head each step's line.
tuning_loop() {
  local bin=$1 out=$2
  local start
  start=$(date +%s)
  echo "== 1. campaign ($3)"
  "$bin" run "$out/campaign.yaml" --quiet | tee "$out/run.log" | tail -n 3
  echo "== 2. texel tune ($4)"
  "$bin" tune "$out/tune.yaml" --log "$out/tune-losses.csv" | tee "$out/tune.log" | tail -n 12
  echo "== 3. match: $5"
  "$bin" match "$out/match.yaml" 2>/dev/null | tee "$out/match.log"
  echo "== done in $(( $(date +%s) - start )) s; outputs in $out"
  echo "   notebooks: SELFPLAY_TUNE_LOG=$out/tune-losses.csv SELFPLAY_MATCH=$out/match.h5 jupyter lab notebooks/tuning.ipynb"
}
