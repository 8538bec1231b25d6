#include "games/checkers/pdn.hpp"

#include <optional>
#include <string>

#include "core/errors.hpp"
#include "core/text_lines.hpp"
#include "games/checkers/notation.hpp"

namespace sp::checkers {
namespace {

constexpr size_t kLineWidth = 79;
constexpr const char* kResults = "1-0, 0-1, 1/2-1/2 or *";

bool is_result(std::string_view w) {
  return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*";
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool is_name_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
// Characters that end a word of the movetext.
bool ends_word(char c) {
  return is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' ||
         c == ';';
}

bool same_board(const State& a, const State& b) {
  return a.pieces[0] == b.pieces[0] && a.pieces[1] == b.pieces[1] && a.kings == b.kings &&
         a.side == b.side;
}

const char* side_name(int side) { return side == 0 ? "Black" : "White"; }

class Reader {
 public:
  Reader(std::string_view text, std::string_view name) : text_(text), name_(name), lines_(text) {}

  std::vector<PdnGame> games() {
    for (;;) {
      while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
      if (pos_ == text_.size()) break;
      const char c = text_[pos_];
      if (c == '{') {
        skip_comment();
      } else if (c == ';') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '(') {
        skip_variation();
      } else if (c == ')' || c == ']' || c == '}') {
        fail(pos_, std::string("unexpected '") + c + "'");
      } else if (c == '[') {
        read_tag();
      } else {
        read_word();
      }
    }
    if (open_)
      fail(pos_, "end of file: the game from line " + std::to_string(line_of(game_start_)) +
                     " has no result token (" + kResults + ") after its moves");
    if (games_.empty())
      throw InputError(std::string(name_) + ": no game in the file (a game ends with a result " +
                       "token: " + kResults + ")");
    return std::move(games_);
  }

 private:
  size_t line_of(size_t at) const { return static_cast<size_t>(lines_.line(at)); }

  [[noreturn]] void fail(size_t at, const std::string& message) const {
    const auto [line, column] = lines_.position(at);
    throw InputError(std::string(name_) + ":" + std::to_string(line) + ":" +
                     std::to_string(column) + ": " + message);
  }

  void open_game() {
    if (open_) return;
    open_ = true;
    game_start_ = pos_;
    game_ = PdnGame{};
    moves_started_ = false;
    result_tag_.reset();
    setup_at_ = fen_at_ = std::string_view::npos;
    setup_ = false;
  }

  // The movetext starts: the position the moves are played from is settled.
  void start_moves() {
    if (moves_started_) return;
    moves_started_ = true;
    if (setup_ && fen_at_ == std::string_view::npos)
      fail(setup_at_, "[SetUp \"1\"] without a [FEN] tag giving the position");
    state_ = game_.start;
  }

  void finish_game(std::string_view result, size_t at) {
    start_moves();
    if (result_tag_ && result_tag_->first != result)
      fail(at, "result " + std::string(result) + ", but the game's [Result] tag on line " +
                   std::to_string(line_of(result_tag_->second)) + " says " + result_tag_->first);
    game_.result = std::string(result);
    game_.line = line_of(game_start_);
    games_.push_back(std::move(game_));
    open_ = moves_started_ = false;
  }

  void skip_comment() {
    const size_t start = pos_;
    const size_t end = text_.find('}', pos_ + 1);
    if (end == std::string_view::npos) fail(start, "comment not closed: no '}' after this '{'");
    pos_ = end + 1;
  }

  // Skips a variation, nested ones and comments in it included; its moves are not checked.
  void skip_variation() {
    const size_t start = pos_;
    int depth = 0;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '{') {
        skip_comment();
        continue;
      }
      ++pos_;
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return;
    }
    fail(start, "variation not closed: no ')' after this '('");
  }

  void read_tag() {
    const size_t start = pos_;
    if (moves_started_)
      fail(start, "a tag after the moves of the game from line " +
                      std::to_string(line_of(game_start_)) + ": that game has no result token (" +
                      kResults + ")");
    open_game();
    ++pos_;
    const auto skip_blanks = [&] {
      while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    };
    skip_blanks();
    const size_t name_at = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    if (pos_ == name_at) fail(name_at, "expected a tag name (letters, digits, '_') after '['");
    const std::string name(text_.substr(name_at, pos_ - name_at));
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != '"')
      fail(pos_, "expected '\"' and the value of tag " + name);
    const size_t value_at = ++pos_;
    std::string value;
    for (;;) {
      if (pos_ >= text_.size() || text_[pos_] == '\n' || text_[pos_] == '\r')
        fail(value_at - 1, "the value of tag " + name + " is not closed by '\"' on its line");
      const char c = text_[pos_++];
      if (c == '"') break;
      if (c == '\\' && pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\\'))
        value += text_[pos_++];
      else
        value += c;
    }
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != ']') fail(pos_, "expected ']' to close tag " + name);
    ++pos_;

    for (const PdnTag& t : game_.tags)
      if (t.name == name) fail(start, "tag " + name + " given twice in one game");
    if ((name == "Result" && result_tag_) || (name == "FEN" && fen_at_ != std::string_view::npos) ||
        (name == "SetUp" && setup_at_ != std::string_view::npos))
      fail(start, "tag " + name + " given twice in one game");
    if (name == "Result") {
      if (!is_result(value))
        fail(value_at, "[Result \"" + excerpt(value) + "\"]: expected " + kResults);
      result_tag_.emplace(value, start);
    } else if (name == "SetUp") {
      if (value != "0" && value != "1") fail(value_at, "[SetUp] is \"1\" or \"0\"");
      setup_at_ = start;
      setup_ = value == "1";
    } else if (name == "FEN") {
      fen_at_ = start;
      if (const size_t space = value.find(' '); space != std::string::npos)
        fail(value_at + space, "[FEN]: a PDN FEN has no spaces (no draw counters)");
      try {
        game_.start = without_draw_limits(parse_position(value));
      } catch (const InputError& e) {
        fail(value_at, std::string("[FEN]: ") + e.what());
      }
      if (!has_move(game_.start))
        fail(value_at,
             std::string("[FEN]: ") + side_name(game_.start.side) + " is to move and has no move");
    } else {
      game_.tags.push_back(PdnTag{name, std::move(value)});
    }
  }

  void read_word() {
    size_t at = pos_;
    while (pos_ < text_.size() && !ends_word(text_[pos_])) ++pos_;
    std::string_view word = text_.substr(at, pos_ - at);
    if (is_result(word)) {
      open_game();
      finish_game(word, at);
      return;
    }
    if (word[0] == '$') {
      for (size_t i = 1; i < word.size(); ++i)
        if (!is_digit(word[i])) fail(at + i, "a NAG is '$' and digits, such as $1");
      if (word.size() == 1) fail(at, "a NAG is '$' and digits, such as $1");
      return;
    }
    open_game();
    start_moves();
    // A move number: digits and one or more dots, perhaps glued to the move.
    size_t digits = 0;
    while (digits < word.size() && is_digit(word[digits])) ++digits;
    if (digits > 0 && digits < word.size() && word[digits] == '.') {
      size_t end = digits;
      while (end < word.size() && word[end] == '.') ++end;
      if (end == word.size()) return;
      at += end;
      word.remove_prefix(end);
    }
    read_move(word, at);
  }

  void read_move(std::string_view word, size_t at) {
    while (!word.empty() && (word.back() == '!' || word.back() == '?')) word.remove_suffix(1);
    const MoveText written = lex_move(word);
    if (!written.ok)
      fail(at + written.column, "\"" + excerpt(word) + "\" is not a move (" + written.problem +
                                    "); expected a move such as 11-15 or 22x15, a move number, " +
                                    "a comment or a result (" + kResults + ")");
    if (!has_move(state_))
      fail(at, "move " + std::string(word) + " after the end of the game: " +
                   side_name(state_.side) + " has no move in " + fen(state_));
    const std::vector<Move> fits = matching_moves(state_, written);
    if (fits.empty())
      fail(at, std::string(word) + " is not a legal move for " + side_name(state_.side) + " in " +
                   fen(state_) + " (legal: " + legal_moves_text(state_) + ")");
    if (fits.size() > 1) {
      std::string options;
      for (const Move m : fits) options += (options.empty() ? "" : ", ") + to_string(m);
      fail(at, std::string(word) + " fits " + std::to_string(fits.size()) + " legal moves (" +
                   options + "); write the full path");
    }
    game_.moves.push_back(fits[0]);
    apply(state_, fits[0]);
  }

  std::string_view text_, name_;
  TextLines lines_;
  size_t pos_ = 0;
  std::vector<PdnGame> games_;
  // The game being read.
  bool open_ = false, moves_started_ = false, setup_ = false;
  size_t game_start_ = 0;
  PdnGame game_;
  State state_;                                               // after the moves read so far
  std::optional<std::pair<std::string, size_t>> result_tag_;  // value, where the tag is
  size_t setup_at_ = std::string_view::npos, fen_at_ = std::string_view::npos;
};

std::string tag_value(std::string_view v) {
  std::string out;
  for (const char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  }
  return out;
}

}  // namespace

std::string pdn_result(int winner) { return winner == 0 ? "1-0" : winner == 1 ? "0-1" : "1/2-1/2"; }

std::string write_pdn(const PdnGame& game) {
  std::string out;
  for (const PdnTag& t : game.tags) out += "[" + t.name + " \"" + tag_value(t.value) + "\"]\n";
  out += "[Result \"" + game.result + "\"]\n";
  if (!same_board(game.start, initial_state()))
    out += "[SetUp \"1\"]\n[FEN \"" + fen(game.start) + "\"]\n";
  out += "\n";

  std::string line;
  const auto put = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > kLineWidth) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + token;
  };
  State s = game.start;
  int number = 1;
  for (size_t i = 0; i < game.moves.size(); ++i) {
    // A move number stays on the line of its move.
    const std::string number_text = s.side == 0 ? std::to_string(number) + ". "
                                    : i == 0    ? std::to_string(number) + "... "
                                                : "";
    put(number_text + to_string(game.moves[i]));
    if (s.side == 1) ++number;
    apply(s, game.moves[i]);
  }
  put(game.result);
  return out + line + "\n\n";
}

std::vector<PdnGame> read_pdn(std::string_view text, std::string_view name) {
  return Reader(text, name).games();
}

}  // namespace sp::checkers
