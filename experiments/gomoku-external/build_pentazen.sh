#!/usr/bin/env bash
# Builds PentaZen 0.4.18 (Sun Yuliang's Gomocup 2021 engine, github.com/sun-yuliang/PentaZen) on
# Linux with g++, outside this repository: the pattern tables from its generator (src/pattern),
# once for freestyle and once for standard (exactly five), then one engine binary that plays both
# rules (the rule is chosen at run time by the manager's INFO rule 0 / 1).
#
# Usage: build_pentazen.sh [SOURCE] [OUT]
#   SOURCE  a PentaZen work tree or bare git directory (its HEAD is built); none or "": clone
#           https://github.com/sun-yuliang/PentaZen into OUT/checkout and build $PENTAZEN_COMMIT
#   OUT     where it builds and installs, default /tmp/ext/pentazen: OUT/pbrain-pentazen (the
#           engine), OUT/build-info.txt (commit, compiler, flags), OUT/build/ (the patched tree)
# Environment: CXX (g++), PENTAZEN_MARCH (native), PENTAZEN_COMMIT (the commit a clone checks out),
#   PENTAZEN_PROTOCOL_FIXES (1; 0 builds the engine as published, to reproduce its quirks: see
#   README.md), NICE ("nice -n 10"; "" to build at normal priority).
# Idempotent: every run rebuilds OUT/build from the source and replaces the installed binary.
set -euo pipefail

src=${1:-}
out=${2:-/tmp/ext/pentazen}
cxx=${CXX:-g++}
march=${PENTAZEN_MARCH:-native}
commit_wanted=${PENTAZEN_COMMIT:-fa37343094b6df02dbc57e474916788370bc9728}
fixes=${PENTAZEN_PROTOCOL_FIXES:-1}
read -r -a nice <<<"${NICE-nice -n 10}"

mkdir -p "$out"
out=$(cd "$out" && pwd)
build="$out/build"

# 1. The source tree, exported into OUT/build (the checkout itself is never modified).
if [[ -z "$src" ]]; then
  if [[ ! -d "$out/checkout/.git" ]]; then
    rm -rf "$out/checkout"
    git clone --quiet https://github.com/sun-yuliang/PentaZen "$out/checkout"
  fi
  git -C "$out/checkout" checkout --quiet "$commit_wanted"
  src="$out/checkout"
fi
src=$(cd "$src" && pwd)
rm -rf "$build"
mkdir -p "$build"
if [[ -f "$src/src/pattern/main.cpp" ]]; then
  # A work tree: copy what is there (uncommitted edits included, as in a plain build).
  tar -C "$src" --exclude=.git -cf - . | tar -C "$build" -xf -
  commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
  dirty=$(git -C "$src" status --porcelain 2>/dev/null | head -c1 || true)
  [[ -n "$dirty" ]] && commit="$commit (with local changes)"
elif git --git-dir="$src" rev-parse --verify --quiet HEAD >/dev/null; then
  # A bare git directory (e.g. a mirror): its HEAD.
  git --git-dir="$src" archive HEAD | tar -C "$build" -xf -
  commit=$(git --git-dir="$src" rev-parse HEAD)
else
  echo "error: $src is neither a PentaZen work tree (src/pattern/main.cpp) nor a git directory" >&2
  exit 2
fi
if [[ "$commit" != "$commit_wanted"* ]]; then
  echo "warning: building $commit, not $commit_wanted (the commit README.md documents)" >&2
fi

# 2. Our Linux changes. The code compiles on Linux as published (misc.cpp keeps its Windows API
# behind #ifdef _WIN32); only the Makefile is Windows-only (backslash paths, `move`, `del`,
# -static), so it is not used: the compiler is called below. The patch fixes two protocol
# problems (README.md, "Quirks"): MESSAGE lines printed the search depth (an int8_t enum) as a raw
# byte, so depth 10 or 13 split the line at a '\n' or '\r' and the manager read the rest as a
# malformed move; and BOARD ignored the x,y,f colour field, giving the stones alternate colours in
# the order sent. The patch has no context lines (the pinned commit's line numbers place it), so
# that no more of PentaZen's code stands here than the two lines it replaces.
cd "$build"
if [[ "$fixes" == 1 ]]; then
  patch --quiet --batch --forward -p1 <<'PATCH'
--- a/src/protocol.cpp
+++ b/src/protocol.cpp
@@ -16,0 +17 @@
+#include <vector>
@@ -68,0 +70 @@
+            std::vector<Move> stones[2]; // own (field 1), opponent's (field 2)
@@ -77 +79,2 @@
-                Threads.do_move(move);
+                if (num == 1 || num == 2)
+                    stones[num - 1].push_back(move);
@@ -79,0 +83,14 @@
+            }
+            // The engine is to move: it is Black when both have as many stones. Replay the
+            // stones alternately from Black, as do_move() gives them alternate colours.
+            const size_t own = stones[0].size(), opp = stones[1].size();
+            if (own != opp && own + 1 != opp) {
+                sync_cout << "ERROR stone counts leave no side to move" << sync_endl;
+                goto top;
+            }
+            const std::vector<Move>& black = own == opp ? stones[0] : stones[1];
+            const std::vector<Move>& white = own == opp ? stones[1] : stones[0];
+            for (size_t i = 0; i != black.size(); ++i) {
+                Threads.do_move(black[i]);
+                if (i < white.size())
+                    Threads.do_move(white[i]);
--- a/src/search.cpp
+++ b/src/search.cpp
@@ -130 +130 @@
-              << " dep " << rem.depth << "-" << std::max(rem.depth, plyMax);
+              << " dep " << int(rem.depth) << "-" << int(std::max(rem.depth, plyMax));
PATCH
fi

# 3. The pattern tables: src/pattern/type.h names the rule to generate (TARGET_RULE, FREESTYLE
# as published); src/board.cpp includes pattern_15f.h (freestyle, 15x15) and pattern_15s.h
# (exactly five). The generator writes the header on stdout.
flags=(-std=c++17 -O3 -DNDEBUG -Wall -Wextra -pedantic)
gen() {  # gen RULE HEADER
  sed -i -E "s/^(constexpr Rule TARGET_RULE *= *)[A-Z]+;/\1$1;/" src/pattern/type.h
  grep -q "^constexpr Rule TARGET_RULE *= *$1;" src/pattern/type.h || {
    echo "error: could not set TARGET_RULE = $1 in src/pattern/type.h" >&2
    exit 1
  }
  "${nice[@]}" "$cxx" "${flags[@]}" -o "src/pattern/pattern-$1" src/pattern/line.cpp src/pattern/main.cpp
  "${nice[@]}" "src/pattern/pattern-$1" >"src/$2.tmp"
  mv "src/$2.tmp" "src/$2"
}
gen FREESTYLE pattern_15f.h
gen STANDARD pattern_15s.h

# 4. The engine, with the Makefile's release flags (-O3 -fno-rtti -fno-exceptions -DNDEBUG), plus
# -march and -pthread (std::thread), dynamically linked.
engine_flags=("${flags[@]}" "-march=$march" -fno-rtti -fno-exceptions -pthread)
objs=()
for f in board main misc movegen protocol search thread tt; do
  "${nice[@]}" "$cxx" "${engine_flags[@]}" -c "src/$f.cpp" -o "src/$f.o"
  objs+=("src/$f.o")
done
"${nice[@]}" "$cxx" "${engine_flags[@]}" -o pbrain-pentazen "${objs[@]}"

# 5. A check over the protocol: the first move on the empty board is the centre, in both rules.
for rule in 0 1; do
  first=$(printf 'START 15\nINFO timeout_turn 500\nINFO rule %s\nBEGIN\nEND\n' "$rule" |
    timeout 10 ./pbrain-pentazen | grep -v '^MESSAGE' | tr -d '\r' | tail -n1 || true)
  [[ "$first" == "7,7" ]] || { echo "error: INFO rule $rule, BEGIN answered '$first', not 7,7" >&2; exit 1; }
done

cp pbrain-pentazen "$out/pbrain-pentazen.tmp"
mv "$out/pbrain-pentazen.tmp" "$out/pbrain-pentazen"
{
  echo "PentaZen built by experiments/gomoku-external/build_pentazen.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "source: $src"
  echo "commit: $commit"
  echo "protocol fixes: $([[ "$fixes" == 1 ]] && echo applied || echo not applied)"
  echo "compiler: $("$cxx" --version | head -n1)"
  echo "engine flags: ${engine_flags[*]}"
  echo "pattern tables: $(sha256sum src/pattern_15f.h | cut -c1-16) pattern_15f.h, $(sha256sum src/pattern_15s.h | cut -c1-16) pattern_15s.h"
  echo "binary: $out/pbrain-pentazen $(sha256sum "$out/pbrain-pentazen" | cut -c1-16)"
} | tee "$out/build-info.txt"
