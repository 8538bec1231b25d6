#include "host/protocol/pbrain.hpp"

#include <cctype>
#include <limits>

#ifndef SELFPLAY_VERSION
#define SELFPLAY_VERSION "unknown"
#endif

namespace sp::selfplay {

uint32_t move_budget_ms(const PbrainClock& clock) {
  int64_t limit = -1;
  if (clock.timeout_turn >= 0) limit = clock.timeout_turn;
  if (clock.time_left >= 0 && clock.timeout_match != 0) {
    const int64_t share = clock.time_left / kPbrainMovesToGo;
    limit = limit < 0 ? share : std::min(limit, share);
  }
  if (limit < 0) return 0;
  // A margin for what the search does not count: reading the command, making the engine, the
  // answer, the manager's own overhead.
  const int64_t margin = std::min(limit / 2, 30 + limit / 10);
  return static_cast<uint32_t>(std::clamp<int64_t>(limit - margin, 1, 3'600'000));
}

config::EngineConfig memory_capped_engine(config::EngineConfig engine, uint64_t max_memory_bytes,
                                          std::string* note) {
  if (note) note->clear();
  if (max_memory_bytes == 0) return engine;
  const uint64_t cap_mb = std::max<uint64_t>(1, max_memory_bytes / 2 / (1024 * 1024));
  const auto cap = [&](uint32_t* mb, const char* what) {
    if (*mb <= cap_mb) return;
    if (note)
      *note = std::string(what) + " capped from " + std::to_string(*mb) + " to " +
              std::to_string(cap_mb) + " MiB";
    *mb = static_cast<uint32_t>(cap_mb);
  };
  switch (engine.type) {
    case config::EngineType::kMcts:
      cap(&engine.node_budget, "MCTS tree");
      break;
    case config::EngineType::kAlphaBeta:
    case config::EngineType::kExpectimax:
      cap(&engine.tt_size_mb, "transposition table");
      break;
    case config::EngineType::kFlat:
    case config::EngineType::kRandom:
    case config::EngineType::kPbrain:  // refused by the protocol sessions
    case config::EngineType::kExternal:
      break;
  }
  return engine;
}

namespace pbrain_detail {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

bool read_line(std::istream& in, std::string& line) {
  line.clear();
  std::istream::sentry ok(in, true);
  if (!ok) return false;
  std::streambuf& buffer = *in.rdbuf();
  for (;;) {
    const int c = buffer.sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (line.empty()) in.setstate(std::ios::failbit);
      return !line.empty();
    }
    if (c == '\n' || c == '\r') return true;
    line.push_back(static_cast<char>(c));
  }
}

CommandLine split_command(std::string_view line) {
  CommandLine c;
  const std::string_view text = trim(line);
  c.text = std::string(text);
  size_t end = 0;
  while (end < text.size() && !is_space(text[end])) ++end;
  c.word = std::string(text.substr(0, end));
  for (char& ch : c.word) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  c.args = std::string(trim(text.substr(end)));
  return c;
}

std::vector<int64_t> parse_numbers(std::string_view text, size_t count, const char* form) {
  const auto bad = [&]() {
    throw InputError(std::string("expected ") + form + " (integers separated by commas), got \"" +
                     excerpt(text) + "\"");
  };
  std::vector<int64_t> out;
  size_t i = 0;
  for (;;) {
    while (i < text.size() && is_space(text[i])) ++i;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative) ++i;
    const size_t first = i;
    int64_t v = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (i - first >= 15) bad();  // far beyond any board or clock; keeps v exact
      v = v * 10 + (text[i] - '0');
    }
    if (i == first) bad();
    out.push_back(negative ? -v : v);
    while (i < text.size() && is_space(text[i])) ++i;
    if (i == text.size()) break;
    if (text[i] != ',' || out.size() == count) bad();
    ++i;
  }
  if (out.size() != count) bad();
  return out;
}

int64_t parse_count(std::string_view key, std::string_view text) {
  // Any count of digits: a value past int64 (a manager's "no limit" written as INT64_MAX or
  // larger) saturates, which every clock reads as far more than a game takes.
  const std::string_view t = trim(text);
  bool ok = !t.empty();
  int64_t v = 0;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  for (const char c : t) {
    ok = ok && c >= '0' && c <= '9';
    if (!ok) break;
    const int digit = c - '0';
    v = v > (kMax - digit) / 10 ? kMax : v * 10 + digit;
  }
  if (!ok)
    throw InputError("INFO " + std::string(key) + ": expected a non-negative integer, got \"" +
                     excerpt(text) + "\"");
  return v;
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

std::string about_text() {
  return "name=\"selfplay\", version=\"" SELFPLAY_VERSION "\", author=\"the selfplay project\"";
}

}  // namespace pbrain_detail
}  // namespace sp::selfplay
