#!/usr/bin/env bash
# Builds GuiCheckers (Jon Kreuzer's English-checkers engine, the CheckerBoard DLL sources kept
# by Ed Gilbert at github.com/eygilbert/GuiCheckers) on Linux with g++, plus an adapter that
# speaks selfplay's engine line protocol (docs/engine-protocol.md).
#
#   experiments/checkers-external/build_guicheckers.sh SRC [OUT]
#
# SRC: a checkout (or `git archive` export) of eygilbert/GuiCheckers, e.g. commit
#      41ee6f9653a87ed246910db6966747aa631b80aa.
# OUT: where to build (default /tmp/ext/guicheckers). Result: OUT/guicheckers-engine, with
#      OUT/opening.gbk next to it (used only with --book on).
#
# Nothing from GuiCheckers is stored in this script: its engine files are copied from SRC and
# patched with sed/perl, and the parts of guiCheckers.cpp the engine needs (the global
# definitions before the engine includes, and the CheckerBoard entry point getmove()) are cut
# out of SRC by line patterns. Everything written below with here-docs (Win32 shim, glue,
# adapter) is our own code.
set -euo pipefail

SRC=${1:?usage: build_guicheckers.sh SRC [OUT]}
OUT=${2:-/tmp/ext/guicheckers}
SRC=$(cd "$SRC" && pwd)
CXX=${CXX:-g++}
NICE=${NICE:-nice -n 10}

for f in ai.cpp board.cpp movegen.cpp obook.cpp database.cpp edDatabase.cpp uncompress.cpp \
         cb_interface.h guiCheckers.cpp opening.gbk; do
  [[ -f "$SRC/$f" ]] || { echo "missing $SRC/$f" >&2; exit 1; }
done

mkdir -p "$OUT"/{src,shim,glue,obj}

# ---------------------------------------------------------------------------------------------
# 1. Engine files, copied and patched.
# ---------------------------------------------------------------------------------------------
for f in ai.cpp board.cpp movegen.cpp obook.cpp database.cpp edDatabase.cpp uncompress.cpp \
         cb_interface.h; do
  cp "$SRC/$f" "$OUT/src/$f"
done
cp "$SRC/opening.gbk" "$OUT/opening.gbk"

# Patch 1: Windows is LLP64 (unsigned long = 32 bits), Linux x86-64 is LP64 (64 bits). The
# transposition table and the opening book split the 64-bit hash into two 32-bit halves through
# `unsigned long`, and the book file stores 4-byte check values; give them their Windows width.
perl -pi -e 's/\bunsigned long\b(?! long)/uint32_t/g' \
  "$OUT"/src/{ai,board,movegen,obook,database,edDatabase}.cpp
# Patch 2: MSVC accepts the functional casts `unsigned short(x)`, `unsigned char(x)`; g++ does
# not. Write them as C casts.
perl -pi -e 's/\bunsigned (short|char)\(/(unsigned $1)(/g' "$OUT"/src/{obook,uncompress}.cpp

# The definitions guiCheckers.cpp makes before (and between) its #includes of the engine files:
# constants, globals, declarations, and the includes themselves.
awk '/^#define WHITE/{p=1} p{print} /^#include "edDatabase.cpp"/{exit}' \
  "$SRC/guiCheckers.cpp" > "$OUT/src/gc_prelude.inc"
# The CheckerBoard entry point: the piece-code tables and getmove(), up to enginecommand().
awk '/^int ConvertFromCB/{p=1} /^int WINAPI enginecommand/{exit} p{print}' \
  "$SRC/guiCheckers.cpp" > "$OUT/src/gc_getmove.inc"
grep -q '^#include "ai.cpp"' "$OUT/src/gc_prelude.inc"  || { echo "prelude cut failed" >&2; exit 1; }
grep -q 'getmove' "$OUT/src/gc_getmove.inc"            || { echo "getmove cut failed" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------
# 2. Win32 shim (own code): just the types, macros and calls the engine files name.
# ---------------------------------------------------------------------------------------------
cat > "$OUT/shim/gc_win32_shim.h" <<'EOF'
// Stand-ins for the few Win32 names that GuiCheckers' engine files use. Own code.
#pragma once
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int BOOL;
typedef int INT;
typedef unsigned int UINT;
typedef uint32_t DWORD;
typedef void *HANDLE;
typedef void *HWND;
typedef void *HDC;
typedef void *HBITMAP;
typedef void *HINSTANCE;
typedef intptr_t INT_PTR;
typedef intptr_t LRESULT;
typedef uintptr_t WPARAM;
typedef intptr_t LPARAM;
typedef char *LPSTR;

#define WINAPI
#define CALLBACK
#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif
#define __int64 long long

static inline void Sleep(unsigned int ms) { usleep(ms * 1000u); }
static inline char *_ltoa(long v, char *buf, int radix) { (void)radix; sprintf(buf, "%ld", v); return buf; }
static inline char *_strdup(const char *s) { return strdup(s); }
static inline char *_strlwr(char *s) { for (char *p = s; *p; p++) *p = (char)tolower((unsigned char)*p); return s; }
template <class T> static inline T min(T a, T b) { return b < a ? b : a; }
template <class T> static inline T max(T a, T b) { return a < b ? b : a; }

// The search times itself with clock(). On Windows clock() is elapsed (wall) time; glibc's is
// the process's CPU time, which runs slower than the wall clock on a busy machine. Use a
// monotonic wall clock in the same units.
static inline clock_t gc_wall_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (clock_t)ts.tv_sec * CLOCKS_PER_SEC + (clock_t)(ts.tv_nsec / (1000000000L / CLOCKS_PER_SEC));
}
#define clock() gc_wall_clock()
EOF
printf '#pragma once\n#include "gc_win32_shim.h"\n' > "$OUT/shim/windows.h"
printf '#pragma once\n#include "gc_win32_shim.h"\n' > "$OUT/shim/Windows.h"

# ---------------------------------------------------------------------------------------------
# 3. Glue (own code): the one translation unit of the engine, and a small C++ API for the adapter.
# ---------------------------------------------------------------------------------------------
cat > "$OUT/glue/gc_api.h" <<'EOF'
// The adapter's view of the GuiCheckers engine. Own code.
#pragma once

struct GceResult {
	int depth;				// last iteration's nominal depth (0: book move or no search)
	int eval_white;			// the engine's score, White's point of view
	unsigned long long nodes;
	int moved;				// getmove changed the board
};

// Allocate the hash table (MB), load the opening book from book_path (nullptr: no book), run
// a short warm-up search. Returns the number of book positions, 0 without a book, -1 when the
// book could not be read.
int gce_init(int hash_mb, const char *book_path);
const char *gce_name();

// Think in `board` (CheckerBoard Board8x8: board[x][y], CB_BLACK/CB_WHITE | CB_MAN/CB_KING) for
// cb_color to move, at most maxtime_s seconds (hard limit), and play the move on `board`.
// hist holds the nhist positions before this one, oldest first, 64 ints each laid out like
// board, with hist_colors the side to move in each; the engine uses them to see repetitions.
void gce_think(int board[8][8], int cb_color, double maxtime_s, int nhist, const int *hist,
			   const int *hist_colors, GceResult *out);
EOF

cat > "$OUT/glue/gc_engine.cpp" <<'EOF'
// The GuiCheckers engine as one translation unit, as guiCheckers.cpp builds it, without the GUI.
// Own code around two pieces cut from guiCheckers.cpp at build time (gc_prelude.inc: the
// engine's globals and includes; gc_getmove.inc: the CheckerBoard entry point getmove()).
#include <assert.h>
#include <memory.h>
#include <windows.h>
#include "cb_interface.h"
#include "gc_prelude.inc"
void InitEngine(char *status_str);	// defined below; guiCheckers.cpp's own one drives the GUI
#include "gc_getmove.inc"
#include "gc_api.h"

// The GUI functions the engine files call. Without a window they have nothing to do.
void DisplayText(const char *) {}
void RunningDisplay(int, int) {}
void DrawBoard(const CBoard &) {}
void ReplayGame(int, CBoard &) {}

static int gce_hash_mb = 64;
static const char *gce_book_path = nullptr;
static int gce_book_positions = 0;

// getmove() calls InitEngine() on its first call when bCheckerBoard is not yet set. This one
// sets the engine up without the Windows registry: hash size and book from the adapter, no
// endgame databases.
void InitEngine(char *)
{
	InitBitTables();
	TEntry::Create_HashFunction();
	if (set_ttable_size(gce_hash_mb))
		set_ttable_size(64);
	enable_wld = 0;
	use_opendb = 0;
	gce_book_positions = 0;
	if (gce_book_path) {
		pBook = new COpeningBook;
		if (pBook->Load((char *)gce_book_path) && pBook->m_nPositions > 0) {
			use_opendb = 1;
			gce_book_positions = pBook->m_nPositions;
		}
		else
			gce_book_positions = -1;
	}
	g_CBoard.StartPosition(1);
}

// A CheckerBoard board in the engine's own representation, as getmove() reads it: the engine
// lists the 64 cells from the top row down (cell = row * 8 + file), CheckerBoard has y upward.
static void gce_to_engine(const int board[8][8], int cb_color, CBoard &b)
{
	b.Clear();
	for (int s = 1; s <= 32; s++) {
		int x, y;
		numbertocoors(s, &x, &y, GT_ENGLISH);
		const int cell = (7 - y) * 8 + x;
		b.SetPiece(BoardLoc[cell], ConvertFromCB[board[x][y] & 15]);
	}
	b.SideToMove = cb_color == CB_WHITE ? WHITE : BLACK;
	b.SetFlags();
}

int gce_init(int hash_mb, const char *book_path)
{
	gce_hash_mb = hash_mb > 0 ? hash_mb : 64;
	gce_book_path = book_path;
	InitEngine(nullptr);
	bCheckerBoard = TRUE;

	// Warm-up: one short search from the start position. Besides touching the tables, it sets
	// getmove()'s record of the piece count (it clears the game history whenever the count
	// goes up, to detect a new game), so that later calls keep the history set here.
	int board[8][8] = {};
	for (int s = 1; s <= 32; s++) {
		int x, y;
		numbertocoors(s, &x, &y, GT_ENGLISH);
		board[x][y] = s <= 12 ? (CB_BLACK | CB_MAN) : s >= 21 ? (CB_WHITE | CB_MAN) : 0;
	}
	char info[1024] = "";
	int playnow = 0;
	CBmove move;
	getmove(board, CB_BLACK, 0.01, info, &playnow, CB_EXACT_TIME, 0, &move);
	return gce_book_positions;
}

const char *gce_name() { return g_sNameVer; }

void gce_think(int board[8][8], int cb_color, double maxtime_s, int nhist, const int *hist,
			   const int *hist_colors, GceResult *out)
{
	// The game so far, for the repetition checks (RepNum[k]: position k, g_numMoves: now).
	// getmove() restarts its count past 500 plies: keep the latest 480, an even number dropped.
	int first = 0;
	if (nhist > 480)
		first = (nhist - 480 + 1) & ~1;
	CBoard b;
	for (int k = first; k < nhist; k++) {
		int pos[8][8];
		for (int x = 0; x < 8; x++)
			for (int y = 0; y < 8; y++)
				pos[x][y] = hist[k * 64 + x * 8 + y];
		gce_to_engine(pos, hist_colors[k], b);
		AddRepBoard(b.HashKey, k - first);
	}
	g_numMoves = nhist - first;

	int before[8][8];
	memcpy(before, board, sizeof(before));
	char info[1024] = "";
	int playnow = 0;
	CBmove move;
	memset(&move, 0, sizeof(move));
	SearchDepth = 0;
	getmove(board, cb_color, maxtime_s, info, &playnow, CB_EXACT_TIME, 0, &move);
	out->depth = SearchDepth;
	out->eval_white = g_SearchEval;
	out->nodes = nodes;
	out->moved = memcmp(before, board, sizeof(before)) != 0;
}
EOF

# ---------------------------------------------------------------------------------------------
# 4. The adapter (own code): protocol, FEN/PDN, its own move generator.
# ---------------------------------------------------------------------------------------------
cat > "$OUT/glue/adapter.cpp" <<'EOF'
// guicheckers-engine: selfplay's engine line protocol (docs/engine-protocol.md) in front of the
// GuiCheckers engine. Own code. The adapter keeps its own English-checkers rules: it checks and
// plays the manager's moves, and names the engine's answer by comparing the board getmove()
// returns with the result of each legal move.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cb_interface.h"
#include "gc_api.h"

namespace {

// ----------------------------------------------------------------------------------- rules
enum { kEmpty = 0, kBlackMan = 1, kWhiteMan = 2, kBlackKing = 3, kWhiteKing = 4 };

bool black_piece(int p) { return p == kBlackMan || p == kBlackKing; }
bool king_piece(int p) { return p == kBlackKing || p == kWhiteKing; }

struct Position {
	int sq[33] = {};			// PDN squares 1..32
	bool black_to_move = true;
	bool operator==(const Position &o) const {
		return black_to_move == o.black_to_move && std::equal(sq + 1, sq + 33, o.sq + 1);
	}
};

// PDN geometry: row 0 is the top (squares 1-4, Black's side); square 1 is b8.
int row_of(int s) { return (s - 1) / 4; }
int col_of(int s) { return 2 * ((s - 1) % 4) + (row_of(s) % 2 == 0 ? 1 : 0); }
int square_at(int r, int c) {
	if (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0) return 0;
	return r * 4 + c / 2 + 1;
}

struct Move {
	std::vector<int> path;		// start square, then every landing square
	std::vector<int> captured;
	Position after;
};

std::string move_text(const Move &m) {
	std::string s;
	for (size_t i = 0; i < m.path.size(); i++) {
		if (i) s += m.captured.empty() ? '-' : 'x';
		s += std::to_string(m.path[i]);
	}
	return s;
}

const int kDirs[4][2] = {{1, -1}, {1, 1}, {-1, -1}, {-1, 1}};	// {row step, column step}

int crowned(int piece, int at) {
	if (piece == kBlackMan && row_of(at) == 7) return kBlackKing;
	if (piece == kWhiteMan && row_of(at) == 0) return kWhiteKing;
	return piece;
}

// Jumped pieces stay on the board until the move ends (no piece is jumped twice, no landing on
// one); the start square counts as empty; a man that reaches the far row stops there.
void add_jumps(const Position &p, int piece, std::vector<int> &path, std::vector<int> &caps,
			   std::vector<Move> &out) {
	const int at = path.back(), start = path.front();
	const bool king = king_piece(piece);
	const int forward = black_piece(piece) ? 1 : -1;
	bool more = false;
	if (king || crowned(piece, at) == piece) {
		for (const auto &d : kDirs) {
			if (!king && d[0] != forward) continue;
			const int over = square_at(row_of(at) + d[0], col_of(at) + d[1]);
			const int land = square_at(row_of(at) + 2 * d[0], col_of(at) + 2 * d[1]);
			if (!over || !land) continue;
			const int v = p.sq[over];
			if (v == kEmpty || black_piece(v) == black_piece(piece)) continue;
			if (std::find(caps.begin(), caps.end(), over) != caps.end()) continue;
			if (p.sq[land] != kEmpty && land != start) continue;
			path.push_back(land);
			caps.push_back(over);
			add_jumps(p, piece, path, caps, out);
			path.pop_back();
			caps.pop_back();
			more = true;
		}
	}
	if (!more && !caps.empty()) {
		Move m;
		m.path = path;
		m.captured = caps;
		m.after = p;
		m.after.sq[start] = kEmpty;
		for (int c : caps) m.after.sq[c] = kEmpty;
		m.after.sq[at] = crowned(piece, at);
		m.after.black_to_move = !p.black_to_move;
		out.push_back(m);
	}
}

std::vector<Move> legal_moves(const Position &p) {
	std::vector<Move> jumps, steps;
	for (int s = 1; s <= 32; s++) {
		const int piece = p.sq[s];
		if (piece == kEmpty || black_piece(piece) != p.black_to_move) continue;
		std::vector<int> path{s}, caps;
		add_jumps(p, piece, path, caps, jumps);
		const int forward = black_piece(piece) ? 1 : -1;
		for (const auto &d : kDirs) {
			if (!king_piece(piece) && d[0] != forward) continue;
			const int to = square_at(row_of(s) + d[0], col_of(s) + d[1]);
			if (!to || p.sq[to] != kEmpty) continue;
			Move m;
			m.path = {s, to};
			m.after = p;
			m.after.sq[s] = kEmpty;
			m.after.sq[to] = crowned(piece, to);
			m.after.black_to_move = !p.black_to_move;
			steps.push_back(m);
		}
	}
	return jumps.empty() ? steps : jumps;
}

unsigned long long perft(const Position &p, int depth) {
	if (depth == 0) return 1;
	const auto moves = legal_moves(p);
	if (depth == 1) return moves.size();
	unsigned long long n = 0;
	for (const auto &m : moves) n += perft(m.after, depth - 1);
	return n;
}

// ------------------------------------------------------------------------------ notation
std::string trim(const std::string &s) {
	size_t a = 0, b = s.size();
	while (a < b && isspace((unsigned char)s[a])) a++;
	while (b > a && isspace((unsigned char)s[b - 1])) b--;
	return s.substr(a, b - a);
}

std::vector<std::string> split(const std::string &s, char sep) {
	std::vector<std::string> out;
	std::string cur;
	for (char c : s) {
		if (c == sep) { out.push_back(cur); cur.clear(); }
		else cur += c;
	}
	out.push_back(cur);
	return out;
}

bool parse_square(const std::string &t, int &s) {
	if (t.empty() || t.size() > 2) return false;
	for (char c : t) if (!isdigit((unsigned char)c)) return false;
	s = atoi(t.c_str());
	return s >= 1 && s <= 32;
}

// PDN FEN: "B:W21-32:B1-12", "W:W18,K30:B14" (side to move, then each side's squares).
bool parse_fen(std::string text, Position &pos, std::string &err) {
	text = trim(text);
	if (!text.empty() && text.back() == '.') text.pop_back();
	const auto parts = split(text, ':');
	if (parts.size() < 2 || parts.size() > 3) { err = "FEN needs side:pieces:pieces"; return false; }
	Position p;
	const std::string side = trim(parts[0]);
	if (side == "B" || side == "b") p.black_to_move = true;
	else if (side == "W" || side == "w") p.black_to_move = false;
	else { err = "FEN side to move must be B or W"; return false; }
	bool seen_color[2] = {false, false};
	for (size_t i = 1; i < parts.size(); i++) {
		const std::string field = trim(parts[i]);
		if (field.empty()) { err = "empty FEN field"; return false; }
		const char c = (char)toupper((unsigned char)field[0]);
		if (c != 'W' && c != 'B') { err = "FEN field must start with W or B"; return false; }
		const bool black = c == 'B';
		if (seen_color[black]) { err = "FEN names a color twice"; return false; }
		seen_color[black] = true;
		const std::string list = trim(field.substr(1));
		if (list.empty()) continue;
		for (std::string item : split(list, ',')) {
			item = trim(item);
			bool king = false;
			if (!item.empty() && (item[0] == 'K' || item[0] == 'k')) { king = true; item = item.substr(1); }
			int lo, hi;
			const auto dash = item.find('-');
			if (dash == std::string::npos) {
				if (!parse_square(item, lo)) { err = "bad FEN square '" + item + "'"; return false; }
				hi = lo;
			}
			else if (!parse_square(item.substr(0, dash), lo) || !parse_square(item.substr(dash + 1), hi) || hi < lo) {
				err = "bad FEN range '" + item + "'"; return false;
			}
			for (int s = lo; s <= hi; s++) {
				if (p.sq[s] != kEmpty) { err = "FEN square " + std::to_string(s) + " given twice"; return false; }
				p.sq[s] = black ? (king ? kBlackKing : kBlackMan) : (king ? kWhiteKing : kWhiteMan);
			}
		}
	}
	pos = p;
	return true;
}

// "11-15", "9x18x27", the short form "9x27".
bool find_move(const Position &p, const std::string &text, Move &found, std::string &err) {
	std::vector<int> squares;
	std::string cur;
	for (char c : text + "-") {
		if (c == '-' || c == 'x' || c == 'X') {
			int s;
			if (!parse_square(cur, s)) { err = "unreadable move '" + text + "'"; return false; }
			squares.push_back(s);
			cur.clear();
		}
		else cur += c;
	}
	if (squares.size() < 2) { err = "unreadable move '" + text + "'"; return false; }
	const auto moves = legal_moves(p);
	const Move *shortform = nullptr;
	bool ambiguous = false;
	for (const auto &m : moves) {
		if (m.path == squares) { found = m; return true; }
		if (squares.size() == 2 && m.path.size() > 2 && m.path.front() == squares[0] && m.path.back() == squares[1]) {
			if (shortform && !(shortform->after == m.after)) ambiguous = true;
			if (!shortform) shortform = &m;
		}
	}
	if (shortform && !ambiguous) { found = *shortform; return true; }
	err = ambiguous ? "ambiguous move '" + text + "'" : "illegal move '" + text + "'";
	return false;
}

// ------------------------------------------------------------ CheckerBoard board layout
void to_cb(const Position &p, int board[8][8]) {
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++) board[x][y] = 0;
	static const int code[5] = {0, CB_BLACK | CB_MAN, CB_WHITE | CB_MAN, CB_BLACK | CB_KING, CB_WHITE | CB_KING};
	for (int s = 1; s <= 32; s++) {
		int x, y;
		numbertocoors(s, &x, &y, GT_ENGLISH);
		board[x][y] = code[p.sq[s]];
	}
}

Position from_cb(const int board[8][8], bool black_to_move) {
	Position p;
	p.black_to_move = black_to_move;
	for (int s = 1; s <= 32; s++) {
		int x, y;
		numbertocoors(s, &x, &y, GT_ENGLISH);
		const int v = board[x][y];
		if (v == (CB_BLACK | CB_MAN)) p.sq[s] = kBlackMan;
		else if (v == (CB_WHITE | CB_MAN)) p.sq[s] = kWhiteMan;
		else if (v == (CB_BLACK | CB_KING)) p.sq[s] = kBlackKing;
		else if (v == (CB_WHITE | CB_KING)) p.sq[s] = kWhiteKing;
	}
	return p;
}

// ------------------------------------------------------------------------------ protocol
void say(const std::string &s) {
	fputs(s.c_str(), stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

struct Options {
	bool book = false;
	std::string book_file;
	int hash_mb = 64;
	int margin_ms = -1;			// -1: 10% of the budget + 15 ms
};

struct Session {
	Options opt;
	bool engine_ready = false;
	bool started = false;
	long long timeout_turn = 1000, timeout_match = 0, time_left = INT_MAX;
	bool have_position = false;
	std::string position_error = "no POSITION given";
	std::vector<Position> history;	// the start position, then after each move
};

bool parse_ms(const std::string &t, long long &v) {
	if (t.empty() || t.size() > 12) return false;
	for (char c : t) if (!isdigit((unsigned char)c)) return false;
	v = atoll(t.c_str());
	return true;
}

void cmd_position(Session &s, const std::vector<std::string> &w) {
	s.have_position = false;
	std::string fen;
	size_t i = 1;
	for (; i < w.size() && w[i] != "MOVES"; i++) {
		if (w[i].find('=') != std::string::npos) continue;	// ply=12/400 quiet=3/80
		fen += w[i];
	}
	Position p;
	std::string err;
	if (!parse_fen(fen, p, err)) {
		s.position_error = "unreadable position: " + err;
		say("ERROR " + s.position_error);
		return;
	}
	std::vector<Position> hist{p};
	for (i = i + 1; i < w.size(); i++) {
		Move m;
		if (!find_move(hist.back(), w[i], m, err)) {
			s.position_error = err + " after " + std::to_string(hist.size() - 1) + " moves";
			say("ERROR " + s.position_error);
			return;
		}
		hist.push_back(m.after);
	}
	s.history = hist;
	s.have_position = true;
}

void cmd_go(Session &s) {
	if (!s.engine_ready) { say("ERROR no game: send START checkers first"); return; }
	if (!s.have_position) { say("ERROR " + s.position_error); return; }
	const Position &cur = s.history.back();
	const auto moves = legal_moves(cur);
	if (moves.empty()) { say("ERROR no legal move: the game is over"); return; }

	// Time: the turn limit, and a twentieth of the game time left when the game has a clock.
	double budget = s.timeout_turn > 0 ? (double)s.timeout_turn : 0.0;
	if (s.timeout_match > 0 && s.time_left < INT_MAX) {
		const double share = (double)std::max(0LL, s.time_left) / 20.0;
		budget = budget > 0 ? std::min(budget, share) : share;
	}
	const double margin = s.opt.margin_ms >= 0 ? s.opt.margin_ms : 0.10 * budget + 15.0;
	const double think_ms = std::max(5.0, budget - margin);

	int board[8][8];
	to_cb(cur, board);
	std::vector<int> hist, colors;
	for (size_t k = 0; k + 1 < s.history.size(); k++) {
		int b[8][8];
		to_cb(s.history[k], b);
		for (int x = 0; x < 8; x++)
			for (int y = 0; y < 8; y++) hist.push_back(b[x][y]);
		colors.push_back(s.history[k].black_to_move ? CB_BLACK : CB_WHITE);
	}
	const auto t0 = std::chrono::steady_clock::now();
	GceResult r{};
	gce_think(board, cur.black_to_move ? CB_BLACK : CB_WHITE, think_ms / 1000.0, (int)colors.size(),
			  hist.data(), colors.data(), &r);
	const double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

	const Position got = from_cb(board, !cur.black_to_move);
	const Move *played = nullptr;
	for (const auto &m : moves)
		if (m.after == got) { played = &m; break; }
	char line[200];
	const int score = cur.black_to_move ? -r.eval_white : r.eval_white;
	if (r.depth == 0 && played)
		snprintf(line, sizeof line, "MESSAGE book/instant move, time %.0f ms (limit %.0f)", took, think_ms);
	else
		snprintf(line, sizeof line, "MESSAGE depth %d score %d nodes %llu time %.0f ms (limit %.0f)", r.depth,
				 score, r.nodes, took, think_ms);
	say(line);
	if (!played) {
		// Should not happen; answer a legal move rather than forfeit, and say so.
		say(std::string("MESSAGE warning: engine ") + (r.moved ? "answered an unknown position" : "did not move") +
			"; playing the first legal move");
		played = &moves.front();
	}
	say(move_text(*played));
}

void session(Session &s) {
	std::string line;
	char buf[1 << 16];
	while (fgets(buf, sizeof buf, stdin)) {
		line = buf;
		while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
		std::vector<std::string> w;
		{
			std::string cur;
			for (char c : line + " ") {
				if (c == ' ' || c == '\t') { if (!cur.empty()) w.push_back(cur); cur.clear(); }
				else cur += c;
			}
		}
		if (w.empty()) continue;
		const std::string &cmd = w[0];
		if (cmd == "START") {
			if (w.size() < 2) { say("ERROR START needs a game"); continue; }
			if (w[1] != "checkers") { say("ERROR GuiCheckers plays only checkers (English draughts), not " + w[1]); continue; }
			if (!s.engine_ready) {
				const int n = gce_init(s.opt.hash_mb, s.opt.book ? s.opt.book_file.c_str() : nullptr);
				if (n < 0) { say("ERROR cannot read the opening book " + s.opt.book_file); continue; }
				s.engine_ready = true;
				if (s.opt.book) say("MESSAGE opening book: " + std::to_string(n) + " positions");
			}
			s.started = true;
			s.have_position = false;
			s.position_error = "no POSITION given";
			s.history.clear();
			say("OK");
		}
		else if (cmd == "INFO") {
			if (w.size() < 3) { say("ERROR INFO needs a key and a value"); continue; }
			long long v;
			const bool known = w[1] == "timeout_turn" || w[1] == "timeout_match" || w[1] == "time_left";
			if (!known) continue;
			if (!parse_ms(w[2], v)) { say("ERROR bad value for " + w[1] + ": " + w[2]); continue; }
			if (w[1] == "timeout_turn") s.timeout_turn = v;
			else if (w[1] == "timeout_match") s.timeout_match = v;
			else s.time_left = v;
		}
		else if (cmd == "POSITION") {
			if (w.size() < 2) { s.have_position = false; s.position_error = "POSITION needs a FEN"; say("ERROR " + s.position_error); continue; }
			cmd_position(s, w);
		}
		else if (cmd == "GO") cmd_go(s);
		else if (cmd == "ABOUT")
			say("name=\"GuiCheckers\", version=\"1.11 (eygilbert/GuiCheckers 41ee6f9, selfplay adapter)\", "
				"author=\"Jonathan Kreuzer\"");
		else if (cmd == "END") return;
		else say("UNKNOWN " + line);
	}
}

std::string dir_of_exe() {
	char p[4096];
	const ssize_t n = readlink("/proc/self/exe", p, sizeof p - 1);
	if (n <= 0) return ".";
	p[n] = 0;
	std::string s(p);
	const auto slash = s.rfind('/');
	return slash == std::string::npos ? "." : s.substr(0, slash);
}

void usage() {
	fputs("guicheckers-engine [--book on|off] [--book-file PATH] [--hash MB] [--margin-ms MS]\n"
		  "                   [--perft DEPTH [--fen FEN]]\n"
		  "Speaks selfplay's engine protocol on stdin/stdout (docs/engine-protocol.md).\n"
		  "  --book on|off   GuiCheckers' opening book (default off)\n"
		  "  --book-file     the book (default: opening.gbk next to this program)\n"
		  "  --hash MB       transposition table size (default 64)\n"
		  "  --margin-ms MS  time kept back from each move's budget (default 10% + 15 ms)\n"
		  "  --perft D       count the adapter's own legal move paths to depth D and exit\n",
		  stderr);
}

}  // namespace

int main(int argc, char **argv) {
	Session s;
	s.opt.book_file = dir_of_exe() + "/opening.gbk";
	int perft_depth = -1;
	std::string perft_fen = "B:W21-32:B1-12";
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		auto value = [&](const char *name) -> std::string {
			if (i + 1 >= argc) { fprintf(stderr, "%s needs a value\n", name); usage(); exit(2); }
			return argv[++i];
		};
		if (a == "--book") {
			const std::string v = value("--book");
			if (v == "on") s.opt.book = true;
			else if (v == "off") s.opt.book = false;
			else { fprintf(stderr, "--book on|off\n"); return 2; }
		}
		else if (a == "--book-file") s.opt.book_file = value("--book-file");
		else if (a == "--hash") s.opt.hash_mb = atoi(value("--hash").c_str());
		else if (a == "--margin-ms") s.opt.margin_ms = atoi(value("--margin-ms").c_str());
		else if (a == "--perft") perft_depth = atoi(value("--perft").c_str());
		else if (a == "--fen") perft_fen = value("--fen");
		else if (a == "-h" || a == "--help") { usage(); return 0; }
		else { fprintf(stderr, "unknown option %s\n", a.c_str()); usage(); return 2; }
	}
	if (perft_depth >= 0) {
		Position p;
		std::string err;
		if (!parse_fen(perft_fen, p, err)) { fprintf(stderr, "%s\n", err.c_str()); return 2; }
		for (const auto &m : legal_moves(p))
			printf("%s %llu\n", move_text(m).c_str(), perft(m.after, perft_depth - 1));
		printf("total %llu\n", perft(p, perft_depth));
		return 0;
	}
	session(s);
	return 0;
}
EOF

# ---------------------------------------------------------------------------------------------
# 5. Compile: the engine as a static library, then the adapter.
# ---------------------------------------------------------------------------------------------
CXXFLAGS=${CXXFLAGS:--O2}
DEFS="-DNDEBUG -DDLL_BUILD -D_CRT_SECURE_NO_WARNINGS"
INC="-I$OUT/shim -I$OUT/src -I$OUT/glue"
# The engine sources predate modern C++ warnings (string literals as char*, misleading
# indentation, unused results); they are silenced, not fixed.
ENGINE_WARN="-w"
$NICE $CXX -std=c++17 $CXXFLAGS $DEFS $INC $ENGINE_WARN -c "$OUT/glue/gc_engine.cpp" -o "$OUT/obj/gc_engine.o"
ar rcs "$OUT/libguicheckers.a" "$OUT/obj/gc_engine.o"
$NICE $CXX -std=c++17 $CXXFLAGS $DEFS $INC -Wall -Wextra -c "$OUT/glue/adapter.cpp" -o "$OUT/obj/adapter.o"
$NICE $CXX "$OUT/obj/adapter.o" "$OUT/libguicheckers.a" -o "$OUT/guicheckers-engine"
echo "built $OUT/guicheckers-engine"
