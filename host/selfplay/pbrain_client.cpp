#include "host/selfplay/pbrain_client.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

#include "games/common/errors.hpp"
#include "host/common/log.hpp"

namespace sp::selfplay {
namespace {

using search::Termination;

// Gomocup's value for "no limit" in INFO time_left.
constexpr uint64_t kNoTimeLeft = 2147483647;
// START may take longer than a move (an engine loading its tables), at least this long.
constexpr uint32_t kStartMs = 5000;

bool starts_with(std::string_view line, std::string_view word) {
  return line.size() >= word.size() && line.compare(0, word.size(), word) == 0 &&
         (line.size() == word.size() || line[word.size()] == ' ');
}

// "x,y" with optional blanks around the numbers; nullopt otherwise.
std::optional<std::pair<int, int>> parse_square(std::string_view text) {
  const auto trim = [](std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    return t;
  };
  const size_t comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const auto number = [&](std::string_view t) -> std::optional<int> {
    t = trim(t);
    int v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc{} || end != t.data() + t.size()) return std::nullopt;
    return v;
  };
  const auto x = number(text.substr(0, comma)), y = number(text.substr(comma + 1));
  if (!x || !y) return std::nullopt;
  return std::pair{*x, *y};
}

// Lines an engine may print at any time that are no answer.
bool is_chatter(std::string_view line) {
  return starts_with(line, "MESSAGE") || starts_with(line, "DEBUG");
}

}  // namespace

std::string PbrainClient::time_limits_text() const {
  return fmt::format(
      "timeout_turn_ms {}{}, tolerance_ms {}", s_.timeout_turn_ms,
      s_.timeout_match_ms ? fmt::format(", timeout_match_ms {}", s_.timeout_match_ms) : "",
      s_.tolerance_ms);
}

void PbrainClient::fail(Termination reason, std::string detail) {
  phase_ = Phase::kForfeit;
  forfeit_ = search::Forfeit{reason, std::move(detail)};
  if (reason == Termination::kCrash && child_) forfeit_.detail += " (" + child_->kill_now() + ")";
}

void PbrainClient::start_game() {
  end_game();
  used_ms_ = 0;
  answer_.reset();
  answer_text_.clear();
  forfeit_ = {};
  child_ = std::make_unique<ChildProcess>(s_.command);
  phase_ = Phase::kIdle;
  const std::string start = "START " + std::to_string(s_.board_size);
  if (!child_->write_line(start)) return fail(Termination::kCrash, "its input closed at START");
  const auto deadline =
      Clock::now() +
      std::chrono::milliseconds(std::max(kStartMs, s_.timeout_turn_ms) + s_.tolerance_ms);
  for (std::string line;;) {
    switch (child_->read_line(line, deadline)) {
      case ChildProcess::Read::kTimeout:
        return fail(Termination::kTimeLoss, "no answer to " + start + " in time");
      case ChildProcess::Read::kClosed:
        return fail(Termination::kCrash, "it ended before answering " + start);
      case ChildProcess::Read::kLine:
        break;
    }
    if (is_chatter(line)) {
      log::debug("pbrain " + excerpt(s_.command[0]) + ": " + excerpt(line));
      continue;
    }
    if (line == "OK") break;
    throw InputError("engine " + excerpt(command_line_text()) + " refused " + start + ": '" +
                     excerpt(line) + "'");
  }
  const std::vector<std::string> info = {
      "INFO timeout_turn " + std::to_string(s_.timeout_turn_ms),
      "INFO timeout_match " + std::to_string(s_.timeout_match_ms),
      "INFO max_memory 0",
      "INFO game_type 1",
      "INFO rule " + std::to_string(s_.rule),
  };
  for (const std::string& line : info)
    if (!child_->write_line(line)) return fail(Termination::kCrash, "its input closed after START");
}

std::string PbrainClient::command_line_text() const {
  std::string out;
  for (const std::string& w : s_.command) out += (out.empty() ? "" : " ") + w;
  return out;
}

void PbrainClient::request(const std::vector<std::string>& lines) {
  if (phase_ == Phase::kForfeit) return;  // START failed: the first move is forfeited
  answer_.reset();
  answer_text_.clear();
  uint64_t allowed = s_.timeout_turn_ms;
  uint64_t time_left = kNoTimeLeft;
  if (s_.timeout_match_ms) {
    time_left = s_.timeout_match_ms > used_ms_ ? s_.timeout_match_ms - used_ms_ : 0;
    allowed = std::min<uint64_t>(allowed, time_left);
  }
  // Lines printed since the last answer are no answer to this request.
  for (std::string line;;) {
    const ChildProcess::Read got = child_->try_read_line(line);
    if (got == ChildProcess::Read::kClosed)
      return fail(Termination::kCrash, "its output closed before it was to move");
    if (got == ChildProcess::Read::kTimeout) break;
    log::debug("pbrain " + excerpt(s_.command[0]) + " (between moves, ignored): " + excerpt(line));
  }
  phase_ = Phase::kThinking;
  sent_ = Clock::now();
  deadline_ = sent_ + std::chrono::milliseconds(allowed + s_.tolerance_ms);
  if (!child_->write_line("INFO time_left " + std::to_string(time_left)))
    return fail(Termination::kCrash, "its input closed");
  for (const std::string& line : lines)
    if (!child_->write_line(line)) return fail(Termination::kCrash, "its input closed");
  poll();
}

void PbrainClient::poll() {
  if (phase_ != Phase::kThinking) return;
  for (std::string line;;) {
    const ChildProcess::Read got = child_->try_read_line(line);
    if (got == ChildProcess::Read::kClosed)
      return fail(Termination::kCrash, "its output closed while it was to move");
    if (got == ChildProcess::Read::kTimeout) break;
    if (is_chatter(line)) {
      log::debug("pbrain " + excerpt(s_.command[0]) + ": " + excerpt(line));
      continue;
    }
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent_);
    used_ms_ += static_cast<uint64_t>(took.count());
    if (Clock::now() > deadline_)
      return fail(Termination::kTimeLoss,
                  fmt::format("answered after {} ms ({})", took.count(), time_limits_text()));
    if (s_.timeout_match_ms && used_ms_ > uint64_t{s_.timeout_match_ms} + s_.tolerance_ms)
      return fail(Termination::kTimeLoss, fmt::format("its game time ran out: {} ms used ({})",
                                                      used_ms_, time_limits_text()));
    answer_text_ = line;
    if (starts_with(line, "ERROR") || starts_with(line, "UNKNOWN"))
      return fail(Termination::kIllegalMove, "answered '" + excerpt(line) + "' instead of a move");
    answer_ = parse_square(line);
    if (!answer_)
      return fail(Termination::kIllegalMove,
                  "answered '" + excerpt(line) + "', which is not a move x,y");
    phase_ = Phase::kAnswered;
    return;
  }
  if (Clock::now() > deadline_) {
    used_ms_ += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent_).count());
    fail(Termination::kTimeLoss,
         fmt::format(
             "no answer within {} ms ({})",
             std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - sent_).count(),
             time_limits_text()));
  }
}

void PbrainClient::reject(std::string detail) {
  fail(Termination::kIllegalMove, std::move(detail));
}

std::optional<search::ExternalWait> PbrainClient::waiting() const {
  if (phase_ != Phase::kThinking) return std::nullopt;
  if (child_->has_buffered_line())
    return search::ExternalWait{child_->out_fd(), Clock::time_point::min()};
  return search::ExternalWait{child_->out_fd(), deadline_};
}

void PbrainClient::end_game() {
  if (!child_) return;
  child_->write_line("END");
  const std::string ended = child_->finish(std::chrono::milliseconds(s_.tolerance_ms));
  if (ended.rfind("killed after", 0) == 0)
    log::debug("pbrain " + excerpt(s_.command[0]) + " ignored END: " + ended);
  child_.reset();
  phase_ = Phase::kIdle;
}

}  // namespace sp::selfplay
