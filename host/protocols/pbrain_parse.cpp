// The Gomocup protocol's text handling (pbrain_parse.hpp): lines, command words, numbers and the
// text of replies.
#include "host/protocols/pbrain_parse.hpp"

#include <cctype>
#include <limits>

#include "host/base/system/build_info.hpp"

namespace sp::selfplay {
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

bool starts_number(std::string_view word) {
  return !word.empty() && ((word[0] >= '0' && word[0] <= '9') || word[0] == '-');
}

void no_arguments(const CommandLine& c) {
  if (!c.args.empty()) throw InputError(c.word + " takes no arguments");
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

std::variant<BoardLine, std::string> parse_board_line(std::string_view text) {
  std::vector<int64_t> v;
  try {
    v = parse_numbers(text, 3, "x,y,f");
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  if (v[2] < 1 || v[2] > 3)
    return "x,y,f line \"" + excerpt(text) +
           "\": f must be 1 (own stone), 2 (opponent's) or 3 (continuous games)";
  return BoardLine{v[0], v[1], v[2]};
}

InfoLine split_info(std::string_view args) {
  const size_t space = args.find_first_of(" \t");
  InfoLine info;
  info.key = std::string(args.substr(0, space));
  for (char& ch : info.key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  info.value = space == std::string_view::npos ? "" : std::string(args.substr(space + 1));
  info.value.erase(0, info.value.find_first_not_of(" \t"));
  if (info.key.empty()) throw InputError("INFO needs a key and a value");
  return info;
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

std::string about_text() {
  return std::string("name=\"selfplay\", version=\"") + build::version() +
         "\", author=\"the selfplay project\"";
}

}  // namespace pbrain_detail
}  // namespace sp::selfplay
